package modulebalance

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
)

// Goroutines (flow.Goroutines): a goroutine started at S and joined at J
// runs concurrently with what the function does between them. A module the
// goroutine uses and the function unloads in that window (or one the
// goroutine unloads and the function uses) is used after its unload on
// some schedule (HL2003); so is a module a goroutine never joined in the
// function (a parallel subtest) uses while the function's deferred unload
// runs at its return. A goroutine whose join is unknown (Opaque) says
// nothing.

// concurrency holds a function's goroutines by the node that starts them,
// and the starts each join waits for.
type concurrency struct {
	starts   map[ast.Node]flow.Goroutine
	joins    map[ast.Node][]token.Pos
	subtests map[token.Pos]bool // the starts that are t.Run of a parallel subtest
}

// goroutines returns fn's goroutines, or nil when it starts none whose
// join is known.
func (fa *funcAnalysis) goroutines() *concurrency {
	var c *concurrency
	for _, g := range flow.Goroutines(fa.idx, fa.info, fa.fn.Body) {
		if g.Opaque {
			continue
		}
		if c == nil {
			c = &concurrency{starts: map[ast.Node]flow.Goroutine{}, joins: map[ast.Node][]token.Pos{}, subtests: map[token.Pos]bool{}}
		}
		c.starts[g.Start] = g
		if call, ok := g.Start.(*ast.CallExpr); ok && isTestingRun(flow.Callee(fa.info, call)) {
			c.subtests[g.Start.Pos()] = true
		}
		if g.Join != nil {
			c.joins[g.Join] = append(c.joins[g.Join], g.Start.Pos())
		}
	}
	return c
}

// concurrent applies the goroutines n starts and joins to s: a join first
// (return g.Wait() waits before the deferred unloads run), then the
// starts, after n's calls (the literal g.Go runs in place is seen there).
func (fa *funcAnalysis) concurrent(n ast.Node, s state, starts bool) {
	if fa.gos == nil {
		return
	}
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.FuncLit); ok {
			return false
		}
		if g, ok := fa.gos.starts[m]; ok && starts {
			fa.start(g, s)
		}
		if at, ok := fa.gos.joins[m]; ok && !starts {
			fa.join(at, s)
		}
		return true
	})
}

// start records in s the modules g uses and unloads while it runs.
func (fa *funcAnalysis) start(g flow.Goroutine, s state) {
	at := g.Start.Pos()
	flow.Released(fa.idx, g.Run, fa.usesOf, func(_ *ast.CallExpr, m ast.Expr) {
		for _, k := range fa.handlesAt(s, m) {
			if h := own(s, k); h.goUse == token.NoPos {
				h.goUse = at
			}
		}
	})
	flow.Released(fa.idx, g.Run, fa.unloadsOf, func(call *ast.CallExpr, m ast.Expr) {
		for _, k := range fa.handlesAt(s, m) {
			if h := own(s, k); h.goUnload == token.NoPos {
				h.goUnload, h.goUnloadAt = at, call.Pos()
			}
		}
	})
}

// join ends, in s, the goroutines started at the positions at: what they
// unloaded is unloaded now.
func (fa *funcAnalysis) join(at []token.Pos, s state) {
	for k, h := range s {
		use, unload := h.goUse != token.NoPos && contains(at, h.goUse), h.goUnload != token.NoPos && contains(at, h.goUnload)
		if !use && !unload {
			continue
		}
		h = own(s, k)
		if use {
			h.goUse = token.NoPos
		}
		if unload {
			h.b = h.b&flags | unloaded
			h.unloadAt, h.goUnload, h.goUnloadAt = h.goUnloadAt, token.NoPos, token.NoPos
		}
	}
}

func contains(list []token.Pos, p token.Pos) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

// unloadWhileRunning reports the unload by call of k's module while a
// goroutine that uses it may still run.
func (fa *funcAnalysis) unloadWhileRunning(k flow.Loc, h *handle, call *ast.CallExpr) {
	if h.goUse == token.NoPos {
		return
	}
	fa.reported.Reportf(UseAfterUnload, call, []diag.Related{{Pos: h.goUse, Message: "goroutine started here"}},
		"module %s is unloaded while the goroutine started at line %d may still use it; wait for the goroutine (wg.Wait, a receive, the group's Wait) before unloading",
		k, fa.pass.Fset.Position(h.goUse).Line)
}

// useWhileUnloading reports the use by name, at n, of k's module while a
// goroutine that unloads it may run.
func (fa *funcAnalysis) useWhileUnloading(k flow.Loc, h *handle, n ast.Node, name string) {
	if h.goUnload == token.NoPos {
		return
	}
	fa.reported.Reportf(UseAfterUnload, n, []diag.Related{{Pos: h.goUnloadAt, Message: "unloaded here, in the goroutine"}},
		"%s uses module %s, which the goroutine started at line %d may have unloaded already; use it before starting the goroutine, or wait for it and do not use the module after",
		name, k, fa.pass.Fset.Position(h.goUnload).Line)
}

// deferredWhileRunning reports, at a return, the deferred unloads that run
// while a goroutine never joined on the path (a parallel subtest) may still
// use the module. A test's cleanups run after its parallel subtests.
func (fa *funcAnalysis) deferredWhileRunning(s state) {
	for _, k := range sortedByName(s) {
		h := s[k]
		if h.goUse == token.NoPos || h.b&deferred == 0 || h.deferAt == token.NoPos || fa.cleanups[h.deferAt] {
			continue
		}
		line := fa.pass.Fset.Position(h.goUse).Line
		what := fmt.Sprintf("the goroutine started at line %d may still use it; wait for it before the function returns", line)
		if fa.gos.subtests[h.goUse] {
			what = fmt.Sprintf("the parallel subtest started at line %d, which runs after the test function returns, uses it; unload it in t.Cleanup, which runs after the parallel subtests", line)
		}
		fa.reported.Report(UseAfterUnload, h.deferAt, h.deferAt,
			fmt.Sprintf("the deferred unload of module %s runs when the function returns, while %s", k, what),
			[]diag.Related{{Pos: h.goUse, Message: "started here"}})
	}
}

// exitsProcess reports, at n, a call of os.Exit, the modules whose
// deferred unload it skips: the process ends without running deferred
// calls (TestMain's `defer m.Close(); os.Exit(m.Run())`).
func (fa *funcAnalysis) exitsProcess(n ast.Node, s state) {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok || !isOSExit(flow.Callee(fa.info, call)) {
		return
	}
	for _, k := range sortedByName(s) {
		h := s[k]
		if h.b&deferred == 0 || h.b&unloaded != 0 || len(h.sites) == 0 || fa.cleanups[h.deferAt] {
			continue
		}
		for _, i := range h.sites {
			site := fa.sites.List[i]
			fa.reported.Report(Leak, site.call.Pos(), site.call.End(),
				"module "+k.String()+" loaded by "+site.name+" is never unloaded: os.Exit ends the program without running deferred calls, so the deferred unload never runs; unload it before os.Exit (e.g. code := m.Run(); unload; os.Exit(code))",
				[]diag.Related{{Pos: call.Pos(), Message: "exits here"}, {Pos: h.deferAt, Message: "deferred unload"}})
		}
	}
}

func isTestingRun(fn *types.Func) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && fn.Name() == "Run"
}

func isOSExit(fn *types.Func) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "os" && fn.Name() == "Exit"
}
