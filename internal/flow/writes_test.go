package flow

import (
	"go/ast"
	"go/types"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWritesTargetAddressed(t *testing.T) {
	src := `package p
import "runtime"
type T struct{ f, g *int; h int }
func set(**int) {}
func f(t *T, v *int) {
	t.f = v
	t.h += 1
	a, b := two()
	_ = T{g: v}
	set(&t.g)
	func() { t.h = 2 }()
	var pin runtime.Pinner
	pin.Pin(v)
	_, _ = a, b
}
func two() (int, int) { return 1, 2 }
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	var got []string
	Writes(info, funcsOf(pass), func(w Write) {
		s := w.Target.Name() + "="
		switch {
		case w.Addr != nil:
			s += "&"
		case w.Value == nil:
			s += "?"
		default:
			s += types.ExprString(w.Value)
		}
		got = append(got, s)
	})
	sort.Strings(got)
	// t.h = 2 is the literal's own write (funcs has it), not f's as well.
	assert.Equal(t, []string{"a=?", "b=?", "f=v", "g=&", "g=v", "h=2", "h=?"}, got)

	fd := pass.Files[0].Decls[3].(*ast.FuncDecl)
	lc := Locator{Info: info}
	call := fd.Body.List[4].(*ast.ExprStmt).X.(*ast.CallExpr) // set(&t.g)
	l, ok := lc.Target(call.Args[0])
	assert.True(t, ok)
	assert.Equal(t, "t.g", l.String())
	l, ok = lc.Target(ast.NewIdent("unknown"))
	assert.False(t, ok, l.String())
	addressed := lc.Addressed(call.Args)
	if assert.Len(t, addressed, 1) {
		assert.Equal(t, "t.g", addressed[0].String())
	}
	pin := fd.Body.List[7].(*ast.ExprStmt).X.(*ast.CallExpr)
	assert.True(t, ReadsOnly(Callee(info, pin)), "runtime.Pinner.Pin")
	assert.False(t, ReadsOnly(Callee(info, call)))
}

// TestAtExits: each normal exit once, from its fixpoint state; panics are
// not exits.
func TestAtExits(t *testing.T) {
	src := "package p\nfunc f(c, d bool) int {\n\tif c {\n\t\treturn 1\n\t}\n\tif d {\n\t\tpanic(0)\n\t}\n\tx := 2\n\t_ = x\n\treturn 3\n}\n"
	pass, _ := fakePass(t, src)
	body := pass.Files[0].Decls[0].(*ast.FuncDecl).Body
	g := CFG(pass.TypesInfo, body)
	p := Problem[int]{
		Clone: func(n int) int { return n },
		Join:  func(a, b int) int { return max(a, b) },
		Equal: func(a, b int) bool { return a == b },
		Transfer: func(n ast.Node, s int) int {
			if _, ok := n.(*ast.AssignStmt); ok {
				return s + 1
			}
			return s
		},
	}
	in := Solve(g, p)
	var exits []int
	AtExits(pass.TypesInfo, g, in, p, func(s int) { exits = append(exits, s) })
	sort.Ints(exits)
	assert.Equal(t, []int{0, 2}, exits, "return 1 before any assignment, return 3 after both")
}
