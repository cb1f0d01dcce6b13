package flow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"
)

// A Goroutine is code a function starts to run concurrently with itself:
// the closure or call of a go statement, a literal handed to a helper that
// starts it with go (errgroup's Group.Go, the package's own look-alikes),
// or a parallel subtest (t.Run of a literal that calls t.Parallel). It runs
// concurrently with everything the function does between Start and Join:
// a release in that window of what the goroutine uses (or the reverse) is
// a use after release, and so is a deferred release when the goroutine is
// never joined in the function.
type Goroutine struct {
	Start ast.Node // the go statement, or the call that starts it
	Run   ast.Node // what runs: the literal, or the go statement's call
	// Join is the first wait, after Start in the source, that waits for it:
	// (*sync.WaitGroup).Wait on a WaitGroup it calls Done on, a receive from
	// (or a range over) a channel it sends on or closes, the Wait of the
	// group that started it, or a helper of the package that does one of
	// those on its parameter (func wait(wg *sync.WaitGroup) { wg.Wait() }).
	// Nil when the function never waits for it: then, unless Opaque, it
	// runs until after the function returns (a parallel subtest runs after
	// its parent's function and its deferred calls).
	Join ast.Node
	// Opaque: it signals something the function does not wait for (a
	// channel handed elsewhere), or it shares a channel, a lock or a
	// context whose use says nothing known: whether and when it is joined
	// is unknown, so an analyzer should assume nothing of it.
	Opaque bool
}

// Goroutines returns the goroutines that body (not its closures) starts, in
// source order; nil when it starts none.
func Goroutines(x *Index, info *types.Info, body *ast.BlockStmt) []Goroutine {
	gos, waits := scanGoroutines(x, info, body)
	var out []Goroutine
	for _, g := range gos {
		gr := Goroutine{Start: g.start, Run: g.run}
		if !g.subtest {
			for _, w := range waits {
				if w.at.Pos() > g.start.Pos() && intersects(w.objs, g.signals) {
					gr.Join = w.at
					break
				}
			}
			gr.Opaque = gr.Join == nil && (len(g.signals) > 0 || g.shares)
		}
		out = append(out, gr)
	}
	return out
}

// goSite is one goroutine a body starts, with what it signals.
type goSite struct {
	start, run ast.Node
	lit        *ast.FuncLit // the literal of go func() {...}(), else nil
	signals    []types.Object
	subtest    bool // a parallel subtest: joined after the function returns
	shares     bool // it mentions a channel, a sync value or a context
}

// waitSite is one wait of a body: what it waits on.
type waitSite struct {
	at   ast.Node
	objs []types.Object
}

// scanGoroutines lists the goroutines body starts and the waits it makes,
// in source order, not looking into closures but for the literals it
// starts.
func scanGoroutines(x *Index, info *types.Info, body *ast.BlockStmt) ([]goSite, []waitSite) {
	var gos []goSite
	var waits []waitSite
	var helpers *goHelpers // made on first use
	helper := func() *goHelpers {
		if helpers == nil {
			if x != nil {
				helpers = x.goHelpers(info)
			} else {
				helpers = newGoHelpers(nil, info)
			}
		}
		return helpers
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			g := goSite{start: n, run: n.Call}
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				g.run, g.lit = lit, lit
				g.signals = signalRoots(info, lit)
				g.shares = sharesSync(info, lit.Body)
			} else {
				// go worker(m, &wg): what the callee signals on its
				// parameters, as the caller's arguments.
				if s := helper().summary(x, info, n.Call); s != nil {
					g.signals = argObjs(x, info, n.Call, s.signalsIn)
				}
				g.shares = sharesSync(info, n.Call)
			}
			gos = append(gos, g)
			return false
		case *ast.RangeStmt:
			if _, ok := typeUnder[*types.Chan](info.TypeOf(n.X)); ok {
				if obj := exprObj(info, n.X); obj != nil {
					waits = append(waits, waitSite{n.X, []types.Object{obj}})
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				if obj := exprObj(info, n.X); obj != nil {
					waits = append(waits, waitSite{n, []types.Object{obj}})
				}
			}
		case *ast.CallExpr:
			if obj := waitGroupCall(info, n, "Wait"); obj != nil {
				waits = append(waits, waitSite{n, withRoot(info, n, obj)})
				return true
			}
			if lit := parallelSubtest(info, n); lit != nil {
				gos = append(gos, goSite{start: n, run: lit, lit: lit, subtest: true})
				return true
			}
			if !mayHelp(info, n) {
				return true
			}
			s := helper().summary(x, info, n)
			if s == nil {
				return true
			}
			if len(s.waitsOn) > 0 {
				waits = append(waits, waitSite{n, argObjs(x, info, n, s.waitsOn)})
			}
			if s.runs != noParam {
				if lit, ok := ast.Unparen(x.ArgAt(n, s.runs)).(*ast.FuncLit); ok {
					gos = append(gos, goSite{start: n, run: lit, signals: argObjs(x, info, n, s.signalsIn),
						shares: sharesSync(info, lit.Body)})
				}
			}
		}
		return true
	})
	return gos, waits
}

