package memcpysync

import (
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
)

var (
	UnorderedRead = diag.Check{ID: "HL1001", Analyzer: "memcpysync", Severity: diag.Error,
		Title: "destination of a device-to-device copy read before the copy is ordered"}
	UnorderedAsyncRead = diag.Check{ID: "HL1002", Analyzer: "memcpysync", Severity: diag.Error,
		Title: "destination of an asynchronous device-to-device copy read off its stream before it is ordered"}
)

// Checks lists the check IDs this analyzer reports.
var Checks = []diag.Check{UnorderedRead, UnorderedAsyncRead}

var Analyzer = &analysis.Analyzer{
	Name:      "memcpysync",
	Doc:       doc,
	URL:       diag.DocsBase + "HL1001.md",
	Run:       run,
	FactTypes: []analysis.Fact{new(CopiesInto), new(Synchronizes), new(ReadsParams), new(StreamKind), new(ReturnsParam), new(DeviceReads), new(EventOps), new(SetsDevice)},
	Requires:  []*analysis.Analyzer{flow.IndexAnalyzer},
}

const strictFlag = "strict"

func init() {
	Analyzer.Flags.Bool(strictFlag, false,
		"also report reads ordered only by implicit default-stream semantics (blocking streams, the peer destination's null stream, streams of unknown kind)")
}

// ParamCopy is one device-to-device copy a function issues into memory its
// caller passed, and may return before it lands. References to the caller's
// arguments are written "p<i>" (parameter i) or "r" (receiver), optionally
// followed by a field path (".buf").
type ParamCopy struct {
	Dst    string // the destination: "p0", "r.buf"
	Kind   string // "" when the copy is device-to-device regardless; "p3" when the caller's kind decides
	Stream string // "" the null stream; "p4" or "r.stream" a caller's stream; "private" a stream the caller cannot see
	Device string // "" the caller's current device; "c:1" a constant device; "p2" a parameter
	Peer   string // peer copies: the destination device, as Device
	API    string // the runtime function that copies
	Async  bool   // an explicit async form (HL1002)
}

func (c ParamCopy) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s dst=%s", c.API, c.Dst)
	for _, kv := range [][2]string{{"kind", c.Kind}, {"stream", c.Stream}, {"device", c.Device}, {"peer", c.Peer}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%s", kv[0], kv[1])
		}
	}
	return b.String()
}

// CopiesInto is the fact that a function issues device-to-device copies into
// memory its caller passed and can return before they land. Its callers are
// checked as if they made the copies.
type CopiesInto struct{ Copies []ParamCopy }

func (*CopiesInto) AFact() {}
func (f *CopiesInto) String() string {
	parts := make([]string, len(f.Copies))
	for i, c := range f.Copies {
		parts[i] = c.String()
	}
	return "copiesInto(" + strings.Join(parts, "; ") + ")"
}

// Synchronizes is the fact that a function, on every path that returns,
// synchronizes the caller's current device (Device) or the streams passed in
// the listed parameters ("p0", "r.stream"); "null" is the null stream of
// the caller's current device (a blocking device-to-host copy on it).
type Synchronizes struct {
	Device  bool
	Streams []string
}

func (*Synchronizes) AFact() {}
func (f *Synchronizes) String() string {
	var parts []string
	if f.Device {
		parts = append(parts, "device")
	}
	parts = append(parts, f.Streams...)
	return "synchronizes(" + strings.Join(parts, ", ") + ")"
}

// ReadsParams is the fact that a function reads, on the host and without
// synchronizing first, the memory passed in the listed parameters (-1: the
// receiver).
type ReadsParams struct{ Params []int }

func (*ReadsParams) AFact()           {}
func (f *ReadsParams) String() string { return fmt.Sprintf("readsParams%v", f.Params) }

// ReturnsParam is the fact that a function returns what its caller passed
// at Ref ("r.ptr", "p0.buf"): a getter such as
// func (b *Buffer) Ptr() unsafe.Pointer { return b.ptr }, so that copies
// into b.Ptr() and reads of it name the buffer's memory.
type ReturnsParam struct{ Ref string }

func (*ReturnsParam) AFact()           {}
func (f *ReturnsParam) String() string { return "returnsParam(" + f.Ref + ")" }

// StreamKind is the fact that a struct field or package-level variable holds
// streams created with the given flags everywhere in its package.
type StreamKind struct{ NonBlocking bool }

func (*StreamKind) AFact() {}
func (f *StreamKind) String() string {
	if f.NonBlocking {
		return "nonBlockingStream"
	}
	return "blockingStream"
}

