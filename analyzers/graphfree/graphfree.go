package graphfree

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
)

var (
	NotGraphMemory = diag.Check{ID: "HL3001", Analyzer: "graphfree", Severity: diag.Error,
		Title: "graph free node on memory that is not a graph allocation"}
	StreamOrderedOutsideCapture = diag.Check{ID: "HL3002", Analyzer: "graphfree", Severity: diag.Error,
		Title: "graph free node on stream-ordered memory allocated outside stream capture"}
	MissingDependency = diag.Check{ID: "HL3003", Analyzer: "graphfree", Severity: diag.Error,
		Title: "graph free node does not depend on every node that uses the memory"}
	DoubleFree = diag.Check{ID: "HL3004", Analyzer: "graphfree", Severity: diag.Error,
		Title: "graph allocation freed twice"}
)

// Checks lists the check IDs this analyzer reports.
var Checks = []diag.Check{NotGraphMemory, StreamOrderedOutsideCapture, MissingDependency, DoubleFree}

var Analyzer = &analysis.Analyzer{
	Name:      "graphfree",
	Doc:       doc,
	URL:       diag.DocsBase + "HL3001.md",
	Run:       run,
	FactTypes: []analysis.Fact{new(ReturnsMemory), new(FreesParam), new(CapturesStream)},
	Requires:  []*analysis.Analyzer{flow.IndexAnalyzer, flow.Getters},
}

const doc = `check that graph free nodes free graph allocations, after their last user, once

A graph mem-free node (hipGraphAddMemFreeNode, cudaGraphAddMemFreeNode,
cuGraphAddMemFreeNode) may only free a graph allocation: params.dptr of an
alloc node, or hipMallocAsync memory allocated under stream capture. Reports
HL3001 (plain, managed, host, C or Go memory), HL3002 (stream-ordered memory
allocated outside capture), HL3003 (free node not ordered after a node that
uses the memory) and HL3004 (graph allocation freed twice).`

// Kind is what kind of memory an allocation site produces.
type Kind uint8

const (
	KindUnknown       Kind = iota
	KindDevice             // hipMalloc, hipExtMallocWithFlags, hipMallocPitch
	KindManaged            // hipMallocManaged
	KindHostPinned         // hipHostMalloc
	KindStreamOrdered      // hipMallocAsync outside capture
	KindPool               // hipMallocFromPoolAsync outside capture
	KindGraph              // params.dptr of an alloc node
	KindCaptured           // stream-ordered allocation under stream capture
	KindMaybeCaptured      // stream-ordered allocation captured on some paths only
	KindCHeap              // C.malloc, C.calloc, C.CString
	KindGo                 // Go memory
)

// class is what a free node on memory of a kind is.
type class uint8

const (
	notGraphClass class = iota // never valid (HL3001)
	streamClass                // stream-ordered outside capture (HL3002)
	graphClass                 // a graph allocation: valid once
	unknownClass
)

type kindInfo struct {
	name, memory string
	class        class
	advice       string // what to do instead of a free node (HL3001)
	free         string // the free call advice names (%s), HIP's name
}

// kinds is what the analysis knows of each kind: its name in facts, the
// memory it is in messages, its class, and for memory a free node never
// frees what frees it.
var kinds = [...]kindInfo{
	KindUnknown:       {"unknown", "graph memory", unknownClass, "", ""},
	KindDevice:        {"device", "device memory", notGraphClass, advise, "hipFree"},
	KindManaged:       {"managed", "managed memory", notGraphClass, advise, "hipFree"},
	KindHostPinned:    {"pinned-host", "pinned host memory", notGraphClass, "free it with %s after the graph has run", "hipHostFree"},
	KindStreamOrdered: {"stream-ordered", "stream-ordered memory", streamClass, "", ""},
	KindPool:          {"pool", "stream-ordered memory", streamClass, "", ""},
	KindGraph:         {"graph", "graph memory", graphClass, "", ""},
	KindCaptured:      {"captured", "graph memory", graphClass, "", ""},
	KindMaybeCaptured: {"maybe-captured", "graph memory", graphClass, "", ""},
	KindCHeap:         {"c-heap", "C heap memory", notGraphClass, "free it with C.free after the graph has run", ""},
	KindGo:            {"go", "Go memory", notGraphClass, "Go memory belongs to the garbage collector; pass a graph allocation", ""},
}

const advise = "free it with %s after the graph has run, or allocate it with an alloc node"

// info is k's row of kinds (KindUnknown's for a kind out of range).
func (k Kind) info() kindInfo {
	if int(k) < len(kinds) {
		return kinds[k]
	}
	return kinds[KindUnknown]
}

func (k Kind) String() string { return k.info().name }
func (k Kind) class() class   { return k.info().class }