// signalRoots returns what lit signals (signals), each with the variable
// it is reached through: g for g.wg.Done(), which the group's own Wait
// method waits on.
func signalRoots(info *types.Info, lit *ast.FuncLit) []types.Object {
	out := signals(info, lit)
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		var e ast.Expr
		switch n := n.(type) {
		case *ast.SendStmt:
			e = n.Chan
		case *ast.CallExpr:
			if waitGroupCall(info, n, "Done") != nil {
				e = ast.Unparen(n.Fun).(*ast.SelectorExpr).X
			} else if BuiltinName(info, n) == "close" && len(n.Args) == 1 {
				e = n.Args[0]
			}
		}
		if e == nil {
			return true
		}
		if v := RootVar(info, e); v != nil && !slices.Contains(out, types.Object(v)) {
			out = append(out, v)
		}
		return true
	})
	return out
}

// withRoot adds to obj, the WaitGroup a Wait call is made on (g.wg's
// field), the variable it is reached through (g), which a helper that
// signals or waits on g names.
func withRoot(info *types.Info, call *ast.CallExpr, obj types.Object) []types.Object {
	out := []types.Object{obj}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if v := RootVar(info, sel.X); v != nil && types.Object(v) != obj {
			out = append(out, v)
		}
	}
	return out
}

// parallelSubtest returns the literal of t.Run(name, func(t *testing.T)
// {...}) when it calls Parallel on its own T: go test runs it after the
// parent test's function has returned.
func parallelSubtest(info *types.Info, call *ast.CallExpr) *ast.FuncLit {
	fn := Callee(info, call)
	if !isFunc(fn, "testing", "Run") || len(call.Args) != 2 {
		return nil
	}
	lit, ok := ast.Unparen(call.Args[1]).(*ast.FuncLit)
	if !ok || len(lit.Type.Params.List) != 1 || len(lit.Type.Params.List[0].Names) != 1 {
		return nil
	}
	t := info.Defs[lit.Type.Params.List[0].Names[0]]
	parallel := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && isFunc(Callee(info, c), "testing", "Parallel") {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && t != nil && exprObj(info, sel.X) == t {
				parallel = true
			}
		}
		_, nested := n.(*ast.FuncLit)
		return !parallel && !nested
	})
	if !parallel {
		return nil
	}
	return lit
}

// sharesSync reports whether n mentions a channel, a value of package sync
// or a context: a goroutine that does may be joined in a way Goroutines
// does not model.
func sharesSync(info *types.Info, n ast.Node) bool {
	shares := false
	ast.Inspect(n, func(m ast.Node) bool {
		e, ok := m.(ast.Expr)
		if !ok || shares {
			return !shares
		}
		t := info.TypeOf(e)
		if t == nil {
			return true
		}
		if _, ok := typeUnder[*types.Chan](t); ok {
			shares = true
		}
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
			switch n.Obj().Pkg().Path() {
			case "sync", "context":
				shares = true
			}
		}
		return !shares
	})
	return shares
}

func typeUnder[T types.Type](t types.Type) (T, bool) {
	var zero T
	if t == nil {
		return zero, false
	}
	u, ok := t.Underlying().(T)
	return u, ok
}

func intersects(a, b []types.Object) bool {
	for _, o := range a {
		if slices.Contains(b, o) {
			return true
		}
	}
	return false
}

const noParam = -2

// goSummary is what a helper does with goroutines, by parameter (Receiver
// for the receiver): runs is the function parameter it starts in a
// goroutine (noParam: none); signalsIn the parameters whose WaitGroup or
// channel that goroutine (or the helper's own goroutine, for go helper())
// signals; waitsOn those whose WaitGroup or channel it waits on.
type goSummary struct {
	runs               int
	signalsIn, waitsOn []int
}

// goHelpers summarizes, on demand, the package's functions as starters and
// waiters (goSummary), and errgroup's Group by name.
type goHelpers struct {
	decls map[*types.Func]*ast.FuncDecl // read only once made
	mu    sync.Mutex
	done  map[*types.Func]*goSummary
}

// goHelpers returns the package's goHelpers, made once: every function
// that starts or waits for goroutines made its own, a map of every
// declaration of the package, and summarized the same helpers again.
func (x *Index) goHelpers(info *types.Info) *goHelpers {
	x.goOnce.Do(func() { x.goh = newGoHelpers(x, info) })
	if x.goh == nil { // released (Release)
		return newGoHelpers(nil, info)
	}
	return x.goh
}