// Candidates is memcpysync in candidate mode, for hiplint confirm: it reports
// every read of a device-to-device copy's destination whether or not it is
// ordered after the copy, so that confirm can also judge the reads the
// analyzer found safe (the fixed twins). It is never part of the lint suite.
var Candidates = &analysis.Analyzer{
	Name:      Analyzer.Name,
	Doc:       "memcpysync in candidate mode (hiplint confirm only): every read of a copy's destination, ordered or not",
	Run:       func(pass *analysis.Pass) (any, error) { return analyze(pass, false, true) },
	FactTypes: Analyzer.FactTypes,
	Requires:  Analyzer.Requires,
}

func run(pass *analysis.Pass) (any, error) {
	return analyze(pass, pass.Analyzer.Flags.Lookup(strictFlag).Value.(flag.Getter).Get().(bool), false)
}

func analyze(pass *analysis.Pass, strict, candidates bool) (any, error) {
	if !cgocall.CallsRuntime(pass.Pkg) && len(pass.AllObjectFacts()) == 0 {
		return nil, nil
	}
	c := &checker{
		pass:       pass,
		strict:     strict,
		candidates: candidates,
		copies:     map[*types.Func]*CopiesInto{},
		syncs:      map[*types.Func]*Synchronizes{},
		reads:      map[*types.Func][]int{},
		devReads:   map[*types.Func][]DeviceRead{},
		evOps:      map[*types.Func][]EventOp{},
		setsDev:    map[*types.Func]string{},
		streamVars: map[*types.Var]streamKind{},
		idx:        flow.IndexOf(pass),
		impls:      flow.NewImpls(pass),
		getters:    map[*types.Func]string{},
		funcFields: flow.FuncFields(pass),
	}
	c.findStreamVars()
	funcs := c.idx.Funcs()
	c.findGetters(funcs)
	c.summarize(funcs)
	for _, fn := range funcs {
		// A closure that runs in place is analyzed as part of its caller.
		if fn.Lit != nil && c.idx.InPlace(fn.Lit) {
			continue
		}
		if fa := c.final[fn.Body]; fa != nil {
			fa.reportSolution() // solved with the final summaries: only the reporting walk is left
		} else if c.relevant(fn) {
			newFuncAnalysis(c, fn, true).run()
		}
	}
	return nil, nil
}

type streamKind uint8

const (
	blockingKind    streamKind = 1
	nonBlockingKind streamKind = 2
	mixedKind                  = blockingKind | nonBlockingKind
)

type checker struct {
	pass   *analysis.Pass
	strict bool
	// candidates: report every read of a copy's destination (Candidates).
	candidates bool
	copies     map[*types.Func]*CopiesInto
	syncs      map[*types.Func]*Synchronizes
	reads      map[*types.Func][]int
	devReads   map[*types.Func][]DeviceRead
	evOps      map[*types.Func][]EventOp
	setsDev    map[*types.Func]string // SetDevice wrappers: the device they leave current
	// streamVars holds the fields and package-level variables that streams
	// are created into anywhere in the package, with the flags used.
	streamVars map[*types.Var]streamKind
	// impls finds the implementations behind calls of interface methods.
	impls *flow.Impls
	// idx is the package's index: its functions, its runtime calls, and the
	// closures that run during the call they are passed to
	// (ctx.Do(func() error {...})), which are part of their caller.
	idx     *flow.Index
	getters map[*types.Func]string // this package's getters: what they return
	// funcFields: fields of function type that always hold one function
	// (Ops{sync: d.Synchronize}); calls through them call it.
	funcFields map[*types.Var]*types.Func
	// final holds, after summarize, each declared function's last summary
	// analysis when no summary it depends on changed after it: its solution
	// is the reporting run's, which then only walks it again (reporting).
	final map[*ast.BlockStmt]*funcAnalysis
}

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	return flow.Callee(c.pass.TypesInfo, call)
}

func (c *checker) copiesOf(fn *types.Func) *CopiesInto {
	if fn == nil {
		return nil
	}
	if impls := c.impls.Of(fn); impls != nil {
		return c.interfaceCopies(impls)
	}
	if f, ok := c.copies[fn]; ok {
		return f
	}
	var f CopiesInto
	if flow.ImportedFact(c.pass, fn, &f) {
		return &f
	}
	return nil
}