// allocKinds is the kind of memory each allocation call of the model makes
// (KindUnknown if none).
var allocKinds = map[hipapi.AllocKind]Kind{hipapi.Device: KindDevice, hipapi.Managed: KindManaged,
	hipapi.HostPinned: KindHostPinned, hipapi.StreamOrdered: KindStreamOrdered, hipapi.Pool: KindPool, hipapi.Graph: KindGraph}

// ReturnedAlloc is one allocation a function returns: result Result, at Path
// inside it ("" for the value itself, ".ptr" for a field, "[]" for elements).
type ReturnedAlloc struct {
	Result int
	Path   string
	Kind   Kind
	API    string // the runtime call that allocated it
}

// ReturnsMemory is the fact that a function returns memory of a known kind.
type ReturnsMemory struct{ Allocs []ReturnedAlloc }

func (*ReturnsMemory) AFact() {}
func (f *ReturnsMemory) String() string {
	parts := make([]string, len(f.Allocs))
	for i, a := range f.Allocs {
		parts[i] = fmt.Sprintf("%d%s=%s:%s", a.Result, a.Path, a.Kind, a.API)
	}
	return "returnsMemory[" + strings.Join(parts, " ") + "]"
}

// ParamPath names what a parameter (flow.Receiver: the receiver) holds at
// a path: summaries and facts name parameters with flow.Ref.
type ParamPath = flow.Ref

// refStrings writes Refs as the facts always have, each after prefix:
// "-1.ptr", "2".
func refStrings(ps []ParamPath, prefix string) []string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%s%d%s", prefix, p.Param, p.Path)
	}
	return parts
}

// FreesParam is the fact that a function adds a graph free node for memory
// passed in its parameters (Params), or frees such memory with
// hipFree/hipFreeAsync on every path that returns (Host: a Release method).
type FreesParam struct{ Params, Host []ParamPath }

func (*FreesParam) AFact() {}
func (f *FreesParam) String() string {
	parts := append(refStrings(f.Params, ""), refStrings(f.Host, "host:")...)
	return "freesParam[" + strings.Join(parts, " ") + "]"
}

// CapturesStream is the fact that a function begins (or ends) stream capture
// on streams passed in its parameters: func (s *Stream) BeginCapture() error.
type CapturesStream struct{ Begins, Ends []ParamPath }

func (*CapturesStream) AFact() {}
func (f *CapturesStream) String() string {
	return "capturesStream(begins[" + strings.Join(refStrings(f.Begins, ""), " ") + "] ends[" + strings.Join(refStrings(f.Ends, ""), " ") + "])"
}

// Candidates is graphfree in candidate mode, for hiplint confirm: it reports
// every free node (HL3001) whatever memory it frees, so that confirm can also
// judge the free nodes the analyzer found correct (the fixed twins). It is
// never part of the lint suite.
var Candidates = &analysis.Analyzer{
	Name:      Analyzer.Name,
	Doc:       "graphfree in candidate mode (hiplint confirm only): every free node",
	Run:       func(pass *analysis.Pass) (any, error) { return analyze(pass, true) },
	FactTypes: Analyzer.FactTypes,
	Requires:  Analyzer.Requires,
}

func run(pass *analysis.Pass) (any, error) { return analyze(pass, false) }

type analyzer struct {
	// enter and match are relevant's hooks for FirstCall, made once, not
	// at each of its calls (every function, every round).
	enter func(*ast.FuncLit) bool
	match func(*ast.CallExpr) bool

	pass       *analysis.Pass
	candidates bool // Candidates: report every free node
	returns    *flow.Table[ReturnsMemory, *ReturnsMemory]
	frees      *flow.Table[FreesParam, *FreesParam]
	captures   *flow.Table[CapturesStream, *CapturesStream]
	idx        *flow.Index               // functions, runtime calls, closures that run in place (ctx.Do(func() error {...}))
	lc         flow.Locator              // every variable, elements "[]"
	fields     map[*types.Var]fieldAlloc // fields that always hold one kind of allocation, made on first use
	srcs       *flow.Sources             // the package's value flow (sends, iterators), made on first use
	// reportedAt: the findings reported, by check and position: a
	// closure that runs in the function writing it (a stored, deferred or
	// goroutine closure) is analyzed there and as a function of its own.
	reportedAt map[reportKey]bool
}

type reportKey struct {
	id  string
	pos token.Pos
}

// sources is the package's flow-insensitive index, made once.
func (a *analyzer) sources() *flow.Sources {
	if a.srcs == nil {
		a.srcs = a.idx.SharedSources()
	}
	return a.srcs
}

