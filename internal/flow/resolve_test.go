package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const resolveSrc = `package p

type M struct{ h int }

func (m *M) Close() error   { return nil }
func (m *M) Use(n int) error { return nil }

type K struct{ *M }
type Pair[T any] struct{ v T }

func (p *Pair[T]) Get(n int) T { return p.v }
func Free[T any](x T, n int)   {}
func Plain(a, b int)           {}

type reg struct{ unload func() error }

func calls(m, m2 *M, k *K, p *Pair[int], fs []func()) {
	m.Close()                  // 0: method, receiver m
	(*M).Use(m, 7)             // 1: method expression, receiver m, param 0 = 7
	u := m.Close               // a method value bound once
	u()                        // 2: Close, receiver m
	r := reg{unload: m.Close}
	r.unload()                 // 3: Close through a local struct literal
	hooks := map[string]func() error{"close": m.Close}
	hooks["close"]()           // 4: Close through a local map literal
	Free[int](1, 2)            // 5: the generic origin, param 1 = 2
	p.Get(3)                   // 6: the origin method, receiver p
	k.Close()                  // 7: promoted
	g := Plain
	g(4, 5)                    // 8: a bound function, param 1 = 5
	w := m.Close
	w = k.Close
	w()                        // 9: assigned twice: unknown
	fs[0]()                    // 10: unknown
	hooks[fmtKey()]()          // 11: a key that is no constant: unknown
	var c closer = m
	c.Close()                  // 12: the dynamic type of c is *M, and c holds m
	var d closer = pick(m, k)
	d.Close()                  // 13: not known: the interface method
	var e closer = m2
	m2 = k.M
	e.Close()                  // 14: e holds the m2 of before: receiver e
}

type closer interface{ Close() error }

func pick(m *M, k *K) closer { return m }

func fmtKey() string { return "close" }
`

func TestResolve(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", resolveSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances: map[*ast.Ident]types.Instance{}}
	_, err = (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	x := NewIndex(fset, []*ast.File{f}, info)
	var calls []*ast.CallExpr
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "calls" {
			for _, st := range fd.Body.List {
				if es, ok := st.(*ast.ExprStmt); ok {
					calls = append(calls, es.X.(*ast.CallExpr))
				}
			}
		}
	}
	require.Len(t, calls, 15)
	name := func(fn *types.Func) string {
		if fn == nil {
			return ""
		}
		return fn.Name()
	}
	str := func(e ast.Expr) string {
		if e == nil {
			return ""
		}
		return types.ExprString(e)
	}
	for i, want := range []struct{ fn, recv, arg0, arg1 string }{
		{"Close", "m", "", ""},
		{"Use", "m", "7", ""},
		{"Close", "m", "", ""},
		{"Close", "m", "", ""},
		{"Close", "m", "", ""},
		{"Free", "", "1", "2"},
		{"Get", "p", "3", ""},
		{"Close", "k", "", ""},
		{"Plain", "", "4", "5"},
		{"", "", "", ""},
		{"", "", "", ""},
		{"", "", "", ""},
		{"Close", "m", "", ""},
		{"Close", "d", "", ""},
		{"Close", "e", "", ""},
	} {
		c := calls[i]
		fn := x.Callee(c)
		assert.Equal(t, want.fn, name(fn), "call %d: %s", i, types.ExprString(c))
		if fn == nil {
			continue
		}
		assert.Same(t, fn, fn.Origin(), "call %d: the origin", i)
		assert.Equal(t, want.recv, str(x.ArgAt(c, Receiver)), "call %d receiver", i)
		assert.Equal(t, want.arg0, str(x.ArgAt(c, 0)), "call %d param 0", i)
		assert.Equal(t, want.arg1, str(x.ArgAt(c, 1)), "call %d param 1", i)
	}
	assert.False(t, isInterfaceMethod(x.Callee(calls[12])), "c's dynamic type is known")
	assert.True(t, isInterfaceMethod(x.Callee(calls[13])), "d's is not")
	// Ref.Arg, which has no index, still maps a method expression's
	// receiver to its first argument.
	assert.Equal(t, "m", str(Ref{Param: Receiver}.Arg(info, calls[1])))
	assert.Equal(t, "7", str(Ref{Param: 0}.Arg(info, calls[1])))
}
