package modulebalance

import (
	"go/ast"
	"go/types"
	"testing"

	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/testenv/assert"
)

// TestWithGetters: getter calls name what they return, through receivers,
// nested getters and no-argument getters of package variables (the
// Getters result, filled here as flow.Getters fills it); other calls name
// nothing.
func TestWithGetters(t *testing.T) {
	pass, _ := fakePass(t, `package p
type Module struct{ h uintptr }
type Kernel struct{ mod *Module }
type Server struct{ kp *Kernel }
func (k *Kernel) Module() *Module { return k.mod }
func (s *Server) Kernel() *Kernel { return s.kp }
var def *Module
func Default() *Module { return def }
func load() *Module { return nil }
func f(k *Kernel, s *Server) {
	_ = k.Module()
	_ = Default()
	_ = Default().h
	_ = load()
	_ = s.Kernel().Module()
}`)
	scope := pass.Pkg.Scope()
	kernel := scope.Lookup("Kernel").Type().(*types.Named)
	module, _, _ := types.LookupFieldOrMethod(types.NewPointer(kernel), true, pass.Pkg, "Module")
	server := scope.Lookup("Server").Type().(*types.Named)
	kernelOf, _, _ := types.LookupFieldOrMethod(types.NewPointer(server), true, pass.Pkg, "Kernel")
	pass.ResultOf[flow.Getters] = &flow.GetterResult{Involved: true,
		Getters: map[*types.Func]flow.Ref{module.(*types.Func): {Param: flow.Receiver, Path: ".mod"},
			kernelOf.(*types.Func): {Param: flow.Receiver, Path: ".kp"}},
		PkgVars: map[*types.Func]flow.Loc{scope.Lookup("Default").(*types.Func): {Root: scope.Lookup("def")}}}
	lc := withGetters(pass, flow.Locator{Info: pass.TypesInfo})
	fn := pass.Files[0].Decls[len(pass.Files[0].Decls)-1].(*ast.FuncDecl)
	var got []string
	for _, st := range fn.Body.List {
		l, ok := lc.Of(st.(*ast.AssignStmt).Rhs[0])
		if !ok {
			got = append(got, "none")
			continue
		}
		got = append(got, l.String())
	}
	assert.Equal(t, []string{"k.mod", "def", "def.h", "none", "s.kp.mod"}, got)
}