func analyze(pass *analysis.Pass, candidates bool) (any, error) {
	if !flow.IsInvolved(pass) {
		return nil, nil
	}
	impls := flow.NewImpls(pass)
	a := &analyzer{
		pass:       pass,
		candidates: candidates,
		returns:    flow.NewTable[ReturnsMemory](pass, impls),
		frees:      flow.NewTable[FreesParam](pass, impls),
		captures:   flow.NewTable[CapturesStream](pass, impls),
		idx:        flow.IndexOf(pass),
		lc:         flow.Locator{Info: pass.TypesInfo},
	}
	a.returns.Meet = meetReturns
	a.frees.Meet = meetFrees
	funcs := a.idx.Funcs()
	sums := flow.Summaries[*funcAnalysis]{
		Pass: pass, Index: a.idx, Impls: impls, Relevant: a.relevant,
		// What package variables and fields a function frees were given
		// elsewhere (globalValue): the allocators called there.
		Deps: func(fn flow.Func) []*types.Func {
			return a.idx.StoreDeps(pass.Pkg, a.sources(), fn.Body)
		},
		Analyze: func(fn flow.Func) *funcAnalysis {
			fa := newFuncAnalysis(a, fn)
			fa.solve()
			return fa
		},
		Update: a.update,
	}
	final, ok := sums.Solve(funcs)
	objs := flow.Objects(pass.TypesInfo, funcs)
	a.returns.Export(objs)
	a.frees.Export(objs)
	a.captures.Export(objs)
	sums.Report(funcs, final, ok, func(_ flow.Func, fa *funcAnalysis) { fa.report() })
	return nil, nil
}

// update records one analysis's summaries of obj and reports whether they
// changed.
func (a *analyzer) update(obj *types.Func, fa *funcAnalysis) bool {
	if obj == nil {
		return false
	}
	slices.SortFunc(fa.returned, compareReturned)
	begins, ends := fa.captureSummary()
	slices.SortFunc(fa.freedParams, flow.CompareRef)
	slices.SortFunc(begins, flow.CompareRef)
	slices.SortFunc(ends, flow.CompareRef)
	r := a.returns.Set(obj, ReturnsMemory{Allocs: fa.returned})
	f := a.frees.Set(obj, FreesParam{Params: fa.freedParams, Host: fa.hostFreed})
	c := a.captures.Set(obj, CapturesStream{Begins: begins, Ends: ends})
	return r || f || c
}

// meetReturns is what a call through an interface method returns: at each
// result and path where every implementation returns memory of the same
// class (never a graph allocation, stream-ordered, or a graph allocation),
// all of it; a position where implementations differ is unknown.
func meetReturns(impls []ReturnsMemory) ReturnsMemory {
	out := meetGroups(impls, func(f ReturnsMemory) []ReturnedAlloc { return f.Allocs },
		func(r ReturnedAlloc) flow.Ref { return flow.Ref{Param: r.Result, Path: r.Path} },
		func(rs []ReturnedAlloc) bool {
			return !slices.ContainsFunc(rs, func(r ReturnedAlloc) bool { return r.Kind.class() != rs[0].Kind.class() })
		})
	slices.SortFunc(out, compareReturned)
	return ReturnsMemory{Allocs: out}
}

// compareReturned orders a summary's allocations: by result and path, HIP's
// name first in messages, then the CUDA runtime's and the driver's.
func compareReturned(x, y ReturnedAlloc) int {
	return cmp.Or(cmp.Compare(x.Result, y.Result), strings.Compare(x.Path, y.Path),
		cmp.Compare(hipapi.FamilyOf(x.API), hipapi.FamilyOf(y.API)), strings.Compare(x.API, y.API),
		cmp.Compare(x.Kind, y.Kind))
}

// meetFrees is what every implementation of an interface method frees, for
// the parameters (not the receiver, which each implementation owns).
func meetFrees(impls []FreesParam) FreesParam {
	notRecv := func(p ParamPath) bool { return p.Param >= 0 }
	return FreesParam{Params: flow.MeetLists(impls, func(f FreesParam) []ParamPath { return f.Params }, notRecv),
		Host: flow.MeetLists(impls, func(f FreesParam) []ParamPath { return f.Host }, notRecv)}
}

// relevantRoles are the runtime calls that make a function worth analyzing.
var relevantRoles = []hipapi.Role{hipapi.Alloc, hipapi.Free, hipapi.GraphAllocNode, hipapi.GraphFreeNode,
	hipapi.CaptureBegin, hipapi.CaptureEnd}

// relevant reports whether fn makes a call the analysis models, so that
// other functions cost nothing more.
func (a *analyzer) relevant(fn flow.Func) bool {
	if a.match == nil {
		a.enter = a.idx.InPlaceOrWrapper
		a.match = func(call *ast.CallExpr) bool {
			if c := a.idx.Match(call); c != nil {
				return slices.Contains(relevantRoles, c.Func.Role)
			}
			if cgocall.IsCHeapAlloc(a.pass.TypesInfo, call) {
				return true
			}
			callee := a.idx.Callee(call)
			_, frees := a.frees.Of(callee)
			_, returns := a.returns.Of(callee)
			return frees || returns || a.idx.StoredLit(call) != nil
		}
	}
	return a.idx.FirstCall(fn.Body, a.enter, a.match) != nil
}
