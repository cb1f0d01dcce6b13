package driver

import (
	"go/types"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"

	"github.com/hiplint/hiplint/internal/cgocall"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// Memory during analysis (docs/performance.md, issue 9).
//
// After packages.Load, the live heap is the syntax and type information of
// every loaded package, and the process has already grown to what loading
// needed. The analyzers add little live data, but they allocate a lot of
// short-lived state (dataflow states, control-flow graphs), and with the
// default pacing (GOGC=100) the heap then grows to twice the live heap before
// the garbage collector runs: far beyond what loading needed. Two things keep
// the analysis phase within the memory loading already took:
//
//   - a releaser drops each package's syntax trees and types.Info once every
//     analyzer has finished with it (the syntax of the initial packages
//     stays: the driver reads their comments for the suppression directives),
//     so the live heap shrinks as the analysis proceeds;
//   - a soft memory limit (debug.SetMemoryLimit) a tenth above the memory the
//     process holds when the analysis starts, so that the collector runs
//     when the heap would outgrow that instead of at twice the live heap.
//     After every collection it is raised to at least 1.25 times the live
//     heap (plus the runtime's other memory), so that analyzers that keep a
//     lot live make the collector run at most as often as GOGC=25 would,
//     never continuously.
//
// Measured on the generated HIP-heavy module (bench/run.sh): peak RSS 1.6×
// the no-op floor before, 1.1× after. The analysis then has three collections
// instead of one, on a live heap the releaser has made smaller; with the
// clones flow.Solve no longer makes, the total CPU is lower than before. The
// releaser alone does not lower the peak (the collector's goal stays twice
// the live heap of the end of loading), and the limit alone doubles the GC's
// CPU (every collection marks the whole loaded program).

// A releaser frees the syntax and type information of a package when the last
// action of the analysis graph on it has run.
type releaser struct {
	byTypes map[*types.Package]*releasable
}

type releasable struct {
	pkg     *packages.Package
	root    bool         // an initial package: its syntax is kept
	pending atomic.Int32 // actions on pkg that have not finished yet
	// held are the results of pkg's actions that hold its syntax or type
	// information (flow.Index): the checker keeps every result until the
	// end, so the last action releases them.
	mu   sync.Mutex
	held []interface{ Release() }
}

// newReleaser counts the actions that checker.Analyze(analyzers, roots) will
// run on each package. It builds the same graph as checker.Analyze: an
// action for each analyzer on each root, for each analyzer it requires on
// the same package, and, for an analyzer with facts, for the same analyzer
// on each imported package. Analyzers that guard copied count the same, since
// the copies mirror Requires and FactTypes.
//
// An action whose Run is never called (a prerequisite failed, the package
// did not type-check) leaves its package's count above zero: that package is
// never released, which is safe.
func newReleaser(analyzers []*analysis.Analyzer, roots []*packages.Package) *releaser {
	r := &releaser{byTypes: make(map[*types.Package]*releasable)}
	type key struct {
		a   *analysis.Analyzer
		pkg *packages.Package
	}
	seen := make(map[key]bool)
	count := make(map[*packages.Package]int32)
	var visit func(a *analysis.Analyzer, pkg *packages.Package)
	visit = func(a *analysis.Analyzer, pkg *packages.Package) {
		k := key{a, pkg}
		if seen[k] {
			return
		}
		seen[k] = true
		count[pkg]++
		for _, req := range a.Requires {
			visit(req, pkg)
		}
		if len(a.FactTypes) > 0 {
			for _, imp := range pkg.Imports {
				visit(a, imp)
			}
		}
	}
	for _, a := range analyzers {
		for _, pkg := range roots {
			visit(a, pkg)
		}
	}
	isRoot := make(map[*packages.Package]bool, len(roots))
	for _, pkg := range roots {
		isRoot[pkg] = true
	}
	for pkg, n := range count {
		if pkg.Types == nil || r.byTypes[pkg.Types] != nil {
			continue // cannot be told apart by pass.Pkg: never released
		}
		rp := &releasable{pkg: pkg, root: isRoot[pkg]}
		rp.pending.Store(n)
		r.byTypes[pkg.Types] = rp
	}
	return r
}

// releaseInert frees, before the analysis starts, the syntax and type
// information of the dependencies that hiplint's analyzers will not read:
// those whose imports, all the way down, include no package that calls the
// GPU runtime. Such a package neither calls the runtime nor can see a fact
// (facts start at packages that call it), so every analyzer of the suite
// leaves it at once, by the fast path (cgocall.CallsRuntime, no facts), and
// reads only its types.Package. On a module's dependencies (the standard
// library, most third-party code) that is most of what loading keeps live,
// and each collection during the analysis no longer marks it: the releaser
// would free it only once their actions ran, after the first collection.
// Of an inert initial package only the types.Info goes: the driver reads the
// syntax's comments for the suppression directives. On std, where every
// package is an initial one, that is about a third of what loading keeps.
// It returns how many packages it freed memory of.
//
// A package of involved (a dependency whose cached facts are replayed,
// facts.go, loaded from export data, where CallsRuntime cannot see cgo's
// unexported declarations) is not inert, nor is any package importing it.
func releaseInert(roots []*packages.Package, involved map[*packages.Package]bool) int {
	inert := map[*packages.Package]bool{}
	isRoot := map[*packages.Package]bool{}
	for _, p := range roots {
		isRoot[p] = true
	}
	n := 0
	packages.Visit(roots, nil, func(p *packages.Package) { // imports first
		ok := p.Types != nil && !involved[p] && !cgocall.CallsRuntime(p.Types)
		for _, imp := range p.Imports {
			ok = ok && inert[imp]
		}
		inert[p] = ok
		switch {
		case !ok:
		case isRoot[p] && p.TypesInfo != nil:
			p.TypesInfo = nil // its syntax stays, for the directives
			n++
		case !isRoot[p] && (p.Syntax != nil || p.TypesInfo != nil):
			p.Syntax, p.TypesInfo = nil, nil
			n++
		}
	})
	return n
}

// done is called when an action's Run has returned (or panicked): its pass
// lets go of the syntax and type information, and the last action on a
// package drops them from the package and releases the results that hold
// them. The checker keeps every pass and result until the end of the
// analysis, so all of that is needed for the memory to be freed.
func (r *releaser) done(pass *analysis.Pass, result any) {
	rp := r.byTypes[pass.Pkg]
	if rp == nil {
		return
	}
	if h, ok := result.(interface{ Release() }); ok {
		rp.mu.Lock()
		rp.held = append(rp.held, h)
		rp.mu.Unlock()
	}
	if !rp.root {
		pass.Files = nil
	}
	pass.TypesInfo = nil
	pass.ResultOf = nil
	if rp.pending.Add(-1) == 0 {
		rp.mu.Lock()
		for _, h := range rp.held {
			h.Release()
		}
		rp.held = nil
		rp.mu.Unlock()
		rp.pkg.TypesInfo = nil
		if !rp.root {
			rp.pkg.Syntax = nil
		}
	}
}

// limitAnalysisMemory sets a soft memory limit for the analysis phase: the
// memory the Go runtime holds now (what loading took) plus a tenth, raised
// after each collection to at least 1.25 times the live heap plus the
// runtime's other memory. A lower limit set by the user (GOMEMLIMIT) is
// kept. The returned function restores the previous limit.
func limitAnalysisMemory() (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	m := readMemory()
	base := m.held + m.held/10
	if base >= prev {
		return func() {}
	}
	t := &gcTuner{base: base, prev: prev}
	t.set(m)
	t.arm()
	return t.stop
}

// A gcTuner raises the memory limit after each collection when the live heap
// has grown (see limitAnalysisMemory).
type gcTuner struct {
	base, prev int64
	mu         sync.Mutex
	stopped    bool
}

// sentinel is garbage whose finalizer runs after the collection that finds
// it: one per collection, as each finalizer arms the next. (It holds a
// pointer so that it is never a tiny allocation, whose finalizer may not run.)
type sentinel struct {
	_ *byte
	_ [8]byte
}

func (t *gcTuner) arm() {
	runtime.SetFinalizer(new(sentinel), func(*sentinel) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.stopped {
			return
		}
		t.set(readMemory())
		t.arm()
	})
}

func (t *gcTuner) set(m memory) {
	limit := max(t.base, m.live+m.live/4+m.other)
	if limit >= t.prev {
		limit = t.prev
	}
	debug.SetMemoryLimit(limit)
}

func (t *gcTuner) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	debug.SetMemoryLimit(t.prev)
}

// memory is what the Go runtime holds, in bytes.
type memory struct {
	held  int64 // mapped and not returned to the OS: what the memory limit counts
	live  int64 // the heap the last collection found live
	other int64 // held outside heap spans: stacks, GC metadata, profiling, ...
}

var memorySamples = []string{
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
	"/gc/heap/live:bytes",
}

func readMemory() memory {
	s := make([]metrics.Sample, len(memorySamples))
	for i, name := range memorySamples {
		s[i].Name = name
	}
	metrics.Read(s)
	v := make([]int64, len(s))
	for i := range s {
		if s[i].Value.Kind() == metrics.KindUint64 {
			v[i] = int64(min(s[i].Value.Uint64(), math.MaxInt64))
		}
	}
	total, released, objects, unused, free, live := v[0], v[1], v[2], v[3], v[4], v[5]
	return memory{
		held:  total - released,
		live:  live,
		other: max(0, total-released-objects-unused-free),
	}
}
