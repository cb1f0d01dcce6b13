package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sync"

	"github.com/hiplint/hiplint/internal/cgocall"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// IndexAnalyzer provides each package's Index: what every hiplint analyzer
// needs of a package's syntax, computed once for all of them. The four
// analyzers used to walk every file for it each (the functions, the
// in-place closures) and to match every call against the runtime API model
// in every walk of every summary round: a fifth of their time on the
// generated benchmark module (docs/performance.md).
//
// The Index is built on first use, so a package that an analyzer leaves at
// once (the fast path: no runtime calls, no facts seen) costs nothing.
var IndexAnalyzer = &analysis.Analyzer{
	Name: "hipindex",
	Doc:  "hipindex indexes a package's functions, in-place closures and runtime calls for hiplint's analyzers (no diagnostics)",
	Run: func(pass *analysis.Pass) (any, error) {
		return NewIndex(pass.Fset, pass.Files, pass.TypesInfo), nil
	},
	ResultType: reflect.TypeFor[*Index](),
}

// NewIndex returns the Index of a package's files, built on first use: what
// IndexAnalyzer makes for a pass, for code that has syntax and types without
// one (the engine's and the knowledge packages' tests).
func NewIndex(fset *token.FileSet, files []*ast.File, info *types.Info) *Index {
	return &Index{fset: fset, files: files, info: info}
}

// IndexOf returns the Index of pass's package; pass's analyzer must require
// IndexAnalyzer.
func IndexOf(pass *analysis.Pass) *Index {
	return pass.ResultOf[IndexAnalyzer].(*Index)
}

// An Index is safe for concurrent use: the analyzers of one package may run
// at the same time.
type Index struct {
	once  sync.Once
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info

	funcs   []Func
	inPlace map[*ast.FuncLit]bool
	// stored: the local variables that hold one closure for good, each
	// only called (StoredLit).
	stored map[*types.Var]*ast.FuncLit
	// storedSel: the local variables that hold one method value for good
	// (f := b.Do), each only called; bound: the calls of a method they make,
	// and of method expressions ((*T).Do(b)), as calls of the method
	// (Bound).
	storedSel map[*types.Var]*ast.SelectorExpr
	bound     map[*ast.CallExpr]boundCall
	wrappers  map[*ast.FuncLit]bool // cgo's wrapper literals (cgocall.IsWrapper)
	// calls holds every call expression of the package's user files with
	// the runtime call it denotes, or nil.
	calls map[*ast.CallExpr]*cgocall.Call
	// runtime holds the calls' runtime calls, in source order.
	runtime []*cgocall.Call

	// entries lists the user files' nodes that walks look for (listed), in
	// source order, each with the index past those inside it; ranges holds
	// each file's and function body's range of it (Walk).
	entries []listEntry
	ranges  map[ast.Node]span
	user    []*ast.File // the files walked: all but cgo's support files
	// refList holds the functions the user files' identifiers refer to, in
	// source order; a body's span in ranges holds its range of it (funcRefs).
	refList []*types.Func
	// objList holds the fields the user files' selectors select and the
	// package-level variables their identifiers name, in source order; a
	// body's span holds its range of it (StoreDeps).
	objList []*types.Var

	// binds holds the local variables assigned once (resolve.go), made
	// on first use.
	bindOnce sync.Once
	binds    map[*types.Var]ast.Expr
	// moved holds the local variables assigned more than once or whose
	// address is taken (resolve.go): the others keep one value.
	moved map[*types.Var]bool

	// goh: the goroutine helpers' summaries (goroutines.go), made on
	// first use.
	goOnce sync.Once
	goh    *goHelpers
	// srcs: SharedSources, made on first use.
	srcOnce sync.Once
	srcs    *Sources

	mu   sync.Mutex
	cfgs map[*ast.BlockStmt]*cfg.CFG // CFG's graphs, built on first use
	// resultSets: ResultSmallSet's answers, by function, made on first use.
	resultSets map[*types.Func]resultSet
	refs       map[*ast.BlockStmt][]*types.Func // funcRefs's lists, made on first use
}

