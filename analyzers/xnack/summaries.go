package xnack

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/hiplint/hiplint/internal/flow"
)

// This file is what xnack knows of functions: one Summary each, kept in one
// flow.Table (this package's, else the imported fact, else the meet over an
// interface method's implementations), and computed by two flow.Summaries
// solves. The first summarizes results (guard wrappers,
// system-memory constructors, kernel argument arrays); the events of every
// node need them. The second summarizes effects and uses: whether a
// function initializes HIP, sets HSA_XNACK, returns only with XNACK on, and
// which unguarded memory uses and parameters reaching the GPU it has.

// Guard is what a guard helper's result proves: result Result (a boolean
// being true, or an error being nil) holds only when XNACK is on, or, with
// HMM, only when the attribute Checks names is 1, which reports HMM
// (managed memory) support and not XNACK.
type Guard struct {
	Result int
	HMM    bool
	Checks string
}

// Memory is a result (Result) that points to system memory (From says
// which).
type Memory struct {
	Result int
	From   string
}

// KernelArgs is a result (Result) that is a kernel argument array
// (kernelParams) whose arguments include the pointers the caller passes in
// parameters Params, sorted (reach.go).
type KernelArgs struct {
	Result int
	Params []int
}

// Need is one XNACK-dependent memory use that a call reaches unguarded:
// system memory (malloc, mmap or Go memory: faults without XNACK), else
// managed memory (pinned host memory without XNACK). What says what it is
// and in which function ("C.malloc memory (buf) passed to
// hipModuleLaunchKernel in f"); CUDA: through the CUDA API (the guard is
// cudaDevAttrPageableMemoryAccess). In this package, in is that function
// and pos where the use is; for an imported callee pos is its declaration.
// site is the call a walk found it at.
type Need struct {
	System bool
	What   string
	CUDA   bool
	in     string
	pos    token.Pos
	site   token.Pos
}

// String is the kind, as the fact shows it.
func (n Need) String() string { return map[bool]string{false: "managed", true: "system"}[n.System] }

// Summary is the fact of what a function does that matters for XNACK to
// its callers.
type Summary struct {
	Reports  *Guard      // what its boolean result being true proves
	ErrGuard *Guard      // what its error result being nil proves
	Memory   *Memory     // it returns system memory
	Args     *KernelArgs // it returns a kernel argument array of its parameters
	Needs    []Need      // the uses it reaches unguarded, first of each kind, system first
	// Params: the parameters whose memory it hands to the GPU on a path it
	// does not guard, sorted (reach.go).
	Params  []ParamFlow
	Runtime bool // it may call the HIP runtime (HSA_XNACK is read by its return)
	Env     bool // it may set HSA_XNACK
	Guards  bool // it returns normally only with XNACK on (skips, exits, or sets HSA_XNACK=1)
}

func (*Summary) AFact() {}
func (s *Summary) String() string {
	var memory, args string
	if s.Memory != nil {
		memory = strconv.Itoa(s.Memory.Result)
	}
	if s.Args != nil {
		args = fmt.Sprintf("result=%d, params=%s", s.Args.Result, flow.JoinText(s.Args.Params, ","))
	}
	// The flags print their names alone (%.0s): on is a value FactText
	// keeps, off an empty one it leaves out.
	on := map[bool]string{true: "on"}
	return flow.FactText(" ", "reports%s", s.Reports.text(false), "errUnless%s", s.ErrGuard.text(true),
		"returnsSystemMemory(result=%s)", memory, "returnsKernelArgs(%s)", args,
		"needsXNACK(%s)", flow.JoinText(s.Needs, ", "), "launchesParams(%s)", flow.JoinText(s.Params, ", "),
		"initializesHIP%.0s", on[s.Runtime], "setsHSA_XNACK%.0s", on[s.Env], "guardsXNACK%.0s", on[s.Guards])
}

// text is g's fact form ("" for none), an HMM check naming what it checks
// where checks.
func (g *Guard) text(checks bool) string {
	switch {
	case g == nil:
		return ""
	case g.HMM && checks:
		return fmt.Sprintf("HMM(result=%d, %s)", g.Result, g.Checks)
	}
	return fmt.Sprintf("%s(result=%d)", map[bool]string{false: "XNACK", true: "HMM"}[g.HMM], g.Result)
}

// meet is what a call through an interface may do (it may reach any
// implementation: the HIP one on an AMD GPU): it may initialize HIP, set
// HSA_XNACK or hand a parameter to the GPU if any implementation does; it
// guards, returns system memory or proves a guard only if every
// implementation does (a guard as weak as the weakest). It reaches the
// first uses of any (where they are: an imported one at its declaration,
// importNeeds); kernel argument arrays are not followed through interfaces.
func meet(fs []Summary) Summary {
	out := fs[0]
	out.Args = nil
	for _, f := range fs[1:] {
		out.Needs = firstUses(append(slices.Clip(out.Needs), f.Needs...))
		out.Runtime = out.Runtime || f.Runtime
		out.Env = out.Env || f.Env
		out.Params = flow.UnionSorted(out.Params, f.Params, compareParams)
		out.Guards = out.Guards && f.Guards
		out.Reports, out.ErrGuard = meetGuards(out.Reports, f.Reports), meetGuards(out.ErrGuard, f.ErrGuard)
		if out.Memory == nil || f.Memory == nil || out.Memory.Result != f.Memory.Result {
			out.Memory = nil
		}
	}
	return out
}

