package flow

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds small expression and type predicates the analyzers share.
// Every one of them accepts expressions without a type: at tier 3 (cgo
// replaced by a fake package "C") the types of C expressions are invalid or
// missing, and a predicate must then say "no", never panic.

// under returns the underlying type of e, or nil when e has no type.
func under(info *types.Info, e ast.Expr) types.Type {
	t := info.TypeOf(e)
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// unsafeBuiltin returns the name of the package unsafe builtin that call
// calls (unsafe.Add, unsafe.Slice, unsafe.SliceData, ...), or "".
func unsafeBuiltin(info *types.Info, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	b, ok := info.Uses[sel.Sel].(*types.Builtin)
	if !ok {
		return ""
	}
	if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "unsafe" {
		return ""
	}
	return b.Name()
}

// BuiltinName returns the name of the universe builtin that call calls
// (make, new, append, ...), or "".
func BuiltinName(info *types.Info, call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	b, ok := info.Uses[id].(*types.Builtin)
	if !ok {
		return ""
	}
	return b.Name()
}

// ConstString returns the constant string value of e, or "".
func ConstString(info *types.Info, e ast.Expr) string {
	if c := info.Types[e].Value; c != nil && c.Kind() == constant.String {
		return constant.StringVal(c)
	}
	return ""
}

// constInt returns the constant integer value of e (as Go's types know it;
// cgocall.IntValue also reads C constants at tier 3).
func constInt(info *types.Info, e ast.Expr) (int64, bool) {
	c := info.Types[e].Value
	if c == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(c))
}

// IsConstFalse reports whether e is the constant false.
func IsConstFalse(info *types.Info, e ast.Expr) bool {
	c := info.Types[e].Value
	return c != nil && c.Kind() == constant.Bool && !constant.BoolVal(c)
}

// FieldValue is one field a struct composite literal sets, and its value.
type FieldValue struct {
	Field *types.Var
	Value ast.Expr
}

// LitFields returns the fields a struct composite literal sets, keyed
// (T{ptr: p}) or positional (T{p, n}); nil for other literals.
func LitFields(info *types.Info, lit *ast.CompositeLit) []FieldValue {
	st, ok := under(info, lit).(*types.Struct)
	if !ok {
		return nil
	}
	var out []FieldValue
	for i, el := range lit.Elts {
		var f *types.Var
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				f, _ = info.Uses[id].(*types.Var)
			}
			el = kv.Value
		} else if i < st.NumFields() {
			f = st.Field(i)
		}
		if f != nil {
			out = append(out, FieldValue{f, el})
		}
	}
	return out
}

// elements returns the element values of a composite literal, keys left
// out.
func elements(lit *ast.CompositeLit) []ast.Expr {
	out := make([]ast.Expr, 0, len(lit.Elts))
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		out = append(out, el)
	}
	return out
}

// AddrOf returns what an out-argument &x names, seen through conversions
// ((*unsafe.Pointer)(unsafe.Pointer(&v))): the variable v for &v, the field
// f for &x.f; nil for anything else.
func AddrOf(info *types.Info, e ast.Expr) types.Object {
	u, ok := StripConversions(info, e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	if f := SelectedField(info, u.X); f != nil {
		return f
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := info.Uses[id]; o != nil {
		return o
	}
	return info.Defs[id]
}

// IsLocalVar reports whether obj is a variable local to a function (not a
// field or a package-level variable), so that everything assigned to it is
// in this package's syntax.
func IsLocalVar(obj types.Object) (*types.Var, bool) {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, false
	}
	return v, true
}

// pointerLike reports whether values of t may carry an address: a pointer,
// unsafe.Pointer or uintptr. nil is not.
func pointerLike(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer || u.Kind() == types.Uintptr
	}
	return false
}

// IsError reports whether t is the predeclared error type.
func IsError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// Flip returns the comparison operator with its operands swapped (a < b is
// b > a).
func Flip(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// Holds reports whether v op c holds for a comparison operator op.
func Holds(op token.Token, v, c int64) bool {
	switch op {
	case token.EQL:
		return v == c
	case token.NEQ:
		return v != c
	case token.LSS:
		return v < c
	case token.LEQ:
		return v <= c
	case token.GTR:
		return v > c
	case token.GEQ:
		return v >= c
	}
	return false
}

// EntryKind says how the Go runtime or go test enters a function.
type EntryKind uint8

const (
	NotEntry      EntryKind = iota
	InitEntry               // func init
	mainEntry               // func main of package main
	TestMainEntry           // func TestMain(m) in a _test.go file
	TestEntry               // a Test, Benchmark, Example or Fuzz function
)

// EntryOf says how fn (declared in decl, in a _test.go file when testFile)
// is entered.
func EntryOf(fn *types.Func, decl *ast.FuncDecl, testFile bool) EntryKind {
	if fn == nil || decl == nil || decl.Recv != nil {
		return NotEntry
	}
	name := fn.Name()
	params := fn.Signature().Params().Len()
	switch {
	case name == "init":
		return InitEntry
	case name == "main" && fn.Pkg() != nil && fn.Pkg().Name() == "main":
		return mainEntry
	case !testFile:
		return NotEntry
	case name == "TestMain" && params == 1:
		return TestMainEntry
	case params == 1 && (isTestName(name, "Test") || isTestName(name, "Benchmark") || isTestName(name, "Fuzz")),
		params == 0 && isTestName(name, "Example"):
		return TestEntry
	}
	return NotEntry
}

// isTestName is go test's rule for a test function's name: the prefix,
// then the end or a rune that is not lower case.
func isTestName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// Entry says how go test or the Go runtime enters fn (EntryOf), reading its
// file: an example whose body has no output comment is compiled by go test
// and never run, so it is no entry.
func (x *Index) Entry(fn Func, info *types.Info) EntryKind {
	if fn.Decl == nil {
		return NotEntry
	}
	x.build()
	var file *ast.File
	for _, f := range x.user {
		if f.Pos() <= fn.Decl.Pos() && fn.Decl.Pos() < f.End() {
			file = f
			break
		}
	}
	test := strings.HasSuffix(x.fset.Position(fn.Decl.Pos()).Filename, "_test.go")
	kind := EntryOf(fn.Object(info), fn.Decl, test)
	if kind == TestEntry && isTestName(fn.Decl.Name.Name, "Example") && !hasOutputComment(file, fn.Decl.Body) {
		return NotEntry
	}
	return kind
}

// hasOutputComment reports whether body holds an example's output comment
// ("// Output:" or "// Unordered output:", as go test looks for it).
func hasOutputComment(file *ast.File, body *ast.BlockStmt) bool {
	if file == nil || body == nil {
		return true // not known: an entry, as before
	}
	for _, cg := range file.Comments {
		if cg.Pos() < body.Pos() || cg.End() > body.End() {
			continue
		}
		text := strings.TrimSpace(cg.Text())
		lower := strings.ToLower(text)
		if strings.HasPrefix(lower, "output:") || strings.HasPrefix(lower, "unordered output:") {
			return true
		}
	}
	return false
}