func (c *checker) syncsOf(fn *types.Func) *Synchronizes {
	if fn == nil {
		return nil
	}
	if impls := c.impls.Of(fn); impls != nil {
		return c.interfaceSyncs(impls)
	}
	if f, ok := c.syncs[fn]; ok {
		return f
	}
	var f Synchronizes
	if flow.ImportedFact(c.pass, fn, &f) {
		return &f
	}
	return nil
}

// getterOf returns what a getter returns of its caller's arguments ("r.ptr"),
// or "".
func (c *checker) getterOf(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	if fn.Pkg() == c.pass.Pkg {
		return c.getters[fn.Origin()]
	}
	var f ReturnsParam
	if flow.ImportedFact(c.pass, fn, &f) {
		return f.Ref
	}
	return ""
}

// findGetters recognizes the functions whose body is `return p.f.g` for a
// parameter or receiver p (conversions allowed) and a result that can hold
// memory, and exports them.
func (c *checker) findGetters(funcs []flow.Func) {
	info := c.pass.TypesInfo
	for _, fn := range funcs {
		obj := fn.Object(info)
		if obj == nil || len(fn.Body.List) != 1 {
			continue
		}
		ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 || obj.Signature().Results().Len() != 1 {
			continue
		}
		t := obj.Signature().Results().At(0).Type()
		_, isSlice := t.Underlying().(*types.Slice)
		if !mayHoldPointer(t) && !isUintptr(t) && !isSlice {
			continue
		}
		var path []string
		e := viewed(info, ret.Results[0])
		for {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if s, ok := info.Selections[sel]; !ok || s.Kind() != types.FieldVal {
				break
			}
			path = append(path, "."+sel.Sel.Name)
			e = ast.Unparen(sel.X)
			if star, ok := e.(*ast.StarExpr); ok {
				e = ast.Unparen(star.X)
			}
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			continue
		}
		i, ok := flow.ParamIndex(obj.Signature(), info.Uses[id])
		if !ok {
			continue
		}
		slices.Reverse(path)
		ref := fmt.Sprintf("p%d", i)
		if i == -1 {
			ref = "r"
		}
		ref += strings.Join(path, "")
		c.getters[obj] = ref
		c.pass.ExportObjectFact(obj, &ReturnsParam{Ref: ref})
	}
}

// viewed returns the pointer a view is made of: e without conversions,
// unsafe.Slice, unsafe.Add and slicing (a Values() accessor returning
// unsafe.Slice((*float32)(b.ptr), b.n) views b.ptr).
func viewed(info *types.Info, e ast.Expr) ast.Expr {
	for range 8 {
		e = flow.StripConversions(info, e)
		switch x := e.(type) {
		case *ast.SliceExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok || len(x.Args) == 0 {
				return e
			}
			if b, ok := info.Uses[sel.Sel].(*types.Builtin); ok && (b.Name() == "Slice" || b.Name() == "Add") {
				e = x.Args[0]
				continue
			}
		}
		return e
	}
	return e
}

func isUintptr(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Uintptr
}

func (c *checker) readsOf(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	if impls := c.impls.Of(fn); impls != nil {
		return c.interfaceReads(impls)
	}
	if ps, ok := c.reads[fn]; ok {
		return ps
	}
	var f ReadsParams
	if flow.ImportedFact(c.pass, fn, &f) {
		return f.Params
	}
	return nil
}

// streamVarKind returns what is known about the streams a field or
// package-level variable holds.
func (c *checker) streamVarKind(v *types.Var) (streamKind, bool) {
	if v == nil {
		return 0, false
	}
	if k, ok := c.streamVars[v]; ok {
		return k, k != mixedKind
	}
	var f StreamKind
	if v.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(v.Origin(), &f) {
		if f.NonBlocking {
			return nonBlockingKind, true
		}
		return blockingKind, true
	}
	return 0, false
}

// findStreamVars records the fields and package-level variables that streams
// are created into, so that `w.stream` is known to be non-blocking in every
// method, and exports what it found.
func (c *checker) findStreamVars() {
	info := c.pass.TypesInfo
	// Every runtime call of the package; the direct calls inside cgo's
	// wrappers take &_cgo0-style temporaries, not &v, and are passed over.
	for _, call := range c.idx.RuntimeCalls() {
		if call.Func.Role != hipapi.StreamCreate {
			continue
		}
		u, ok := ast.Unparen(call.Arg(call.Func.Out)).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			continue
		}
		v := fieldOrGlobal(info, u.X)
		if v == nil || v.Pkg() != c.pass.Pkg {
			continue
		}
		k := blockingKind
		if flags := call.Arg(call.Func.Flags); flags != nil {
			val, ok := cgocall.IntValue(info, flags)
			switch {
			case !ok:
				k = mixedKind
			case val&hipapi.NonBlockingStream != 0:
				k = nonBlockingKind
			}
		}
		c.streamVars[v] |= k
	}
	vars := make([]*types.Var, 0, len(c.streamVars))
	for v := range c.streamVars {
		vars = append(vars, v)
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Pos() < vars[j].Pos() })
	for _, v := range vars {
		if k := c.streamVars[v]; k != mixedKind {
			c.pass.ExportObjectFact(v, &StreamKind{NonBlocking: k == nonBlockingKind})
		}
	}
}

