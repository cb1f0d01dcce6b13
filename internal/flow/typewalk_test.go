package flow

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Instantiation cycles: go build rejects them, the type checker reports
// them and still hands the analyzers types whose instantiation never ends.
const cycleSrc = `package p

type A[T any] struct{ a *A[A[T]] }

type B[T any] struct{ *B[B[T]] }

type P[T any] struct{ q *Q[P[T]] }
type Q[T any] struct {
	p *P[Q[T]]
	s []Q[*T]
}

type Box[T any] struct{ v T }

type Handle struct{ h *int }

type Nested struct {
	a Box[Box[Box[Box[int]]]]
	b Box[Box[Box[Box[Box[Box[Handle]]]]]]
	m map[string]*Box[[]Box[int]]
}

type Embeds struct {
	Box[int]
	*Nested
}

var (
	a A[int]
	b B[int]
	q Q[int]
	n Nested
	e Embeds
)
`

func cycleTypes(t *testing.T) map[string]types.Type {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", cycleSrc, 0)
	require.NoError(t, err)
	var errs []error
	conf := &types.Config{Error: func(err error) { errs = append(errs, err) }}
	pkg, _ := conf.Check("p", fset, []*ast.File{f}, nil)
	require.NotEmpty(t, errs, "the type checker reports the cycles")
	out := map[string]types.Type{}
	for _, name := range []string{"a", "b", "q", "n", "e"} {
		out[name] = pkg.Scope().Lookup(name).Type()
	}
	return out
}

// within fails the test when f does not return within d (the walks used to
// run until memory ran out).
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v", d)
	}
}

func TestTypeWalksEndOnInstantiationCycles(t *testing.T) {
	ts := cycleTypes(t)
	never := func(types.Type) bool { return false }
	isHandle := func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Obj().Name() == "Handle"
	}
	within(t, 30*time.Second, func() {
		for _, name := range []string{"a", "b", "q"} {
			assert.False(t, TypeHolds(ts[name], never), name)
			assert.False(t, fieldsHold(ts[name], never), name)
			// mayHold must not answer "no" in error: a walk that a bound
			// cut off may hold anything.
			assert.True(t, mayHold(ts[name], never), name)
			assert.False(t, LookupSafe(types.NewPointer(ts["b"])), "b's lookups never end in go/types")
		}
		assert.True(t, LookupSafe(ts["a"]), "no embedded field")
		assert.True(t, LookupSafe(ts["q"]), "no embedded field")
	})
	// Instantiations nested but finite are walked to the end: Box is met
	// ten times on the way to Handle, its arguments up to six deep.
	assert.True(t, TypeHolds(ts["n"], isHandle))
	assert.False(t, mayHold(ts["n"], never), "nothing cut off")
	assert.True(t, LookupSafe(ts["e"]))
	assert.True(t, HoldsPointer(ts["n"]))
}

func TestTypeWalkBounds(t *testing.T) {
	ts := cycleTypes(t)
	var w typeWalk
	// A[int], A[A[int]], ...: until their arguments hold more than
	// MaxTypeArgs types, then cut.
	ty := ts["a"]
	entered := 0
	for range 100 {
		if !w.Enter(ty) {
			break
		}
		entered++
		ty = ty.Underlying().(*types.Struct).Field(0).Type().(*types.Pointer).Elem()
	}
	assert.Equal(t, maxTypeArgs, entered)
	assert.True(t, w.Cut)

	w = typeWalk{}
	assert.True(t, w.Enter(types.Typ[types.Int]))
	assert.False(t, w.Enter(types.Typ[types.Int]), "seen")
	assert.False(t, w.Cut, "seen is not cut")
	assert.False(t, w.Enter(nil))
	for i := range maxTypeWalk {
		w.Enter(types.NewSlice(types.NewArray(types.Typ[types.Int], int64(i))))
	}
	assert.False(t, w.Enter(types.NewPointer(types.Typ[types.Int])), "over MaxTypeWalk")
	assert.True(t, w.Cut)
}
