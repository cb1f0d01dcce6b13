package graphfree

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
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
	FactTypes: []analysis.Fact{new(ReturnsMemory), new(ReturnsParam), new(FreesParam), new(CapturesStream)},
	Requires:  []*analysis.Analyzer{flow.IndexAnalyzer},
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

var kindNames = [...]string{
	KindUnknown: "unknown", KindDevice: "device", KindManaged: "managed", KindHostPinned: "pinned-host",
	KindStreamOrdered: "stream-ordered", KindPool: "pool", KindGraph: "graph", KindCaptured: "captured",
	KindMaybeCaptured: "maybe-captured", KindCHeap: "c-heap", KindGo: "go",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// describe says what the memory is, for messages.
func (k Kind) describe() string {
	switch k {
	case KindDevice:
		return "device memory"
	case KindManaged:
		return "managed memory"
	case KindHostPinned:
		return "pinned host memory"
	case KindCHeap:
		return "C heap memory"
	case KindGo:
		return "Go memory"
	case KindStreamOrdered, KindPool:
		return "stream-ordered memory"
	}
	return "graph memory"
}

// notGraph reports whether a free node on memory of kind k is always wrong (HL3001).
func (k Kind) notGraph() bool {
	switch k {
	case KindDevice, KindManaged, KindHostPinned, KindCHeap, KindGo:
		return true
	}
	return false
}

// graphOwned reports whether memory of kind k may be freed by a free node.
func (k Kind) graphOwned() bool {
	return k == KindGraph || k == KindCaptured || k == KindMaybeCaptured
}

func kindOfAlloc(k hipapi.AllocKind) Kind {
	switch k {
	case hipapi.Device:
		return KindDevice
	case hipapi.Managed:
		return KindManaged
	case hipapi.HostPinned:
		return KindHostPinned
	case hipapi.StreamOrdered:
		return KindStreamOrdered
	case hipapi.Pool:
		return KindPool
	case hipapi.Graph:
		return KindGraph
	}
	return KindUnknown
}

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

// ReturnsParam is the fact that a function returns (as result Result) what
// parameter Param (-1: the receiver) holds at Path: a getter such as
// func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }.
type ReturnsParam struct {
	Result, Param int
	Path          string
}

func (*ReturnsParam) AFact() {}
func (f *ReturnsParam) String() string {
	return fmt.Sprintf("returnsParam(%d=%d%s)", f.Result, f.Param, f.Path)
}

// ParamPath names what a parameter (-1: the receiver) holds at Path.
type ParamPath struct {
	Param int
	Path  string
}

func (p ParamPath) String() string { return fmt.Sprintf("%d%s", p.Param, p.Path) }

func joinParamPaths(ps []ParamPath) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.String()
	}
	return strings.Join(parts, " ")
}

func sortParamPaths(ps []ParamPath) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Param != ps[j].Param {
			return ps[i].Param < ps[j].Param
		}
		return ps[i].Path < ps[j].Path
	})
}

// FreesParam is the fact that a function adds a graph free node for memory
// passed in its parameters (Params), or frees such memory with
// hipFree/hipFreeAsync on every path that returns (Host: a Release method).
type FreesParam struct{ Params, Host []ParamPath }

func (*FreesParam) AFact() {}
func (f *FreesParam) String() string {
	parts := []string{}
	if len(f.Params) > 0 {
		parts = append(parts, joinParamPaths(f.Params))
	}
	for _, p := range f.Host {
		parts = append(parts, "host:"+p.String())
	}
	return "freesParam[" + strings.Join(parts, " ") + "]"
}

// CapturesStream is the fact that a function begins (or ends) stream capture
// on streams passed in its parameters: func (s *Stream) BeginCapture() error.
type CapturesStream struct{ Begins, Ends []ParamPath }

func (*CapturesStream) AFact() {}
func (f *CapturesStream) String() string {
	return "capturesStream(begins[" + joinParamPaths(f.Begins) + "] ends[" + joinParamPaths(f.Ends) + "])"
}

