package flow

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestOrigins(t *testing.T) {
	src := `package p
import (
	"syscall"
	"unsafe"
)
type Buf struct{ ptr, mixed unsafe.Pointer }
var elems = map[int]unsafe.Pointer{}
func alloc() unsafe.Pointer { return nil }
func other() unsafe.Pointer { return nil }
func use(...any) {}
func f(param unsafe.Pointer, n int) {
	var x int
	s := make([]byte, n)
	m, _ := syscall.Mmap(0, 0, n, 0, 0)
	v := param
	v = unsafe.Pointer(&x)
	var b Buf
	b.ptr = alloc()
	b.mixed = alloc()
	b.mixed = other()
	b.mixed = nil
	elems[0] = alloc()
	w := &b
	use(&x, s, s[1:], &s[0], unsafe.Pointer(unsafe.SliceData(s)), []int{1}, new(int), m, v, param,
		alloc(), other(), b.ptr, b.mixed, elems[0], &w.ptr)
	use(b)
}
`
	pass, _ := fakePass(t, src)
	info := pass.TypesInfo
	alloc := func(call *ast.CallExpr, result int) string {
		if fn := Callee(info, call); fn != nil && fn.Name() == "alloc" && result == 0 {
			return "alloc memory"
		}
		return ""
	}
	o := NewOrigins(info, indexSources(info, pass.Files), alloc)
	var uses [][]ast.Expr
	var ptr *types.Var
	ast.Inspect(pass.Files[0], func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && types.ExprString(call.Fun) == "use" {
			uses = append(uses, call.Args)
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == "ptr" && info.Defs[id] != nil {
			ptr = info.Defs[id].(*types.Var)
		}
		return true
	})
	var got []string
	for _, e := range uses[0] {
		got = append(got, o.Of(e))
	}
	assert.Equal(t, []string{
		"Go memory", "Go memory", "Go memory", "Go memory", "Go memory", "Go memory", "Go memory",
		"syscall.Mmap memory",
		"Go memory", // v: the first of its sources that has an origin
		"",          // a parameter: unknown
		"alloc memory", "",
		"alloc memory", // every value stored in b.ptr
		"",             // b.mixed: one of its values has none (nil stores nothing)
		"alloc memory", // every element stored in the map
		"Go memory",    // &w.ptr: the address of a field of a Go variable
	}, got)
	assert.Equal(t, "alloc memory", o.Field(uses[1][0], ptr), "what b's field may hold")
	assert.Equal(t, "alloc memory", o.Any(o.Sources.Of[ptr]), "any source of the field")
}
