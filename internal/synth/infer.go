package synth

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/hipapi"
)

type kind int

const (
	kindConst kind = iota
	kindType
	kindFunc
)

// A decl is what synthesis declares for one C name nobody declares.
type decl struct {
	name   string
	kind   kind
	ptr    bool              // a type: used as a pointer (compared with nil, converted to unsafe.Pointer)
	fields map[string]string // a type: used as a struct, its fields and their C types
	params []string          // a function: its parameters' C types
	ret    string            // a function: its result's C type
	value  int64             // a constant
}

// constBase is where the made-up values of synthesized constants start:
// distinct, so that switch cases and map keys stay distinct, and far from
// the small values of the runtime's enums.
const constBase = 0x7eadb000

// cgoBasic are cgo's names of C's basic types and their C spelling.
var cgoBasic = map[string]string{
	"char": "char", "schar": "signed char", "uchar": "unsigned char",
	"short": "short", "ushort": "unsigned short", "int": "int", "uint": "unsigned int",
	"long": "long", "ulong": "unsigned long", "longlong": "long long", "ulonglong": "unsigned long long",
	"float": "float", "double": "double",
}

// cName spells the C type cgo calls C.name.
func cName(name string) string {
	if s, ok := cgoBasic[name]; ok {
		return s
	}
	for _, p := range []string{"struct_", "union_", "enum_"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			return strings.TrimSuffix(p, "_") + " " + rest
		}
	}
	return name
}

// inferer infers declarations for unknown C names from their use in the
// Go files of one package type-checked at tier 3 (C is a fake package).
type inferer struct {
	info     *types.Info
	files    []*ast.File
	declType map[token.Pos]ast.Expr // a declared name -> its type expression
	declInit map[token.Pos]ast.Expr // a declared name without a type -> its initializer
	// declTuple: a name declared from one result of a call of several
	// (p, m := f()) -> the call and the result's index.
	declTuple map[token.Pos]tupleInit
	funcDecl  map[token.Pos]*ast.FuncDecl // a Go function of the package, by its name's position
	decls     map[string]*decl
}

type tupleInit struct {
	call *ast.CallExpr
	i    int
}