// maxSummaryRounds bounds the fixpoint over this package's summaries.
const maxSummaryRounds = 6

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

func analyze(pass *analysis.Pass, candidates bool) (any, error) {
	if !cgocall.CallsRuntime(pass.Pkg) && len(pass.AllObjectFacts()) == 0 {
		return nil, nil
	}
	a := &analyzer{
		pass:       pass,
		candidates: candidates,
		returns:    map[*types.Func][]ReturnedAlloc{},
		getters:    map[*types.Func]ReturnsParam{},
		frees:      map[*types.Func][]ParamPath{},
		begins:     map[*types.Func][]ParamPath{},
		ends:       map[*types.Func][]ParamPath{},
		hostFrees:  map[*types.Func][]ParamPath{},
		impls:      flow.NewImpls(pass),
		idx:        flow.IndexOf(pass),
	}
	funcs := a.idx.Funcs()
	for _, fn := range funcs {
		a.findGetter(fn)
	}
	final := a.summarize(funcs)
	a.exportFacts()
	for i, fn := range funcs {
		// A closure that runs in place is analyzed as part of its caller.
		if fn.Lit != nil && a.idx.InPlace(fn.Lit) {
			continue
		}
		fa, in := final[i].fa, final[i].in
		if fa == nil {
			if !a.relevant(fn) {
				continue
			}
			fa = newFuncAnalysis(a, fn)
			in = fa.solve()
		}
		fa.replay(in)
		fa.checkDependencies()
	}
	return nil, nil
}

// solved is a function's analysis and the solution it reached.
type solved struct {
	fa *funcAnalysis
	in map[*cfg.Block]*state
}

