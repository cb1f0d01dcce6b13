package flow

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"runtime"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

const closuresSrc = `package p

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

type ctx struct{}

func (ctx) Do(fn func() error) error { return fn() }

type T struct{}

func use(c ctx, once *sync.Once, t *T, tb *testing.T) {
	c.Do(func() error { return nil })          // in place
	once.Do(func() {})                         // in place
	defer c.Do(func() error { return nil })    // deferred
	go c.Do(func() error { return nil })       // in a goroutine
	runtime.SetFinalizer(t, func(*T) {})       // later
	time.AfterFunc(time.Second, func() {})     // later
	tb.Cleanup(func() {})                      // when the test ends
	f := func() {}                             // a value
	f()
	func() {}()                                // called where it is written: in place
	defer func() {}()                          // at return
	go func() {}()                             // in a goroutine
	var err error
	if err != nil {
		return
	}
	if nil == err {
		return
	}
	var r int
	if r != 0 {
		return
	}
}
`

func parseClosures(t *testing.T) (*ast.File, *types.Info) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", closuresSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	_, err = (&types.Config{Importer: importer.ForCompiler(fset, runtime.Compiler, nil)}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return f, info
}

func TestInPlaceLits(t *testing.T) {
	f, info := parseClosures(t)
	var lits []*ast.FuncLit
	ast.Inspect(f.Decls[len(f.Decls)-1], func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			lits = append(lits, lit)
		}
		return true
	})
	require.Len(t, lits, 11)
	x := NewIndex(token.NewFileSet(), []*ast.File{f}, info)
	var got []bool
	for _, lit := range lits {
		got = append(got, x.InPlace(lit))
	}
	assert.Equal(t, []bool{true, true, false, false, false, false, false, false, true, false, false}, got)
}

// A closure's exits are joined: the early return skips the assignment after
// it, so only the path that reaches the end has assigned y.
const exitsSrc = `package p

func f(c bool) {
	var x, y int
	g := func() int {
		x = 1
		if c {
			return 0
		}
		y = 2
		return 1
	}
	_ = g
	_, _ = x, y
}
`

func TestClosureExits(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", exitsSrc, 0)
	require.NoError(t, err)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	_, err = (&types.Config{}).Check("p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	var lit *ast.FuncLit
	ast.Inspect(f, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok {
			lit = l
		}
		return lit == nil
	})
	require.NotNil(t, lit)
	// must-assigned: intersection at joins.
	p := Problem[set]{
		Clone: func(s set) set { return maps.Clone(s) },
		Join: func(into, from set) set {
			for k := range into {
				if !from[k] {
					delete(into, k)
				}
			}
			return into
		},
		Equal: func(a, b set) bool { return maps.Equal(a, b) },
		Transfer: func(n ast.Node, s set) set {
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				for _, l := range as.Lhs {
					s[l.(*ast.Ident).Name] = true
				}
			}
			return s
		},
	}
	var calls []bool
	x := NewIndex(fset, []*ast.File{f}, info)
	out, ok := ClosureExits(x, lit, set{"before": true}, p, func(final bool) { calls = append(calls, final) })
	require.True(t, ok)
	assert.Equal(t, set{"before": true, "x": true}, out)
	assert.Equal(t, []bool{false, true}, calls, "solved, then walked once at the fixpoint")
}