// fieldOrGlobal returns the struct field that e selects, or the
// package-level variable it names.
func fieldOrGlobal(info *types.Info, e ast.Expr) *types.Var {
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
			v, _ := sel.Obj().(*types.Var)
			return v
		}
		// pkg.Var
		if v, ok := info.Uses[x.Sel].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
			return v
		}
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return v
		}
	}
	return nil
}

// summarize computes this package's wrapper summaries to a fixpoint and
// exports them as facts.
func (c *checker) summarize(funcs []flow.Func) {
	info := c.pass.TypesInfo
	// A summary depends on facts, which are fixed, and on the summaries of
	// the package's functions that the body refers to. So after a function
	// is analyzed, it is analyzed again only when one of those changed:
	// re-running every function each round was a third of this analyzer's
	// time (docs/performance.md).
	callers := map[*types.Func][]int{}
	for i, fn := range funcs {
		if fn.Object(info) == nil {
			continue
		}
		for callee := range flow.LocalRefs(c.pass, c.idx, c.impls, fn.Body) {
			callers[callee] = append(callers[callee], i)
		}
		if len(c.funcFields) > 0 {
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if callee := flow.FieldCallee(info, c.funcFields, call); callee != nil {
						callers[callee] = append(callers[callee], i)
					}
				}
				return true
			})
		}
	}
	last := make([]*funcAnalysis, len(funcs))
	dirty := make([]bool, len(funcs))
	for i := range dirty {
		dirty[i] = true
	}
	for round := 0; round < 8; round++ {
		changed := false
		for i, fn := range funcs {
			obj := fn.Object(info)
			if !dirty[i] || obj == nil {
				continue
			}
			dirty[i] = false
			if !c.relevant(fn) {
				last[i] = nil // an earlier analysis no longer stands
				continue
			}
			fa := newFuncAnalysis(c, fn, false)
			fa.run()
			last[i] = fa
			copies, syncs, reads := fa.summary()
			this := false
			if str(copies) != str(c.copies[obj]) {
				c.copies[obj] = copies
				this = true
			}
			if str(syncs) != str(c.syncs[obj]) {
				c.syncs[obj] = syncs
				this = true
			}
			if !slices.Equal(reads, c.reads[obj]) {
				c.reads[obj] = reads
				this = true
			}
			if dr := fa.deviceReadsSummary(); !slices.Equal(dr, c.devReads[obj]) {
				c.devReads[obj] = dr
				this = true
			}
			if ops := fa.eventOpsSummary(); !slices.Equal(ops, c.evOps[obj]) {
				c.evOps[obj] = ops
				this = true
			}
			if d := fa.setsDeviceSummary(); d != c.setsDev[obj] {
				c.setsDev[obj] = d
				this = true
			}
			if this {
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
	// An analysis is final when nothing it depends on changed after it (a
	// function still dirty when the rounds ran out is analyzed again).
	c.final = map[*ast.BlockStmt]*funcAnalysis{}
	for i, fa := range last {
		if fa != nil && !dirty[i] {
			c.final[funcs[i].Body] = fa
		}
	}
	for _, fn := range funcs {
		obj := fn.Object(info)
		if obj == nil {
			continue
		}
		if f := c.copies[obj]; f != nil {
			c.pass.ExportObjectFact(obj, f)
		}
		if f := c.syncs[obj]; f != nil {
			c.pass.ExportObjectFact(obj, f)
		}
		if ps := c.reads[obj]; len(ps) > 0 {
			c.pass.ExportObjectFact(obj, &ReadsParams{Params: ps})
		}
		if rs := c.devReads[obj]; len(rs) > 0 {
			c.pass.ExportObjectFact(obj, &DeviceReads{Reads: rs})
		}
		if ops := c.evOps[obj]; len(ops) > 0 {
			c.pass.ExportObjectFact(obj, &EventOps{Ops: ops})
		}
		if d := c.setsDev[obj]; d != "" {
			c.pass.ExportObjectFact(obj, &SetsDevice{Device: d})
		}
	}
}

func str(f fmt.Stringer) string {
	switch f := f.(type) {
	case *CopiesInto:
		if f == nil {
			return ""
		}
	case *Synchronizes:
		if f == nil {
			return ""
		}
	}
	return f.String()
}

// relevant reports whether fn has anything this check looks at: runtime
// calls, calls of summarized functions, or pointer parameters it may read.
func (c *checker) relevant(fn flow.Func) bool {
	info := c.pass.TypesInfo
	if sig := fn.Signature(info); sig != nil {
		for i := range sig.Params().Len() {
			if mayHoldPointer(sig.Params().At(i).Type()) {
				return true
			}
		}
		if sig.Recv() != nil && mayHoldPointer(sig.Recv().Type()) {
			return true
		}
	}
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok && !cgocall.IsWrapper(info, lit) {
			return c.idx.InPlace(lit)
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c.idx.Match(call) != nil {
			found = true
			return false
		}
		fn := c.callee(call)
		if fn == nil {
			fn = flow.FieldCallee(info, c.funcFields, call)
		}
		found = c.copiesOf(fn) != nil || c.syncsOf(fn) != nil || len(c.readsOf(fn)) > 0 ||
			len(c.deviceReadsOf(fn)) > 0 || len(c.eventOpsOf(fn)) > 0 || c.setsDeviceOf(fn) != ""
		return !found
	})
	return found
}

// mayHoldPointer reports whether a parameter of type t can carry device or
// host memory: unsafe.Pointer, a C pointer or CUdeviceptr, or a struct or
// pointer holding one.
func mayHoldPointer(t types.Type) bool {
	return holdsPointer(t, map[types.Type]bool{})
}

func holdsPointer(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if cgocall.IsCType(t, "CUdeviceptr") || cgocall.IsCType(t, "hipDeviceptr_t") {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Pointer:
		return true
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsPointer(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// interfaceCopies is what a call through an interface method copies: the
// copies every implementation makes (an interface over HIP and CUDA
// implementations), named after the first one in family order. Copies into
// the receiver's fields are dropped: they belong to each implementation.
func (c *checker) interfaceCopies(impls []*types.Func) *CopiesInto {
	var common []ParamCopy
	for i, impl := range impls {
		f := c.copiesOf(impl)
		if f == nil {
			return nil
		}
		var next []ParamCopy
		for _, pc := range f.Copies {
			if refsReceiver(pc.Dst) || refsReceiver(pc.Kind) || refsReceiver(pc.Stream) {
				continue
			}
			if i == 0 {
				next = append(next, pc)
				continue
			}
			for _, q := range common {
				if sameCopy(pc, q) {
					if familyOrder(pc.API) < familyOrder(q.API) {
						q = pc
					}
					next = append(next, q)
					break
				}
			}
		}
		common = next
	}
	if len(common) == 0 {
		return nil
	}
	return &CopiesInto{Copies: common}
}

// interfaceSyncs is what every implementation synchronizes.
func (c *checker) interfaceSyncs(impls []*types.Func) *Synchronizes {
	out := &Synchronizes{Device: true}
	for i, impl := range impls {
		f := c.syncsOf(impl)
		if f == nil {
			return nil
		}
		out.Device = out.Device && f.Device
		var streams []string
		for _, st := range f.Streams {
			if !refsReceiver(st) && (i == 0 || slices.Contains(out.Streams, st)) {
				streams = append(streams, st)
			}
		}
		out.Streams = streams
	}
	if !out.Device && len(out.Streams) == 0 {
		return nil
	}
	return out
}

// interfaceReads is what every implementation reads on the host.
func (c *checker) interfaceReads(impls []*types.Func) []int {
	var common []int
	for i, impl := range impls {
		var next []int
		for _, p := range c.readsOf(impl) {
			if p >= 0 && (i == 0 || slices.Contains(common, p)) {
				next = append(next, p)
			}
		}
		common = next
	}
	return common
}

func refsReceiver(ref string) bool { return ref == "r" || strings.HasPrefix(ref, "r.") }

// sameCopy reports whether two summaries describe the same copy, whatever
// runtime makes it.
func sameCopy(a, b ParamCopy) bool {
	a.API, b.API = "", ""
	return a == b
}

func familyOrder(api string) int {
	return int(hipapi.FamilyOf(api))
}