// summarize computes the summaries of the package's declared functions to a
// fixpoint. A summary depends on facts, which are fixed, and on the summaries
// of the package's functions the body refers to, so a function is analyzed
// again only when one of those changed. It returns, by index in funcs, each
// function's last analysis where nothing it depends on changed after it: the
// reporting walk (replay) can start from its solution instead of solving
// again.
func (a *analyzer) summarize(funcs []flow.Func) []solved {
	info := a.pass.TypesInfo
	callers := map[*types.Func][]int{}
	dirty := make([]bool, len(funcs))
	for i, fn := range funcs {
		if fn.Decl == nil {
			continue
		}
		dirty[i] = true
		for callee := range flow.LocalRefs(a.pass, a.idx, a.impls, fn.Body) {
			callers[callee] = append(callers[callee], i)
		}
	}
	last := make([]solved, len(funcs))
	for range maxSummaryRounds {
		changed := false
		for i, fn := range funcs {
			if !dirty[i] {
				continue
			}
			dirty[i] = false
			if !a.relevant(fn) {
				last[i] = solved{} // an earlier analysis no longer stands
				continue
			}
			fa := newFuncAnalysis(a, fn)
			in := fa.solve()
			fa.collectHostFrees(in)
			last[i] = solved{fa, in}
			if obj := fn.Object(info); a.updateSummary(obj, fa) {
				changed = true
				for _, j := range callers[obj] {
					dirty[j] = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for i := range last {
		if dirty[i] {
			last[i] = solved{} // the rounds ran out: analyzed again to report
		}
	}
	return last
}

type analyzer struct {
	pass       *analysis.Pass
	candidates bool                            // Candidates: report every free node
	returns    map[*types.Func][]ReturnedAlloc // this package's allocating functions
	getters    map[*types.Func]ReturnsParam    // this package's getters
	frees      map[*types.Func][]ParamPath     // this package's free-node wrappers
	begins     map[*types.Func][]ParamPath     // this package's capture wrappers
	ends       map[*types.Func][]ParamPath
	hostFrees  map[*types.Func][]ParamPath // this package's functions that hipFree a parameter
	impls      *flow.Impls                 // implementations behind interface calls
	idx        *flow.Index                 // functions, runtime calls, closures that run in place (ctx.Do(func() error {...}))
	fields     map[*types.Var]fieldAlloc   // fields that always hold one kind of allocation, made on first use
}

func (a *analyzer) callee(call *ast.CallExpr) *types.Func {
	return flow.Callee(a.pass.TypesInfo, call)
}

func (a *analyzer) returnsMemory(fn *types.Func) []ReturnedAlloc {
	if fn == nil {
		return nil
	}
	if impls := a.impls.Of(fn); impls != nil {
		return a.interfaceReturns(impls)
	}
	if fn.Pkg() == a.pass.Pkg {
		return a.returns[fn.Origin()]
	}
	var f ReturnsMemory
	if flow.ImportedFact(a.pass, fn, &f) {
		return f.Allocs
	}
	return nil
}

func (a *analyzer) getter(fn *types.Func) (ReturnsParam, bool) {
	if fn == nil {
		return ReturnsParam{}, false
	}
	if fn.Pkg() == a.pass.Pkg {
		g, ok := a.getters[fn.Origin()]
		return g, ok
	}
	var f ReturnsParam
	if flow.ImportedFact(a.pass, fn, &f) {
		return f, true
	}
	return ReturnsParam{}, false
}

// captures returns the parameters whose streams fn begins and ends capturing.
func (a *analyzer) captures(fn *types.Func) (begins, ends []ParamPath) {
	if fn == nil {
		return nil, nil
	}
	if fn.Pkg() == a.pass.Pkg {
		return a.begins[fn.Origin()], a.ends[fn.Origin()]
	}
	var f CapturesStream
	if flow.ImportedFact(a.pass, fn, &f) {
		return f.Begins, f.Ends
	}
	return nil, nil
}

func (a *analyzer) freesParams(fn *types.Func) []ParamPath {
	nodes, _ := a.freesOf(fn)
	return nodes
}

// freesOf returns the parameters fn adds free nodes for, and those it frees
// with hipFree/hipFreeAsync on every path.
func (a *analyzer) freesOf(fn *types.Func) (nodes, host []ParamPath) {
	if fn == nil {
		return nil, nil
	}
	if impls := a.impls.Of(fn); impls != nil {
		return a.interfaceFrees(impls)
	}
	if fn.Pkg() == a.pass.Pkg {
		return a.frees[fn.Origin()], a.hostFrees[fn.Origin()]
	}
	var f FreesParam
	if flow.ImportedFact(a.pass, fn, &f) {
		return f.Params, f.Host
	}
	return nil, nil
}

// interfaceReturns is what a call through an interface method returns:
// at each result and path where every implementation returns memory of the
// same class (never a graph allocation, stream-ordered, or a graph
// allocation), all of it; a position where implementations differ is
// unknown.
func (a *analyzer) interfaceReturns(impls []*types.Func) []ReturnedAlloc {
	type key struct {
		result int
		path   string
	}
	byImpl := make([]map[key][]ReturnedAlloc, len(impls))
	for i, impl := range impls {
		byImpl[i] = map[key][]ReturnedAlloc{}
		for _, r := range a.returnsMemory(impl) {
			k := key{r.Result, r.Path}
			byImpl[i][k] = append(byImpl[i][k], r)
		}
	}
	var out []ReturnedAlloc
	for k, first := range byImpl[0] {
		class := kindClass(first[0].Kind)
		var all []ReturnedAlloc
		for _, m := range byImpl {
			rs, ok := m[k]
			if !ok {
				all = nil
				break
			}
			for _, r := range rs {
				if kindClass(r.Kind) != class {
					class = -1
				}
			}
			all = append(all, rs...)
		}
		if class >= 0 {
			out = append(out, all...)
		}
	}
	// HIP's name first in messages, then the CUDA runtime's and the driver's.
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Result != y.Result || x.Path != y.Path {
			return x.Result < y.Result || x.Result == y.Result && x.Path < y.Path
		}
		if fx, fy := hipapi.FamilyOf(x.API), hipapi.FamilyOf(y.API); fx != fy {
			return fx < fy
		}
		if x.API != y.API {
			return x.API < y.API
		}
		return x.Kind < y.Kind
	})
	return out
}

// kindClass groups kinds by what a free node on them is: never valid (0),
// stream-ordered outside capture (1), a graph allocation (2), unknown (3).
func kindClass(k Kind) int {
	switch {
	case k.notGraph():
		return 0
	case k == KindStreamOrdered || k == KindPool:
		return 1
	case k.graphOwned():
		return 2
	}
	return 3
}

// interfaceFrees is what every implementation of an interface method frees,
// for the parameters (not the receiver, which each implementation owns).
func (a *analyzer) interfaceFrees(impls []*types.Func) (nodes, host []ParamPath) {
	for i, impl := range impls {
		n, h := a.freesOf(impl)
		nodes = intersectParams(nodes, n, i == 0)
		host = intersectParams(host, h, i == 0)
	}
	return nodes, host
}

func intersectParams(have, next []ParamPath, first bool) []ParamPath {
	var out []ParamPath
	for _, p := range next {
		if p.Param >= 0 && (first || slices.Contains(have, p)) {
			out = append(out, p)
		}
	}
	return out
}

// findGetter recognizes a function whose body is `return p.f.g` for a
// parameter or receiver p (conversions allowed).
func (a *analyzer) findGetter(fn flow.Func) {
	obj := fn.Object(a.pass.TypesInfo)
	if obj == nil || len(fn.Body.List) != 1 {
		return
	}
	ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return
	}
	e := flow.StripConversions(a.pass.TypesInfo, ret.Results[0])
	l, ok := locOf(a.pass.TypesInfo, e)
	if !ok || !isPointerish(a.pass.TypesInfo.TypeOf(ret.Results[0])) {
		return
	}
	if i, ok := flow.ParamIndex(obj.Signature(), l.root); ok {
		a.getters[obj] = ReturnsParam{Result: 0, Param: i, Path: l.path}
	}
}

// isPointerish reports whether values of t can hold an address: pointers,
// unsafe.Pointer, uintptr, and C handle typedefs of them.
func isPointerish(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer || u.Kind() == types.Uintptr ||
			u.Kind() == types.Uint64 || u.Kind() == types.Uint
	}
	return false
}