// infer returns the declarations of the names, which the package's files
// use as C.name: a type where a name is used as a type (a pointer type
// where it is compared with nil or converted from or to unsafe.Pointer, a
// struct where a field of it is used), a function where it is called (its
// parameters' types from the arguments of its first call, each where the
// argument's C type can be read, else int; its result's from where the
// result goes, else int), a constant otherwise (an enum constant of a
// made-up, distinct value). inC are names only the preamble's C code uses,
// with the kind the compiler's error gives them.
func infer(info *types.Info, files []*ast.File, names []string, inC map[string]kind) map[string]*decl {
	in := &inferer{info: info, files: files, declType: map[token.Pos]ast.Expr{}, declInit: map[token.Pos]ast.Expr{},
		declTuple: map[token.Pos]tupleInit{}, funcDecl: map[token.Pos]*ast.FuncDecl{}, decls: map[string]*decl{}}
	for _, n := range names {
		in.decls[n] = &decl{name: n, kind: -1}
	}
	for n, k := range inC {
		// The kind the compiler's error gives a name of the C code wins:
		// the C code needs it so.
		in.decls[n] = &decl{name: n, kind: k}
	}
	in.index()
	typeUse := map[string]bool{}
	calls := map[string][]*ast.CallExpr{}
	callParent := map[*ast.CallExpr]ast.Node{}
	var stack []ast.Node
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			var parent ast.Node
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, n)
			if c, ok := n.(*ast.CallExpr); ok {
				callParent[c] = parent
				if len(stack) >= 2 {
					// The call's own parent, past parentheses.
					for i := len(stack) - 2; i >= 0; i-- {
						if _, paren := stack[i].(*ast.ParenExpr); !paren {
							callParent[c] = stack[i]
							break
						}
					}
				}
			}
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			name, isC := cgocall.CSelector(info, sel)
			if !isC || in.decls[name] == nil {
				return true
			}
			switch p := parent.(type) {
			case *ast.CallExpr:
				if ast.Unparen(p.Fun) == sel {
					calls[name] = append(calls[name], p)
				}
			case *ast.Field, *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType,
				*ast.TypeSpec, *ast.Ellipsis, *ast.TypeAssertExpr:
				typeUse[name] = true
			case *ast.ValueSpec:
				typeUse[name] = typeUse[name] || p.Type == sel
			case *ast.CompositeLit:
				typeUse[name] = typeUse[name] || p.Type == sel
			}
			return true
		})
	}
	for n, d := range in.decls {
		if d.kind >= 0 {
			continue
		}
		switch {
		case typeUse[n]:
			d.kind = kindType
		case len(calls[n]) > 0 && allOneArg(calls[n]) && (typeLikeName(n) || in.convertsGoValue(calls[n])):
			// A conversion: C.bool(x), C.rocblas_int(n), C.cudnnHandle_t(h),
			// C.cufftType(typ) with typ of a Go type.
			d.kind = kindType
		case len(calls[n]) > 0:
			d.kind = kindFunc
		default:
			d.kind = kindConst
		}
	}
	in.typeEvidence()
	for n, d := range in.decls {
		if d.kind != kindFunc {
			continue
		}
		d.ret = "int"
		var weak []bool // a parameter typed from a nil argument: void*, until a call says better
		for _, c := range calls[n] {
			if d.params == nil || len(c.Args) > len(d.params) && d.params != nil && allEmpty(d.params) {
				d.params = make([]string, len(c.Args))
				weak = make([]bool, len(c.Args))
			}
			for i, a := range c.Args {
				if i >= len(d.params) || d.params[i] != "" && !weak[i] {
					continue
				}
				nilArg := isNil(in.info, a)
				if d.params[i] != "" && nilArg {
					continue
				}
				if t := in.cType(a, 0); t != "" {
					d.params[i], weak[i] = t, nilArg
				}
			}
		}
		for _, c := range calls[n] {
			if t := in.resultType(c, callParent[c]); t != "" {
				d.ret = t
				break
			}
		}
		for i, p := range d.params {
			if p == "" {
				d.params[i] = "int"
			}
		}
	}
	// A type a declaration uses that nothing declares and that belongs to
	// the names' library (cgo stopped before it reached the name): a type
	// too.
	fams := map[string]bool{}
	for n := range in.decls {
		if f := family(n); f != "" {
			fams[f] = true
		}
	}
	var refs []string
	for _, d := range in.decls {
		refs = append(refs, d.ret)
		refs = append(refs, d.params...)
		for _, t := range d.fields {
			refs = append(refs, t)
		}
	}
	for _, r := range refs {
		r = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r), "const "))
		r = strings.TrimRight(r, "* ")
		if r == "" || in.decls[r] != nil || strings.ContainsAny(r, " ") || !fams[family(r)] || runtimeHeader(r) != "" {
			continue
		}
		in.decls[r] = &decl{name: r, kind: kindType}
	}
	// Constants: distinct made-up values, in name order.
	var consts []string
	for n, d := range in.decls {
		if d.kind == kindConst {
			consts = append(consts, n)
		}
	}
	sort.Strings(consts)
	for i, n := range consts {
		in.decls[n].value = constBase + int64(i)
	}
	return in.decls
}

// convertsGoValue reports whether some call of cs passes one value of a Go
// type (not a C type, not unsafe.Pointer, not an untyped constant): cgo
// lets no C function take one, so C.X(v) can only be a conversion to the
// C type X.
func (in *inferer) convertsGoValue(cs []*ast.CallExpr) bool {
	for _, c := range cs {
		if len(c.Args) != 1 {
			continue
		}
		tv, ok := in.info.Types[ast.Unparen(c.Args[0])]
		if !ok || !tv.IsValue() || tv.Type == nil || mentionsC(tv.Type) {
			continue
		}
		if b, ok := tv.Type.Underlying().(*types.Basic); ok && (b.Info()&types.IsUntyped != 0 || b.Kind() == types.UnsafePointer || b.Kind() == types.Invalid) {
			continue
		}
		return true
	}
	return false
}