func (x *Index) build() {
	x.once.Do(func() {
		// The list and the calls, sized from the source (about one listed
		// node in 28 bytes, one call in 72, on the generated benchmark
		// module) rather than grown by doubling, which left as much again
		// to collect.
		size := 0
		for _, file := range x.files {
			if tf := x.fset.File(file.Pos()); tf != nil && !cgocall.IsSupportFile(x.fset, file) {
				size += tf.Size()
			}
		}
		x.entries = make([]listEntry, 0, size/28+16)
		x.inPlace = map[*ast.FuncLit]bool{}
		x.wrappers = map[*ast.FuncLit]bool{}
		x.calls = make(map[*ast.CallExpr]*cgocall.Call, size/72)
		later := map[*ast.CallExpr]bool{}
		var called map[*ast.Ident]bool // the identifiers called, not in go or defer
		x.ranges = map[ast.Node]span{}
		// The body of the function being entered: its type comes first,
		// then the body (a literal in the type, as in [unsafe.Sizeof(func()
		// {})]int, takes its place, and the outer body is then walked with
		// ast.Inspect when asked: no answer changes).
		var pending *ast.BlockStmt
		type open struct {
			entry    int32    // the node's entry in x.entries, or -1
			scope    ast.Node // a file or function body: its range is kept
			start    int32
			refStart int32 // a body's first entry in x.refList
			objStart int32 // and in x.objList
		}
		var stack []open
		for _, file := range x.files {
			if cgocall.IsSupportFile(x.fset, file) {
				continue
			}
			ast.Inspect(file, func(n ast.Node) bool {
				top := open{entry: -1}
				if n != nil && listed(n) {
					top.entry = int32(len(x.entries))
					x.entries = append(x.entries, listEntry{node: n})
				}
				switch n := n.(type) {
				case nil:
					top = stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					end := int32(len(x.entries))
					if top.entry >= 0 {
						x.entries[top.entry].end = end
					}
					if top.scope != nil {
						x.ranges[top.scope] = span{[2]int32{top.start, end}, [2]int32{top.refStart, int32(len(x.refList))},
							[2]int32{top.objStart, int32(len(x.objList))}}
					}
					return false
				case *ast.FuncDecl:
					if n.Body != nil {
						x.funcs = append(x.funcs, Func{Decl: n, Body: n.Body})
						pending = n.Body
					}
				case *ast.File:
					top.scope, top.start = n, int32(len(x.entries))
					x.user = append(x.user, n)
				case *ast.FuncLit:
					if cgocall.IsWrapper(x.info, n) {
						x.wrappers[n] = true
					} else {
						x.funcs = append(x.funcs, Func{Lit: n, Body: n.Body})
						pending = n.Body
					}
				case *ast.BlockStmt:
					if n == pending {
						top.scope, top.start = n, int32(len(x.entries))
						top.refStart = int32(len(x.refList))
						top.objStart = int32(len(x.objList))
						pending = nil
					}
				case *ast.Ident:
					switch o := x.info.Uses[n].(type) {
					case *types.Func:
						x.refList = append(x.refList, o)
					case *types.Var:
						if o.Pkg() != nil && o.Parent() == o.Pkg().Scope() {
							x.objList = append(x.objList, o)
						}
					}
				case *ast.SelectorExpr:
					if f := SelectedField(x.info, n); f != nil {
						x.objList = append(x.objList, f)
					}
				case *ast.AssignStmt:
					if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
						x.noteStored(n.Lhs[0], n.Rhs[0])
					}
				case *ast.ValueSpec:
					if len(n.Names) == 1 && len(n.Values) == 1 {
						x.noteStored(n.Names[0], n.Values[0])
					}
				case *ast.GoStmt:
					later[n.Call] = true
				case *ast.DeferStmt:
					later[n.Call] = true
				case *ast.CallExpr:
					c := cgocall.Match(x.info, n)
					x.calls[n] = c
					if c != nil {
						x.runtime = append(x.runtime, c)
					}
					if !later[n] {
						addInPlace(x.info, n, x.inPlace)
						if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
							Put(&called, id, true)
						}
						x.noteBound(n)
					}
				}
				stack = append(stack, top)
				return true
			})
		}
		// A variable used other than to be called holds no closure for
		// good.
		if len(x.stored) > 0 || len(x.storedSel) > 0 {
			for id, obj := range x.info.Uses {
				if v, ok := obj.(*types.Var); ok && (x.stored[v] != nil || x.storedSel[v] != nil) && !called[id] {
					delete(x.stored, v)
					delete(x.storedSel, v)
				}
			}
			for call, b := range x.bound {
				if b.v != nil && x.storedSel[b.v] == nil {
					delete(x.bound, call)
				}
			}
		}
		// What the Index answers now does not need these; Release drops
		// the rest.
		x.files = nil
	})
}