// relevant reports whether fn makes a call the analysis models, so that
// other functions cost nothing more.
func (a *analyzer) relevant(fn flow.Func) bool {
	info := a.pass.TypesInfo
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok {
			return cgocall.IsWrapper(info, lit) || a.idx.InPlace(lit)
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c := a.idx.Match(call); c != nil {
			switch c.Func.Role {
			case hipapi.Alloc, hipapi.Free, hipapi.GraphAllocNode, hipapi.GraphFreeNode,
				hipapi.CaptureBegin, hipapi.CaptureEnd:
				found = true
			}
			return !found
		}
		if cgocall.IsCHeapAlloc(info, call) {
			found = true
			return false
		}
		callee := a.callee(call)
		nodes, host := a.freesOf(callee)
		if len(a.returnsMemory(callee)) > 0 || len(nodes)+len(host) > 0 {
			found = true
		}
		return !found
	})
	return found
}

// updateSummary merges what one analysis of fn found into fn's summaries and
// reports whether they grew.
func (a *analyzer) updateSummary(obj *types.Func, fa *funcAnalysis) bool {
	if obj == nil {
		return false
	}
	changed := false
	for _, r := range fa.returned {
		if !slices.Contains(a.returns[obj], r) {
			a.returns[obj] = append(a.returns[obj], r)
			changed = true
		}
	}
	merge := func(m map[*types.Func][]ParamPath, ps []ParamPath) {
		for _, p := range ps {
			if !slices.Contains(m[obj], p) {
				m[obj] = append(m[obj], p)
				changed = true
			}
		}
	}
	merge(a.frees, fa.freedParams)
	merge(a.hostFrees, fa.hostFreed)
	begins, ends := fa.captureSummary()
	merge(a.begins, begins)
	merge(a.ends, ends)
	return changed
}

