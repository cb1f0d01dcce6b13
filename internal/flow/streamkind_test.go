package flow

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"golang.org/x/tools/go/analysis"
)

// TestStreamVarFacts: the package's stream variables of known flags are
// exported in source order and read back from the hook; another package's
// come from their facts; a variable of unknown flags is unknown.
func TestStreamVarFacts(t *testing.T) {
	src := `package p
import "unsafe"
type _Ctype_hipError_t uint32
type _Ctype_hipStream_t unsafe.Pointer
func _Cfunc_hipStreamCreateWithFlags(p0 *_Ctype_hipStream_t, p1 uint32) _Ctype_hipError_t { return 0 }
var global _Ctype_hipStream_t
type worker struct{ stream, unknown _Ctype_hipStream_t }
func f(w *worker, flags uint32) {
	_Cfunc_hipStreamCreateWithFlags(&w.stream, 1)
	_Cfunc_hipStreamCreateWithFlags(&global, 0)
	_Cfunc_hipStreamCreateWithFlags(&w.unknown, flags)
}
`
	pass, facts := fakePass(t, src, types.NewPackage("C", "C"))
	other := types.NewPackage("q", "q")
	imported := types.NewVar(token.NoPos, other, "s", types.Typ[types.UnsafePointer])
	pass.ImportObjectFact = func(obj types.Object, f analysis.Fact) bool {
		if obj.Name() != "s" { // imported and mine
			return false
		}
		*f.(*StreamKind) = StreamKind{NonBlocking: true}
		return true
	}
	var order []string
	pass.ExportObjectFact = func(obj types.Object, f analysis.Fact) {
		order = append(order, obj.Name()+":"+f.(*StreamKind).String())
		facts[obj] = append(facts[obj], f)
	}
	x := NewIndex(pass.Fset, pass.Files, pass.TypesInfo)
	flags := StreamVarFacts(pass, x)
	assert.Equal(t, []string{"global:blockingStream", "stream:nonBlockingStream"}, order, "in source order")
	byName := map[string]*types.Var{}
	for obj := range facts {
		byName[obj.Name()] = obj.(*types.Var)
	}
	got := func(v *types.Var) [2]bool {
		nb, ok := flags(v)
		return [2]bool{nb, ok}
	}
	assert.Equal(t, [2]bool{true, true}, got(byName["stream"]))
	assert.Equal(t, [2]bool{false, true}, got(byName["global"]))
	assert.Equal(t, [2]bool{true, true}, got(imported), "another package's, from its fact")
	unknown := FieldByName(pass.Pkg.Scope().Lookup("worker").Type(), pass.Pkg, "unknown")
	assert.Equal(t, [2]bool{false, false}, got(unknown), "flags not known")
	mine := types.NewVar(token.NoPos, pass.Pkg, "s", types.Typ[types.UnsafePointer])
	assert.Equal(t, [2]bool{false, false}, got(mine), "this package's own are never imported")
}
