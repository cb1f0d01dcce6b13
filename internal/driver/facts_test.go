package driver

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// apiOf type-checks src as package p and returns its apiHash.
func apiOf(t *testing.T, src string) [32]byte {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/m/p/p.go", src, 0)
	require.NoError(t, err)
	pkg, err := new(types.Config).Check("example.com/p", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	return apiHash(pkg, fset, []string{"/m/p/p.go"})
}

// TestAPIHash: what an importer can see changes the hash (an exported
// declaration, a position, a field of an unexported type an exported
// function returns, a constant's value); a function body and an unexported
// function below the last declaration do not.
func TestAPIHash(t *testing.T) {
	const base = "package p\n\ntype t struct{ A int }\n\nfunc (x *t) M() int { return x.A }\n\nfunc New() *t { return &t{} }\n\nconst C = 1\n"
	h := apiOf(t, base)
	assert.Equal(t, h, apiOf(t, base+"\nfunc helper() {}\n"), "unexported function added at the end")
	assert.Equal(t, h, apiOf(t, "package p\n\ntype t struct{ A int }\n\nfunc (x *t) M() int { return x.A + 0 }\n\nfunc New() *t { return &t{} }\n\nconst C = 1\n"), "body edited")
	for what, src := range map[string]string{
		"exported function added": base + "\nfunc F() {}\n",
		"a line on top":           "package p\n\n" + base[len("package p\n"):],
		"field of t":              "package p\n\ntype t struct{ A, B int }\n\nfunc (x *t) M() int { return x.A }\n\nfunc New() *t { return &t{} }\n\nconst C = 1\n",
		"constant's value":        base[:len(base)-2] + "2\n",
	} {
		assert.NotEqual(t, h, apiOf(t, src), what)
	}
}

// TestAPIHashForeignPositions: a declaration of another package that the
// API reaches (the field of runtime/cgo.Incomplete under each incomplete C
// struct of cgo's) is hashed without its position, which depends on how
// that package was loaded (export data or syntax): the hash of an
// unchanged package must not (zerfoo's internal/cuda missed the early
// cutoff on every edit, its importers all analyzed again).
func TestAPIHashForeignPositions(t *testing.T) {
	apiWith := func(qsrc string) [32]byte {
		fset := token.NewFileSet()
		qf, err := parser.ParseFile(fset, "/m/q/q.go", qsrc, 0)
		require.NoError(t, err)
		q, err := new(types.Config).Check("example.com/q", fset, []*ast.File{qf}, nil)
		require.NoError(t, err)
		pf, err := parser.ParseFile(fset, "/m/p/p.go", "package p\n\nimport \"example.com/q\"\n\ntype T q.Incomplete\n\nfunc New() *T { return nil }\n", 0)
		require.NoError(t, err)
		imp := importerFunc(func(string) (*types.Package, error) { return q, nil })
		pkg, err := (&types.Config{Importer: imp}).Check("example.com/p", fset, []*ast.File{pf}, nil)
		require.NoError(t, err)
		return apiHash(pkg, fset, []string{"/m/p/p.go"})
	}
	const q = "package q\n\ntype Incomplete struct {\n\t_ [0]int\n}\n"
	h := apiWith(q)
	assert.Equal(t, h, apiWith("package q\n\n\n\n// moved\ntype Incomplete struct{ _ [0]int }\n"), "the other package's field moved")
	assert.NotEqual(t, h, apiWith("package q\n\ntype Incomplete struct {\n\t_ [0]int\n\tN int\n}\n"), "the other package's struct changed")
}

// TestFactEncoding: fact types that go vet's encoding keeps are encodable
// (pointers followed, unexported fields dropped), a token.Pos or an
// interface in an exported field is not; the canonical form of a map does
// not depend on its insertion order.
func TestFactEncoding(t *testing.T) {
	type inner struct{ N int }
	type ok struct {
		P    *inner
		S    []string
		M    map[string]int
		hide token.Pos
	}
	type withPos struct{ At token.Pos }
	type withIface struct{ V any }
	assert.True(t, encodable(reflect.TypeFor[*ok]()))
	assert.False(t, encodable(reflect.TypeFor[*withPos]()))
	assert.False(t, encodable(reflect.TypeFor[*withIface]()))
	assert.False(t, encodable(reflect.TypeFor[ok]()), "facts are pointers")

	a, b := &ok{M: map[string]int{}}, &ok{M: map[string]int{}}
	for i := range 50 {
		a.M[string(rune('a'+i))] = i
		b.M[string(rune('a'+49-i))] = 49 - i
	}
	var x, y bytes.Buffer
	require.True(t, canonical(&x, reflect.ValueOf(a), 0))
	require.True(t, canonical(&y, reflect.ValueOf(b), 0))
	assert.Equal(t, x.String(), y.String())
}
