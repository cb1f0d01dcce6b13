package graphfree

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/flow"
)

// Write is one write that a function's code makes to a variable or a
// struct field.
type write struct {
	Target *types.Var // the variable or field written
	Func   flow.Func  // the function whose body writes it
	// Value is the value written, nil when it is not one expression's
	// (a, b = f(); x.f += n; the address taken).
	Value ast.Expr
	// Addr is set when the write is &x.f: the field's address is taken, and
	// whatever receives it may write anything through it.
	Addr *ast.UnaryExpr
}

// Writes calls yield with the writes in funcs' bodies: the variables and
// fields on the left of assignments (= := and operator assignments), the
// fields of keyed composite literals, and the fields whose addresses are
// taken. A function literal's body is its own entry in funcs, so it is not
// walked as part of the function around it; cgo's wrapper literals are (a
// C call's argument &x.f is inside one). Analyzers use it to find what a
// field holds everywhere in a package (a type that allocates into p.ptr in
// one method and frees p.ptr in another).
func writesOf(info *types.Info, funcs []flow.Func, yield func(write)) {
	for _, fn := range funcs {
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return cgocall.IsWrapper(info, x) // cgo's wrappers are the function's own code
			case *ast.AssignStmt:
				tuple := len(x.Lhs) != len(x.Rhs) || x.Tok != token.ASSIGN && x.Tok != token.DEFINE
				for i, l := range x.Lhs {
					var value ast.Expr
					if !tuple {
						value = x.Rhs[i]
					}
					if f := flow.SelectedField(info, l); f != nil {
						yield(write{Target: f, Func: fn, Value: value})
					} else if id, ok := l.(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok {
							yield(write{Target: v, Func: fn, Value: value})
						} else if v, ok := info.Defs[id].(*types.Var); ok {
							yield(write{Target: v, Func: fn, Value: value})
						}
					}
				}
			case *ast.CompositeLit:
				for _, el := range x.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
							yield(write{Target: f, Func: fn, Value: kv.Value})
						}
					}
				}
			case *ast.UnaryExpr:
				if f := flow.SelectedField(info, x.X); f != nil && x.Op == token.AND {
					yield(write{Target: f, Func: fn, Addr: x})
				}
			}
			return true
		})
	}
}

// FieldAt returns the struct field that e reaches at path: the field e
// selects (x.f, under conversions) for path "", or the field named by a
// one-field path ".f" of e's type, as a wrapper's summary names a field of
// its argument (freesParam[0.ptr]). It returns nil otherwise; pkg is the
// package asking (for unexported fields).
func fieldAt(info *types.Info, pkg *types.Package, e ast.Expr, path string) *types.Var {
	if path == "" {
		return flow.SelectedField(info, flow.StripConversions(info, e))
	}
	name, ok := strings.CutPrefix(path, ".")
	if !ok || strings.ContainsAny(name, ".[") {
		return nil // one field deep only
	}
	t := info.TypeOf(e)
	if t == nil || !flow.LookupSafe(t) {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	if f, ok := obj.(*types.Var); ok && f.IsField() {
		return f
	}
	return nil
}