func newGoHelpers(x *Index, info *types.Info) *goHelpers {
	h := &goHelpers{decls: map[*types.Func]*ast.FuncDecl{}, done: map[*types.Func]*goSummary{}}
	if x != nil {
		for _, f := range x.Funcs() {
			if fn := f.Object(info); fn != nil && f.Decl.Body != nil {
				h.decls[fn] = f.Decl
			}
		}
	}
	return h
}

// mayHelp reports whether call may start or wait for goroutines: it calls a
// function or method (not a builtin, a conversion or a runtime call) with
// an argument or receiver.
func mayHelp(info *types.Info, call *ast.CallExpr) bool {
	fn := Callee(info, call)
	return fn != nil && (len(call.Args) > 0 || fn.Signature().Recv() != nil)
}

// summary returns what call's callee does with goroutines, or nil.
func (h *goHelpers) summary(x *Index, info *types.Info, call *ast.CallExpr) *goSummary {
	var fn *types.Func
	if x != nil {
		fn = x.Callee(call)
	} else {
		fn = Callee(info, call)
	}
	if fn == nil {
		return nil
	}
	h.mu.Lock()
	s, ok := h.done[fn]
	h.mu.Unlock()
	if ok {
		return s
	}
	if fn.Pkg() != nil && strings.HasSuffix(fn.Pkg().Path(), "/errgroup") && fn.Signature().Recv() != nil {
		switch fn.Name() { // golang.org/x/sync/errgroup's Group
		case "Go", "TryGo":
			s = &goSummary{runs: 0, signalsIn: []int{Receiver}}
		case "Wait":
			s = &goSummary{runs: noParam, waitsOn: []int{Receiver}}
		}
	} else if decl := h.decls[fn]; decl != nil {
		s = summarizeGo(info, fn.Signature(), decl.Body)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if old, ok := h.done[fn]; ok { // made meanwhile by another analyzer: the same
		return old
	}
	h.done[fn] = s
	return s
}

// summarizeGo summarizes a helper's body (goSummary); nil when it neither
// starts nor waits on its parameters.
func summarizeGo(info *types.Info, sig *types.Signature, body *ast.BlockStmt) *goSummary {
	param := func(e ast.Expr) int {
		v := RootVar(info, e)
		for i, p := range Params(sig) {
			if v != nil && p == v {
				return i
			}
		}
		return noParam
	}
	s := goSummary{runs: noParam}
	add := func(list *[]int, e ast.Expr) {
		if i := param(e); i != noParam && !slices.Contains(*list, i) {
			*list = append(*list, i)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.GoStmt:
			run := ast.Node(n.Call)
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				run = lit.Body
			}
			ast.Inspect(run, func(m ast.Node) bool {
				switch m := m.(type) {
				case *ast.SendStmt:
					add(&s.signalsIn, m.Chan)
				case *ast.CallExpr:
					if id, ok := ast.Unparen(m.Fun).(*ast.Ident); ok {
						if i := param(id); i != noParam {
							if _, isFunc := typeUnder[*types.Signature](info.TypeOf(id)); isFunc {
								s.runs = i
							}
						}
					}
					if BuiltinName(info, m) == "close" && len(m.Args) == 1 {
						add(&s.signalsIn, m.Args[0])
					}
					if waitGroupCall(info, m, "Done") != nil {
						add(&s.signalsIn, ast.Unparen(m.Fun).(*ast.SelectorExpr).X)
					}
				}
				return true
			})
			return false
		case *ast.CallExpr:
			if waitGroupCall(info, n, "Wait") != nil {
				add(&s.waitsOn, ast.Unparen(n.Fun).(*ast.SelectorExpr).X)
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				add(&s.waitsOn, n.X)
			}
		}
		return true
	})
	if s.runs == noParam && len(s.waitsOn) == 0 && len(s.signalsIn) == 0 {
		return nil
	}
	return &s
}

// argObjs returns the variables call passes for params: each argument's
// own variable or field (exprObj) and the variable it is rooted at.
func argObjs(x *Index, info *types.Info, call *ast.CallExpr, params []int) []types.Object {
	var out []types.Object
	for _, p := range params {
		var e ast.Expr
		if x != nil {
			e = x.ArgAt(call, p)
		} else {
			e = argAt(call, p)
		}
		if e == nil {
			continue
		}
		if obj := exprObj(info, e); obj != nil {
			out = append(out, obj)
		}
		if v := RootVar(info, e); v != nil {
			out = append(out, v)
		}
	}
	return out
}