// mentionsC reports whether t is or holds a type of the package C, or one
// the type checker could not know (at tier 3, C's types are invalid).
func mentionsC(t types.Type) bool {
	switch t := t.(type) {
	case *types.Named:
		if obj := t.Obj(); obj.Pkg() != nil && obj.Pkg().Path() == "C" {
			return true
		}
		return mentionsC(t.Underlying())
	case *types.Alias:
		return mentionsC(types.Unalias(t))
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Pointer:
		return mentionsC(t.Elem())
	case *types.Slice:
		return mentionsC(t.Elem())
	case *types.Array:
		return mentionsC(t.Elem())
	}
	return false
}

func allOneArg(cs []*ast.CallExpr) bool {
	for _, c := range cs {
		if len(c.Args) != 1 {
			return false
		}
	}
	return true
}

func allEmpty(ss []string) bool {
	for _, s := range ss {
		if s != "" {
			return false
		}
	}
	return true
}

// index records the declared type (or initializer) of every name the files
// declare: variables, fields, parameters and results.
func (in *inferer) index() {
	for _, f := range in.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				for _, id := range n.Names {
					in.declType[id.Pos()] = n.Type
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if n.Type != nil {
						in.declType[id.Pos()] = n.Type
					} else if len(n.Values) == len(n.Names) {
						in.declInit[id.Pos()] = n.Values[i]
					}
				}
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							in.declInit[id.Pos()] = n.Rhs[i]
						}
					}
				}
				if c, ok := ast.Unparen(firstOf(n.Rhs)).(*ast.CallExpr); ok && n.Tok == token.DEFINE && len(n.Rhs) == 1 && len(n.Lhs) > 1 {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							in.declTuple[id.Pos()] = tupleInit{c, i}
						}
					}
				}
			case *ast.FuncDecl:
				in.funcDecl[n.Name.Pos()] = n
			}
			return true
		})
	}
}

// nestedPrefix begins the names of the struct types synthesis makes up for
// the fields of a synthesized struct that are structs themselves.
const nestedPrefix = "hiplint_nested_"

// resolved reports whether the type checker resolved the selector at tier
// 3 (a C name, a Go field or method, a qualified identifier): no field of
// a synthesized type.
func (in *inferer) resolved(sel *ast.SelectorExpr) bool {
	_, isC := cgocall.CSelector(in.info, sel)
	return isC || in.info.Selections[sel] != nil || in.info.Uses[sel.Sel] != nil
}