// Info returns the type information the index was built with.
func (x *Index) Info() *types.Info { return x.info }

// Funcs returns every function body in the package's user files,
// declarations and literals, skipping cgo's support files and wrapper
// literals.
func (x *Index) Funcs() []Func {
	x.build()
	return x.funcs
}

// IsWrapper is cgocall.IsWrapper, answered from the build walk for the
// literals of the user's files: the analyzers ask it of every literal they
// meet, in every walk.
func (x *Index) IsWrapper(lit *ast.FuncLit) bool {
	x.build()
	if w, ok := x.wrappers[lit]; ok {
		return w
	}
	if _, ok := x.ranges[lit.Body]; ok { // a literal of Funcs
		return false
	}
	return cgocall.IsWrapper(x.info, lit)
}

// noteStored notes id := lit, a candidate for StoredLit, and id := b.Do,
// one for Bound.
func (x *Index) noteStored(id ast.Expr, e ast.Expr) {
	ident, ok := id.(*ast.Ident)
	if !ok {
		return
	}
	v, ok := x.info.Defs[ident].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		Put(&x.stored, v, e)
	case *ast.SelectorExpr:
		if sel, ok := x.info.Selections[e]; ok && sel.Kind() == types.MethodVal {
			Put(&x.storedSel, v, e)
		}
	}
}

type boundCall struct {
	call *ast.CallExpr
	v    *types.Var // the variable holding the method value; nil: a method expression
}

// noteBound notes call as a call of a method: (*T).Do(b, x) as b.Do(x),
// and f(x), for f := b.Do, as b.Do(x) (while f is a candidate).
func (x *Index) noteBound(call *ast.CallExpr) {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if sel, ok := x.info.Selections[fun]; ok && sel.Kind() == types.MethodExpr && len(call.Args) > 0 {
			Put(&x.bound, call, boundCall{call: &ast.CallExpr{Fun: &ast.SelectorExpr{X: call.Args[0], Sel: fun.Sel},
				Lparen: call.Lparen, Args: call.Args[1:], Ellipsis: call.Ellipsis, Rparen: call.Rparen}})
		}
	case *ast.Ident:
		if v, ok := x.info.Uses[fun].(*types.Var); ok && x.storedSel[v] != nil {
			Put(&x.bound, call, boundCall{call: &ast.CallExpr{Fun: x.storedSel[v],
				Lparen: call.Lparen, Args: call.Args, Ellipsis: call.Ellipsis, Rparen: call.Rparen}, v: v})
		}
	}
}

// Bound returns call as the call of a method it is: a method expression's
// call ((*T).Do(b, x)) as b.Do(x), and the call of a local variable that
// holds one method value for good (f := b.Do, only called) as b.Do(x), with
// the receiver as written where the value was made. The call returned is
// not in the package's files (it is made once, so that analyzers may key
// on it); its function resolves to the method (Callee) and ArgAt names its
// receiver and arguments. Nil for any other call.
func (x *Index) Bound(call *ast.CallExpr) *ast.CallExpr {
	x.build()
	if len(x.bound) == 0 {
		return nil
	}
	return x.bound[call].call
}