func (a *analyzer) exportFacts() {
	for fn, rs := range a.returns {
		sort.Slice(rs, func(i, j int) bool {
			x, y := rs[i], rs[j]
			if x.Result != y.Result {
				return x.Result < y.Result
			}
			if x.Path != y.Path {
				return x.Path < y.Path
			}
			if x.Kind != y.Kind {
				return x.Kind < y.Kind
			}
			return x.API < y.API
		})
		a.pass.ExportObjectFact(fn, &ReturnsMemory{Allocs: rs})
	}
	for fn, g := range a.getters {
		a.pass.ExportObjectFact(fn, &ReturnsParam{Result: g.Result, Param: g.Param, Path: g.Path})
	}
	freeing := map[*types.Func]bool{}
	for fn := range a.frees {
		freeing[fn] = true
	}
	for fn := range a.hostFrees {
		freeing[fn] = true
	}
	for fn := range freeing {
		sortParamPaths(a.frees[fn])
		sortParamPaths(a.hostFrees[fn])
		a.pass.ExportObjectFact(fn, &FreesParam{Params: a.frees[fn], Host: a.hostFrees[fn]})
	}
	captured := map[*types.Func]bool{}
	for fn := range a.begins {
		captured[fn] = true
	}
	for fn := range a.ends {
		captured[fn] = true
	}
	for fn := range captured {
		sortParamPaths(a.begins[fn])
		sortParamPaths(a.ends[fn])
		a.pass.ExportObjectFact(fn, &CapturesStream{Begins: a.begins[fn], Ends: a.ends[fn]})
	}
}

func isType(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsType()
}

// loc names storage the analysis tracks: a variable and a path inside it
// (".f" fields, "[]" elements of slices, arrays and maps). A pointer and what
// it points to share paths.
type loc struct {
	root types.Object
	path string
}

func (l loc) String() string { return l.root.Name() + l.path }

func (l loc) weak() bool { return strings.Contains(l.path, "[]") }

// under reports whether k is l or inside it.
func (l loc) under(k loc) bool {
	if k.root != l.root || !strings.HasPrefix(k.path, l.path) {
		return false
	}
	rest := k.path[len(l.path):]
	return rest == "" || rest[0] == '.' || rest[0] == '['
}

// locOf returns the storage e denotes, if the analysis can name it.
func locOf(info *types.Info, e ast.Expr) (loc, bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := info.Uses[x]
		if obj == nil {
			obj = info.Defs[x]
		}
		if v, ok := obj.(*types.Var); ok && !v.IsField() {
			return loc{root: v}, true
		}
	case *ast.SelectorExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			if _, isPkg := info.Uses[id].(*types.PkgName); isPkg {
				if v, ok := info.Uses[x.Sel].(*types.Var); ok {
					return loc{root: v}, true
				}
				return loc{}, false
			}
		}
		if sel, ok := info.Selections[x]; ok && sel.Kind() != types.FieldVal {
			return loc{}, false
		}
		if t := info.TypeOf(x.X); t != nil && types.IsInterface(t) {
			return loc{}, false
		}
		base, ok := locOf(info, x.X)
		if !ok {
			return loc{}, false
		}
		return loc{root: base.root, path: base.path + "." + x.Sel.Name}, true
	case *ast.IndexExpr:
		if isType(info, x) {
			return loc{}, false
		}
		base, ok := locOf(info, x.X)
		if !ok {
			return loc{}, false
		}
		return loc{root: base.root, path: base.path + "[]"}, true
	case *ast.StarExpr:
		return locOf(info, x.X)
	}
	return loc{}, false
}