// typeEvidence marks the synthesized types used as pointers or structs.
func (in *inferer) typeEvidence() {
	isType := func(t string) *decl {
		if d := in.decls[t]; d != nil && d.kind == kindType {
			return d
		}
		return nil
	}
	for _, f := range in.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					break
				}
				for _, pair := range [][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					if isNil(in.info, pair[0]) {
						if d := isType(in.cType(pair[1], 0)); d != nil {
							d.ptr = true
						}
					}
				}
			case *ast.CallExpr:
				if len(n.Args) != 1 {
					break
				}
				if name, ok := cgocall.CSelector(in.info, n.Fun); ok {
					// C.T(unsafe.Pointer(p)), C.T(nil)
					if d := isType(name); d != nil && (isNil(in.info, n.Args[0]) || in.cType(n.Args[0], 0) == "void*") {
						d.ptr = true
					}
				} else if isUnsafePointer(in.info, n.Fun) {
					if d := isType(in.cType(n.Args[0], 0)); d != nil {
						d.ptr = true
					}
				}
			case *ast.ReturnStmt:
				// return nil from a function whose result is C.T
			case *ast.SelectorExpr:
				if in.resolved(n) {
					break
				}
				// x.f1.f2...fn, x of a synthesized type: f1 ... fn-1 are
				// structs nested in it (params.poolProps.location._type),
				// fn a field of the innermost, int unless a use says more.
				chain := []*ast.SelectorExpr{n}
				for {
					inner, ok := ast.Unparen(chain[len(chain)-1].X).(*ast.SelectorExpr)
					if !ok || in.resolved(inner) {
						break
					}
					chain = append(chain, inner)
				}
				d := isType(strings.TrimSuffix(in.cType(chain[len(chain)-1].X, 0), "*"))
				for i := len(chain) - 1; d != nil && i >= 0; i-- {
					field := chain[i].Sel.Name
					if d.fields == nil {
						d.fields = map[string]string{}
					}
					if i == 0 {
						if _, ok := d.fields[field]; !ok {
							d.fields[field] = "int"
						}
						break
					}
					nd := isType(d.fields[field])
					if nd == nil {
						name := nestedPrefix + strings.TrimPrefix(d.name, nestedPrefix) + "_" + field
						nd = &decl{name: name, kind: kindType}
						in.decls[name] = nd
						d.fields[field] = name
					}
					d = nd
				}
			case *ast.CompositeLit:
				name, ok := cgocall.CSelector(in.info, n.Type)
				if d := isType(name); ok && d != nil {
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); ok {
								if d.fields == nil {
									d.fields = map[string]string{}
								}
								d.fields[id.Name] = cmpOr(in.cType(kv.Value, 0), "int")
							}
						}
					}
				}
			}
			return true
		})
	}
	// return nil where the result is C.T
	for _, f := range in.files {
		for _, dcl := range f.Decls {
			fd, ok := dcl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Type.Results == nil {
				continue
			}
			results := fieldTypes(fd.Type.Results)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, lit := n.(*ast.FuncLit); lit {
					return false
				}
				if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == len(results) {
					for i, e := range r.Results {
						if isNil(in.info, e) {
							if d := isType(in.typeExprC(results[i])); d != nil {
								d.ptr = true
							}
						}
					}
				}
				return true
			})
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func fieldTypes(fl *ast.FieldList) []ast.Expr {
	var out []ast.Expr
	for _, f := range fl.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for i := 0; i < n; i++ {
			out = append(out, f.Type)
		}
	}
	return out
}

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name != "nil" {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

func isUnsafePointer(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[ast.Unparen(e)]
	if !ok || !tv.IsType() {
		return false
	}
	b, ok := tv.Type.(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// typeExprC spells the type expression t in C: C.T, *C.T, unsafe.Pointer;
// "" for anything else.
func (in *inferer) typeExprC(t ast.Expr) string {
	t = ast.Unparen(t)
	if name, ok := cgocall.CSelector(in.info, t); ok {
		return cName(name)
	}
	switch t := t.(type) {
	case *ast.StarExpr:
		if s := in.typeExprC(t.X); s != "" {
			return s + "*"
		}
	case *ast.SelectorExpr:
		if isUnsafePointer(in.info, t) {
			return "void*"
		}
	case *ast.ArrayType:
		// A slice or array of a C type: its elements are read by
		// indexing, as through a pointer.
		if s := in.typeExprC(t.Elt); s != "" {
			return s + "*"
		}
	}
	return ""
}

// cType returns the C spelling of e's type where the syntax says it (a C
// conversion, a variable or field declared with a C type, an address of
// one, unsafe.Pointer, an untyped constant), else "".
func (in *inferer) cType(e ast.Expr, depth int) string {
	if depth > 8 {
		return ""
	}
	e = ast.Unparen(e)
	if tv, ok := in.info.Types[e]; ok && tv.Type != nil {
		if b, ok := tv.Type.(*types.Basic); ok {
			switch b.Kind() {
			case types.UnsafePointer, types.UntypedNil:
				return "void*"
			case types.UntypedInt, types.UntypedRune:
				return "int"
			case types.UntypedFloat:
				return "double"
			case types.UntypedBool:
				return "bool" // from <stdbool.h>, which text includes
			}
		}
	}
	switch e := e.(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if t := in.cType(e.X, depth+1); t != "" {
				return t + "*"
			}
		}
	case *ast.StarExpr:
		if t := in.cType(e.X, depth+1); strings.HasSuffix(t, "*") {
			return strings.TrimSuffix(t, "*")
		}
	case *ast.IndexExpr:
		if t := in.cType(e.X, depth+1); strings.HasSuffix(t, "*") {
			return strings.TrimSuffix(t, "*")
		}
	case *ast.CallExpr:
		if name, ok := cgocall.CSelector(in.info, e.Fun); ok {
			if d := in.decls[name]; d != nil {
				switch d.kind {
				case kindFunc:
					return cmpOr(d.ret, "int")
				case kindType:
					return name
				}
				return ""
			}
			switch name {
			case "CString":
				return "char*"
			case "CBytes":
				return "void*"
			case "GoString", "GoStringN", "GoBytes":
				return "" // Go values
			}
			if _, runtime := hipapi.Lookup(name); runtime {
				return ""
			}
			if len(e.Args) == 1 && (typeLikeName(name) || in.convertsGoValue([]*ast.CallExpr{e})) {
				return cName(name) // a conversion
			}
			return ""
		}
		if t := in.typeExprC(e.Fun); t != "" {
			return t // (*C.float)(p), unsafe.Pointer(p)
		}
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && len(e.Args) > 0 {
			if _, builtin := in.info.Uses[id].(*types.Builtin); builtin && id.Name == "make" {
				return in.typeExprC(e.Args[0]) // make([]*C.char, n): indexed as a char**
			}
		}
		if t := in.goResult(e, 0); t != "" {
			return t // a Go function's result declared with a C type
		}
	case *ast.SelectorExpr:
		if name, ok := cgocall.CSelector(in.info, e); ok {
			if d := in.decls[name]; d != nil && d.kind == kindConst {
				return "int"
			}
			return ""
		}
		if s := in.info.Selections[e]; s != nil {
			return in.declared(s.Obj(), depth)
		}
		if obj := in.info.Uses[e.Sel]; obj != nil {
			return in.declared(obj, depth)
		}
	case *ast.Ident:
		if obj := in.info.Uses[e]; obj != nil {
			return in.declared(obj, depth)
		}
	}
	return ""
}

// declared returns the C type obj was declared with.
func (in *inferer) declared(obj types.Object, depth int) string {
	if _, ok := obj.(*types.Var); !ok {
		return ""
	}
	if t := in.declType[obj.Pos()]; t != nil {
		return in.typeExprC(t)
	}
	if init := in.declInit[obj.Pos()]; init != nil {
		return in.cType(init, depth+1)
	}
	if t, ok := in.declTuple[obj.Pos()]; ok {
		return in.goResult(t.call, t.i)
	}
	return ""
}

// goResult returns the C type of result i of c, a call of a Go function
// the package declares, from the function's declaration (at tier 3 the
// type checker knows no C type: p, m := ints2CPtr(a) with a result
// declared *C.int).
func (in *inferer) goResult(c *ast.CallExpr, i int) string {
	var id *ast.Ident
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return ""
	}
	fn, ok := in.info.Uses[id].(*types.Func)
	if !ok {
		return ""
	}
	d := in.funcDecl[fn.Pos()]
	if d == nil || d.Type.Results == nil {
		return ""
	}
	rs := fieldTypes(d.Type.Results)
	if i >= len(rs) {
		return ""
	}
	return in.typeExprC(rs[i])
}

func firstOf(es []ast.Expr) ast.Expr {
	if len(es) == 0 {
		return nil
	}
	return es[0]
}

// resultType returns the C type the result of the call c must have where
// it goes (parent: the call's parent node), or "".
func (in *inferer) resultType(c *ast.CallExpr, parent ast.Node) string {
	switch p := parent.(type) {
	case *ast.ReturnStmt:
		fn := in.enclosingFunc(c)
		if fn == nil || fn.Results == nil {
			return ""
		}
		results := fieldTypes(fn.Results)
		if len(results) != len(p.Results) {
			return ""
		}
		for i, r := range p.Results {
			if ast.Unparen(r) == c {
				return in.typeExprC(results[i])
			}
		}
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) && p.Tok == token.ASSIGN {
			for i, r := range p.Rhs {
				if ast.Unparen(r) == c {
					return in.cType(p.Lhs[i], 0)
				}
			}
		}
	case *ast.ValueSpec:
		if p.Type != nil {
			return in.typeExprC(p.Type)
		}
	case *ast.BinaryExpr:
		if isNil(in.info, p.X) || isNil(in.info, p.Y) {
			return "void*"
		}
	case *ast.CallExpr:
		// An argument of cgo's string and byte helpers: C.GoString(f(...))
		// takes a char pointer, C.GoBytes a pointer.
		if sel, ok := ast.Unparen(p.Fun).(*ast.SelectorExpr); ok && len(p.Args) > 0 && ast.Unparen(p.Args[0]) == c {
			if name, isC := cgocall.CSelector(in.info, sel); isC {
				switch name {
				case "GoString", "GoStringN":
					return "const char*"
				case "GoBytes":
					return "void*"
				}
			}
		}
		// An argument of a Go function: the parameter's declared type.
		var obj types.Object
		switch f := ast.Unparen(p.Fun).(type) {
		case *ast.Ident:
			obj = in.info.Uses[f]
		case *ast.SelectorExpr:
			obj = in.info.Uses[f.Sel]
		}
		fn, ok := obj.(*types.Func)
		if !ok {
			return ""
		}
		sig := fn.Type().(*types.Signature)
		for i, a := range p.Args {
			if ast.Unparen(a) == c && i < sig.Params().Len() && !(sig.Variadic() && i >= sig.Params().Len()-1) {
				if t := in.declType[sig.Params().At(i).Pos()]; t != nil {
					return in.typeExprC(t)
				}
			}
		}
	}
	return ""
}

