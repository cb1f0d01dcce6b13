package plugin

import (
	"bytes"
	"encoding/gob"
	"flag"
	"reflect"
	"testing"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/analysis"
)

// What Bazel's nogo (docs/nogo.md) needs of each analyzer package, checked
// here because golangci-lint needs the same: a valid analyzer with a unique
// name, flags that all have working defaults, and facts that gob encodes
// the same way every time (no maps, whose order gob does not fix, and no
// interfaces or pointers to cycles).
func TestSuiteIsNogoReady(t *testing.T) {
	require.NoError(t, analysis.Validate(analyzers.Suite()))
	for _, a := range analyzers.Suite() {
		assert.NotEmpty(t, a.Doc, a.Name)
		a.Flags.VisitAll(func(f *flag.Flag) {
			assert.NoError(t, f.Value.Set(f.DefValue), "%s flag -%s: the default must be a valid value", a.Name, f.Name)
		})
		for _, fact := range a.FactTypes {
			typ := reflect.TypeOf(fact)
			assert.Empty(t, nondeterministic(typ.Elem(), map[reflect.Type]bool{}), "%s fact %s", a.Name, typ)
			var b1, b2 bytes.Buffer
			require.NoError(t, gob.NewEncoder(&b1).Encode(fact), "%s fact %s", a.Name, typ)
			require.NoError(t, gob.NewEncoder(&b2).Encode(fact))
			assert.Equal(t, b1.Bytes(), b2.Bytes())
		}
	}
}

// nondeterministic returns the path to a part of typ whose gob encoding
// can differ between runs for equal values, or "".
func nondeterministic(typ reflect.Type, seen map[reflect.Type]bool) string {
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch typ.Kind() {
	case reflect.Map:
		return typ.String() + " is a map"
	case reflect.Interface:
		return typ.String() + " is an interface"
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return nondeterministic(typ.Elem(), seen)
	case reflect.Struct:
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() {
				continue // gob skips it
			}
			if why := nondeterministic(f.Type, seen); why != "" {
				return f.Name + ": " + why
			}
		}
	}
	return ""
}