func meetGuards(a, b *Guard) *Guard {
	switch {
	case a == nil || b == nil || a.Result != b.Result:
		return nil
	case b.HMM && !a.HMM:
		return b
	}
	return a
}

// summarizeResults finds guard wrappers, system-memory constructors and
// kernel argument array builders, callees first.
func (a *analyzer) summarizeResults() {
	flow.Summaries[Summary]{
		Pass: a.pass, Index: a.idx, Impls: a.impls,
		Deps: func(fn flow.Func) []*types.Func {
			return a.idx.StoreDeps(a.pass.Pkg, a.ix, fn.Body)
		},
		Analyze: func(fn flow.Func) Summary { return a.findResults(a.byNode[fn.Node()]) },
		Update:  a.sums.Set,
	}.Solve(a.idx.Funcs())
}

// findResults summarizes fi's results, the first of each kind that every
// return statement (Reports) or some return statement gives as follows.
// Reports: a boolean result true only when XNACK was checked, each
// operand a guard or false, at least one not false, proving what the
// weakest does. Memory: a raw pointer to system memory. Args: a kernel
// argument array whose argument values include a parameter (reach.go).
func (a *analyzer) findResults(fi *fnInfo) Summary {
	results := fi.obj.Signature().Results()
	returned := func(i int) ([]ast.Expr, bool) { return flow.ReturnedAt(fi.fn.Body, results.Len(), i) }
	var s Summary
	s.Reports = firstResult(results, isBool, func(i int) *Guard {
		vals, all := returned(i)
		g, found := xnackOn, false
		for _, v := range vals {
			if !flow.IsConstFalse(a.info, v) {
				found, g = true, g.weaker(a.implies(v, true, a.guards.Start()))
			}
		}
		if !all || !found || g.kind == noGuard {
			return nil
		}
		return &Guard{Result: i, HMM: g.kind == hmmCheck, Checks: g.name}
	})
	s.Memory = firstResult(results, flow.IsRawPointer, func(i int) *Memory {
		vals, _ := returned(i)
		for _, v := range vals {
			if p := a.provs.Of(v); p != "" {
				return &Memory{Result: i, From: p}
			}
		}
		return nil
	})
	s.Args = firstResult(results, flow.IsArgArrayType, func(i int) *KernelArgs {
		var params []int
		vals, _ := returned(i)
		for _, v := range vals {
			for _, v := range a.kargs.Carried(v, false) {
				if r, ok := a.paramOf(fi, v.Value); ok && r.Path == "" && r.Param >= 0 {
					params = append(params, r.Param)
				}
			}
		}
		if len(params) == 0 {
			return nil
		}
		slices.Sort(params)
		return &KernelArgs{Result: i, Params: slices.Compact(params)}
	})
	return s
}

// calleeOf is what the call or literal of ev does (for a literal: its
// Params are those of the declaration it is written in, which it
// captures).
func (a *analyzer) calleeOf(ev event) Summary {
	if ev.own != nil {
		return *ev.own
	}
	// The zero summary but for calls.
	return a.sums.Get(ev.callee)
}

// summarizeUses computes, callees first, every function's effects (whether
// it may initialize HIP or set HSA_XNACK, flow-insensitively), whether it
// returns only with XNACK on, which unguarded memory uses it reaches, and
// which of its parameters reach the GPU. A declaration's literals are
// analyzed with it, innermost first: they run where they are written (or
// are goroutines and deferred calls of it).
func (a *analyzer) summarizeUses() {
	lits, orphans := litsByDecl(a.idx.Funcs())
	analyzeLits := func(fis []*ast.FuncLit) {
		for _, lit := range slices.Backward(fis) {
			a.summarize(a.byNode[lit])
		}
	}
	flow.Summaries[Summary]{
		Pass: a.pass, Index: a.idx, Impls: a.impls,
		Analyze: func(fn flow.Func) Summary {
			analyzeLits(lits[fn.Decl])
			return a.summarize(a.byNode[fn.Node()])
		},
		Update: a.sums.Set,
	}.Solve(a.idx.Funcs())
	analyzeLits(orphans)
}

// summarize analyzes fi once with the summaries known so far.
func (a *analyzer) summarize(fi *fnInfo) Summary {
	// The first solve's results are kept.
	res, _ := a.sums.Local(fi.obj)
	s := Summary{Reports: res.Reports, Memory: res.Memory, Args: res.Args}
	for _, evs := range fi.events {
		for _, ev := range evs {
			c := a.calleeOf(ev)
			s.Runtime = s.Runtime || c.Runtime
			s.Env = s.Env || c.Env
		}
	}
	fi.sum = s // the effects hold during the walk (recursion)
	r := a.walk(fi, state{}, false)
	s.Guards = fi.obj != nil && r.sawExit && r.exit.guarded
	s.Needs = firstUses(r.unguarded)
	// The first site's flow of each parameter, sorted (compareParams).
	s.Params = sortedSet(r.params, compareParams)
	s.ErrGuard = a.findErrGuard(fi, r)
	fi.sum = s
	return s
}

// firstUses keeps the first use of each kind, system memory first.
func firstUses(xs []Need) []Need {
	var out []Need
	for _, system := range []bool{true, false} {
		if i := slices.IndexFunc(xs, func(x Need) bool { return x.System == system }); i >= 0 {
			out = append(out, xs[i])
		}
	}
	return out
}

// importNeeds places the uses an imported function reaches at its
// declaration: facts carry no positions.
func importNeeds(fn *types.Func, s *Summary) {
	for i := range s.Needs {
		s.Needs[i].pos = fn.Pos()
	}
}