// StoredLit returns the closure that call runs when it calls a local
// variable that holds one closure for good: declared with it (run :=
// func() error {...}, var run = func() {...}), never assigned again, and
// used only to be called, not in a go or defer statement. Such a call runs
// the closure there, on the caller's variables; the literal where it is
// written runs nothing, and stays a function of its own (not InPlace). Nil
// for any other call.
func (x *Index) StoredLit(call *ast.CallExpr) *ast.FuncLit {
	x.build()
	if len(x.stored) == 0 {
		return nil
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := x.info.Uses[id].(*types.Var)
	return x.stored[v]
}

// Stored reports whether lit is the closure a local variable holds for
// good (StoredLit): it runs where the variable is called, and what it
// captures is not handed on where it is written.
func (x *Index) Stored(lit *ast.FuncLit) bool {
	x.build()
	for _, l := range x.stored {
		if l == lit {
			return true
		}
	}
	return false
}

// InPlace reports whether lit runs during the call it is passed to, on the
// caller's variables (see addInPlace).
func (x *Index) InPlace(lit *ast.FuncLit) bool {
	x.build()
	return x.inPlace[lit]
}

// Match returns the runtime call that e denotes, or nil (see cgocall.Match).
func (x *Index) Match(e ast.Expr) *cgocall.Call {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	x.build()
	if c, ok := x.calls[call]; ok {
		return c
	}
	// A call that is not in the package's files: one that cgocall built
	// while resolving a wrapper's arguments.
	return cgocall.Match(x.info, call)
}

// RuntimeCalls returns every runtime call in the package's user files, in
// source order, for analyzers that look at all of them whatever the function
// (a package-wide scan): both the user's call and, for a call through cgo's
// pointer-checking wrapper, the direct _Cfunc_ call inside the wrapper,
// whose arguments are cgo's temporaries (_cgo0). Callers read the user's.
func (x *Index) RuntimeCalls() []*cgocall.Call {
	x.build()
	return x.runtime
}

// Inspect calls yield for every runtime call in the subtree of n, in source
// order, without descending into cgo's wrapper literals (see
// cgocall.Inspect).
func (x *Index) Inspect(n ast.Node, yield func(*cgocall.Call) bool) {
	cgocall.InspectWith(x.Match, n, yield)
}

// CFG returns the control-flow graph of body (see the function CFG), built
// once: each analyzer solves each function at least once, some once per
// summary round, and in-place closures once per visit of their call.
// Analyzers only read the graphs.
func (x *Index) CFG(body *ast.BlockStmt) *cfg.CFG {
	x.mu.Lock()
	g := x.cfgs[body]
	x.mu.Unlock()
	if g != nil {
		return g
	}
	g = CFG(x.info, body) // unlocked: another analyzer may build the same; the first stored is kept
	x.mu.Lock()
	defer x.mu.Unlock()
	if old := x.cfgs[body]; old != nil {
		return old
	}
	if x.cfgs == nil {
		x.cfgs = map[*ast.BlockStmt]*cfg.CFG{}
	}
	x.cfgs[body] = g
	return g
}

// funcRefs returns the functions and methods that body refers to, each
// once, in the order of their first mention. Three analyzers ask for every
// declared function (LocalRefs); the walk is made once.
func (x *Index) funcRefs(body *ast.BlockStmt) []*types.Func {
	x.mu.Lock()
	refs, ok := x.refs[body]
	x.mu.Unlock()
	if ok {
		return refs
	}
	x.build()
	if sp, ok := x.ranges[body]; ok {
		// The build walk listed the body's references: no walk here.
		var l funcList
		for _, fn := range x.refList[sp.refs[0]:sp.refs[1]] {
			l.Add(fn)
		}
		refs = l.list
	} else {
		refs = inspectRefs(x.info, body)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.refs == nil {
		x.refs = map[*ast.BlockStmt][]*types.Func{}
	}
	x.refs[body] = refs
	return refs
}

// inspectRefs is funcRefs for a body the build walk did not list, by a walk
// of its own: apart, so that no closure captures funcRefs's result, which
// was then made on the heap at every call, the cached ones too.
func inspectRefs(info *types.Info, body *ast.BlockStmt) []*types.Func {
	var refs []*types.Func
	seen := map[*types.Func]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if fn, ok := info.Uses[id].(*types.Func); ok && !seen[fn] {
				seen[fn] = true
				refs = append(refs, fn)
			}
		}
		return true
	})
	return refs
}

// Release lets go of the package's syntax and type information. The driver
// calls it when the last analyzer of the package has run (the checker keeps
// every result until the end of the analysis).
func (x *Index) Release() {
	// An index no analyzer asked for is not built now; one asked for
	// after this is empty.
	x.once.Do(func() {})
	x.funcs, x.inPlace, x.calls, x.runtime, x.info, x.files = nil, nil, nil, nil, nil, nil
	x.wrappers, x.stored, x.storedSel, x.bound = nil, nil, nil, nil
	x.entries, x.ranges, x.user, x.refList, x.objList = nil, nil, nil, nil, nil
	x.srcOnce.Do(func() {})
	x.srcs = nil
	x.goOnce.Do(func() {})
	x.goh = nil
	x.mu.Lock()
	x.cfgs, x.refs, x.resultSets = nil, nil, nil
	x.mu.Unlock()
}