// enclosingFunc returns the type of the function (declared or literal)
// whose body holds n.
func (in *inferer) enclosingFunc(n ast.Node) *ast.FuncType {
	var found *ast.FuncType
	for _, f := range in.files {
		if f.Pos() > n.Pos() || n.End() > f.End() {
			continue
		}
		ast.Inspect(f, func(m ast.Node) bool {
			if m == nil || m.Pos() > n.Pos() || m.End() < n.End() {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncDecl:
				found = m.Type
			case *ast.FuncLit:
				found = m.Type
			}
			return true
		})
	}
	return found
}

// text returns the C declarations of the names (and of the synthesized
// types their declarations use, where declare, when not nil, allows: the
// runtime's names come from its header), in an order C accepts: plain
// types, then structs, constants, functions.
func text(decls map[string]*decl, names []string, declare func(string) bool) string {
	want := map[string]bool{}
	var add func(n string)
	add = func(n string) {
		d := decls[n]
		if d == nil || want[n] || declare != nil && !declare(n) {
			return
		}
		want[n] = true
		refs := append([]string{d.ret}, d.params...)
		for _, t := range d.fields {
			refs = append(refs, t)
		}
		for _, r := range refs {
			add(strings.TrimRight(strings.TrimSpace(r), "* "))
		}
	}
	for _, n := range names {
		add(n)
	}
	sorted := make([]string, 0, len(want))
	for n := range want {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var b strings.Builder
	// C's own type names come from the standard header that defines them
	// (bool is a macro of <stdbool.h>: "typedef int bool;" does not compile
	// once a header has brought it).
	var std []string
	for _, n := range sorted {
		d := decls[n]
		refs := append([]string{n, d.ret}, d.params...)
		for _, t := range d.fields {
			refs = append(refs, t)
		}
		for _, r := range refs {
			r = strings.TrimRight(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(r), "const ")), "* ")
			if h, ok := stdTypes[r]; ok && (r != n || d.kind == kindType) && !slices.Contains(std, h) {
				std = append(std, h)
			}
		}
		if h, ok := stdFuncs[n]; ok && d.kind == kindFunc && !slices.Contains(std, h) {
			std = append(std, h)
		}
	}
	sort.Strings(std)
	for _, h := range std {
		if h != "" {
			fmt.Fprintf(&b, "#include <%s>\n", h)
		}
	}
	for _, n := range sorted {
		if _, ok := stdTypes[n]; ok {
			continue
		}
		if d := decls[n]; d.kind == kindType && d.fields == nil {
			if d.ptr {
				fmt.Fprintf(&b, "typedef struct hiplint_synth_%s *%s;\n", n, n)
			} else {
				fmt.Fprintf(&b, "typedef int %s;\n", n)
			}
		}
	}
	// Structs, each after the structs its fields hold (nested ones).
	emitted := map[string]bool{}
	var emit func(n string)
	emit = func(n string) {
		d := decls[n]
		if emitted[n] || !want[n] || d == nil || d.kind != kindType || d.fields == nil {
			return
		}
		emitted[n] = true
		fields := make([]string, 0, len(d.fields))
		for f := range d.fields {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			emit(strings.TrimRight(strings.TrimSpace(d.fields[f]), "* "))
		}
		fmt.Fprintf(&b, "typedef struct hiplint_synth_%s {", n)
		for _, f := range fields {
			fmt.Fprintf(&b, " %s %s;", d.fields[f], f)
		}
		if d.ptr {
			fmt.Fprintf(&b, " } *%s;\n", n)
		} else {
			fmt.Fprintf(&b, " } %s;\n", n)
		}
	}
	for _, n := range sorted {
		emit(n)
	}
	for _, n := range sorted {
		if d := decls[n]; d.kind == kindConst {
			fmt.Fprintf(&b, "enum { %s = %#x };\n", n, d.value)
		}
	}
	for _, n := range sorted {
		if _, ok := stdFuncs[n]; ok {
			continue // from its standard header
		}
		if d := decls[n]; d.kind == kindFunc {
			params := "void"
			if len(d.params) > 0 {
				params = strings.Join(d.params, ", ")
			}
			fmt.Fprintf(&b, "%s %s(%s);\n", d.ret, n, params)
		}
	}
	return b.String()
}

