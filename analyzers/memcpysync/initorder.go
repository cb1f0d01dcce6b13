package memcpysync

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/hiplint/hiplint/internal/flow"
)

// Program order. A function the Go runtime or go test enters starts on what
// ran before it in the program, not on nothing: an init on what the
// package's earlier init functions left (flow.InitOrder: files by name), a
// TestMain on what every init left, and a test, benchmark, example or fuzz
// function on that and on what TestMain left at its m.Run(). A copy one of
// them leaves in flight into a package-level variable is in flight when the
// entry starts. Entries are analyzed on that state when reporting (their
// summaries stay their own: nothing calls them).

// An earlier is a function that ran before an entry, with the summary of what
// it left: applied at the entry's start as a call of it.
type earlier struct {
	call *ast.CallExpr // stands for the run: at the function's name
	fn   *types.Func
	sum  Summary
}

// runsBefore returns what ran before fn in the program, once the summaries
// are final (c.solved); nil for a function that is no entry, or when
// nothing before it left anything.
func (c *checker) runsBefore(fn flow.Func) []earlier {
	if !c.solved || fn.Decl == nil {
		return nil
	}
	obj := fn.Object(c.info)
	var out []earlier
	switch flow.EntryOf(obj, fn.Decl, c.testFile(fn.Decl)) {
	case flow.InitEntry:
		for _, r := range c.initRuns() {
			if r.fn == obj {
				break
			}
			out = append(out, r)
		}
	case flow.TestMainEntry:
		out = c.initRuns()
	case flow.TestEntry:
		out = c.initRuns()
		if r, ok := c.testMainRun(); ok {
			out = append(out[:len(out):len(out)], r)
		}
	}
	for _, r := range out {
		if len(r.sum.Copies) > 0 {
			return out
		}
	}
	return nil // nothing left in flight: the entry's own analysis stands
}

func (c *checker) testFile(decl *ast.FuncDecl) bool {
	return strings.HasSuffix(c.pass.Fset.Position(decl.Pos()).Filename, "_test.go")
}

// initRuns returns the package's init functions in program order with
// their summaries.
func (c *checker) initRuns() []earlier {
	if c.inits == nil {
		c.inits = []earlier{}
		for _, f := range flow.InitOrder(c.idx) {
			obj := f.Object(c.info)
			sum, _ := c.sums.Of(obj)
			c.inits = append(c.inits, earlier{call: ranAt(f.Decl), fn: obj, sum: sum})
		}
	}
	return c.inits
}

// testMainRun returns what the package's TestMain leaves when it runs the
// tests: its state at each m.Run() call (on every path to one), as a
// summary.
func (c *checker) testMainRun() (earlier, bool) {
	if c.mainRun == nil {
		c.mainRun = &earlier{}
		for _, f := range c.idx.Funcs() {
			if f.Decl == nil || f.Decl.Body == nil || flow.EntryOf(f.Object(c.info), f.Decl, c.testFile(f.Decl)) != flow.TestMainEntry {
				continue
			}
			fa := c.analyzeAfter(f, c.initRuns(), func(n ast.Node) bool {
				return flow.FirstCall(n, func(*ast.FuncLit) bool { return false }, func(call *ast.CallExpr) bool {
					fn := c.idx.Callee(call)
					return fn != nil && fn.Name() == "Run" && fn.FullName() == "(*testing.M).Run"
				}) != nil
			})
			*c.mainRun = earlier{call: ranAt(f.Decl), fn: f.Object(c.info), sum: fa.summary()}
		}
	}
	return *c.mainRun, c.mainRun.fn != nil
}

// ranAt stands for the run of an entry before the next: a call of it, with
// no arguments, at its name (where a copy it leaves in flight is said to be
// made).
func ranAt(decl *ast.FuncDecl) *ast.CallExpr {
	return &ast.CallExpr{Fun: decl.Name, Lparen: decl.Name.End(), Rparen: decl.Name.End()}
}