// family returns the library prefix of a C name, lower case: "cufft" for
// cufftPlan1d, cufftHandle and CUFFT_R2C, "nvrtc" for nvrtcResult; "" for
// a name with no prefix of three letters or more.
func family(n string) string {
	i := 0
	if n != "" && n[0] >= 'A' && n[0] <= 'Z' {
		for i < len(n) && n[i] >= 'A' && n[i] <= 'Z' {
			i++
		}
	} else {
		for i < len(n) && n[i] >= 'a' && n[i] <= 'z' {
			i++
		}
	}
	if i < 3 || i == len(n) {
		return ""
	}
	return strings.ToLower(n[:i])
}

// stdTypes are the type names of standard C, with the header that
// defines each ("" for a keyword).
var stdTypes = map[string]string{
	"bool": "stdbool.h", "_Bool": "",
	"size_t": "stddef.h", "ptrdiff_t": "stddef.h",
	"int8_t": "stdint.h", "int16_t": "stdint.h", "int32_t": "stdint.h", "int64_t": "stdint.h",
	"uint8_t": "stdint.h", "uint16_t": "stdint.h", "uint32_t": "stdint.h", "uint64_t": "stdint.h",
	"intptr_t": "stdint.h", "uintptr_t": "stdint.h",
}

// stdFuncs are functions of standard C a preamble gets through a library
// header (C.free once <nvrtc.h> is stubbed), with the header that declares
// each: a made-up prototype would clash with it.
var stdFuncs = map[string]string{
	"free": "stdlib.h", "malloc": "stdlib.h", "calloc": "stdlib.h", "realloc": "stdlib.h",
	"memcpy": "string.h", "memset": "string.h", "strlen": "string.h",
}

// typeLikeName reports whether a name called with one argument is more
// likely a type being converted to than a function: C's own type words
// (C.bool needs <stdbool.h>, which a library header brings), and the
// spellings libraries give their types: handle and enum types ending in
// _t, integer types ending in _int, _uint, _long or _size (rocblas_int).
func typeLikeName(n string) bool {
	switch n {
	case "bool", "_Bool", "char", "schar", "uchar", "short", "ushort", "int", "uint",
		"long", "ulong", "longlong", "ulonglong", "float", "double", "size_t":
		return true
	}
	for _, suffix := range []string{"_t", "_int", "_uint", "_long", "_size"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return false
}
