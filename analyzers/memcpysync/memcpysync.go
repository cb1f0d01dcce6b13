package memcpysync

import (
	"go/ast"
	"go/types"
	"reflect"
	"strconv"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/config"
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
	FactTypes: []analysis.Fact{new(Summary), new(flow.StreamKind)},
	Requires:  []*analysis.Analyzer{flow.IndexAnalyzer, flow.Getters},
	// The functions it left out, over their budget (flow.Budget); nil
	// when there are none.
	ResultType: reflect.TypeFor[flow.Notes](),
}

const strictFlag = "strict"

func init() {
	Analyzer.Flags.Bool(strictFlag, false,
		"also report reads ordered only by implicit default-stream semantics (blocking streams, the peer destination's null stream, streams of unknown kind)")
	// hiplint.toml's [memcpysync] table sets it (internal/config), under
	// every driver, package analyzers imported or not.
	config.Register(Analyzer.Name, []string{UnorderedRead.ID, UnorderedAsyncRead.ID}, &Analyzer.Flags)
}

// Candidates is memcpysync in candidate mode, for hiplint confirm: it reports
// every read of a device-to-device copy's destination whether or not it is
// ordered after the copy, so that confirm can also judge the reads the
// analyzer found safe (the fixed twins). It is never part of the lint suite.
var Candidates = &analysis.Analyzer{
	Name:       Analyzer.Name,
	Doc:        "memcpysync in candidate mode (hiplint confirm only): every read of a copy's destination, ordered or not",
	Run:        func(pass *analysis.Pass) (any, error) { return analyze(pass, false, true) },
	FactTypes:  Analyzer.FactTypes,
	Requires:   Analyzer.Requires,
	ResultType: Analyzer.ResultType,
}

func run(pass *analysis.Pass) (any, error) {
	// The flag as the configuration in effect resolves it: an override of
	// the front end's, the command line's, the package's hiplint.toml.
	strict, _ := strconv.ParseBool(config.Flag(pass, strictFlag))
	return analyze(pass, strict, false)
}

type checker struct {
	// enter and match are relevant's hooks for FirstCall, made once, not
	// at each of its calls (every function, every round).
	enter func(*ast.FuncLit) bool
	match func(*ast.CallExpr) bool

	pass  *analysis.Pass
	info  *types.Info
	order flow.StreamOrder // Strict: -strict
	// candidates: report every read of a copy's destination (Candidates).
	candidates bool
	idx        *flow.Index
	sums       *flow.Table[Summary, *Summary]
	// streamFlags: what is known of the flags of the streams a field or
	// package-level variable holds (flow.StreamVarFacts).
	streamFlags func(v *types.Var) (nonBlocking, ok bool)
	// results names the results of calls whose summaries copy into them
	// (callResults); srcs is the package's value flow, made on first
	// use (elementLocs).
	results callResults
	srcs    *flow.Sources
	// libStreams: the stream field each library handle field is bound to.
	libStreams map[*types.Var]*types.Var
	// funcFields: fields of function type that always hold one function
	// (Ops{sync: d.Synchronize}); calls through them call it.
	funcFields map[*types.Var]*types.Func
	// kindMaps: the package's helpers that translate its own copy-kind
	// enum into the runtime's (kindMapCall), read on first use.
	kindMaps map[*types.Func]kindMapOf
	// usesC: whether each file refers to cgo names (fileUsesC).
	usesC map[*ast.File]bool
	// budget bounds the analysis of each function and of the package
	// (flow.Budget); the functions over it are the analyzer's result.
	budget *flow.Budget
	// Program order (initorder.go): solved once the summaries are final;
	// the package's inits in order and what its TestMain leaves at
	// m.Run(), made on first use.
	solved  bool
	inits   []earlier
	mainRun *earlier
}

func analyze(pass *analysis.Pass, strict, candidates bool) (any, error) {
	if !cgocall.CallsRuntime(pass.Pkg) && len(pass.AllObjectFacts()) == 0 {
		return flow.Notes(nil), nil
	}
	impls := flow.NewImpls(pass)
	c := &checker{pass: pass, info: pass.TypesInfo, order: flow.StreamOrder{Strict: strict}, candidates: candidates,
		idx: flow.IndexOf(pass), funcFields: flow.IndexOf(pass).FuncFields(pass), sums: flow.NewTable[Summary](pass, impls),
		budget: flow.NewBudget()}
	c.streamFlags = flow.StreamVarFacts(pass, c.idx)
	c.libStreams = c.idx.LibraryStreamFields(pass.Pkg)
	c.sums.Meet = meetSummaries
	funcs := c.idx.Funcs()
	sums := flow.Summaries[*funcAnalysis]{
		Pass: pass, Index: c.idx, Impls: impls,
		Deps:     func(fn flow.Func) []*types.Func { return flow.CallsIn(c.info, c.funcFields, fn.Body) },
		Relevant: c.relevant,
		Analyze:  c.analyzeFunc,
		Update:   func(obj *types.Func, fa *funcAnalysis) bool { return c.sums.Set(obj, fa.summary()) },
	}
	final, ok := sums.Solve(funcs)
	c.solved = true
	sums.Report(funcs, final, ok, func(fn flow.Func, fa *funcAnalysis) {
		// An entry runs on what ran before it in the program: its
		// findings are those of that state (a superset: it adds copies
		// in flight at its start); its summary stays its own.
		if before := c.runsBefore(fn); len(before) > 0 {
			fa = c.analyzeAfter(fn, before, nil)
		}
		fa.report()
	})
	c.sums.Export(flow.Objects(c.info, funcs))
	return c.budget.Notes(), nil
}

// relevant reports whether fn has anything this check looks at: runtime
// calls, calls of summarized functions, or pointer parameters it may read.
func (c *checker) relevant(fn flow.Func) bool {
	if len(c.runsBefore(fn)) > 0 {
		return true // an entry that starts with copies in flight
	}
	if sig := fn.Signature(c.info); sig != nil {
		for _, v := range flow.Params(sig) {
			if flow.HoldsPointer(v.Type()) {
				return true
			}
		}
	}
	if c.match == nil {
		c.enter = c.idx.InPlaceOrWrapper
		c.match = func(call *ast.CallExpr) bool {
			if b := c.idx.Bound(call); b != nil {
				call = b
			}
			_, ok := c.sums.Of(c.callee(call))
			return ok || c.idx.Match(call) != nil || c.idx.StoredLit(call) != nil
		}
	}
	return c.idx.FirstCall(fn.Body, c.enter, c.match) != nil
}

// callee returns the Go function call calls, directly or through a field
// that always holds one (FuncFields), or nil.
func (c *checker) callee(call *ast.CallExpr) *types.Func {
	if fn := c.idx.Callee(call); fn != nil {
		return fn
	}
	return flow.FieldCallee(c.info, c.funcFields, call)
}

// Through an interface method, a summary is what every implementation does
// (an interface over HIP and CUDA implementations), with what names the
// receiver left out: it belongs to each implementation.

// meetSummaries keeps what every implementation does; of the copies, each
// is named after the first implementation's in family order. A device
// switch is no implementation's alone to make: none is kept.
func meetSummaries(fs []Summary) Summary {
	out := Summary{SyncDevice: true, SyncNull: true}
	for _, f := range fs {
		out.SyncDevice, out.SyncNull = out.SyncDevice && f.SyncDevice, out.SyncNull && f.SyncNull
	}
	out.Copies = flow.MeetListsFunc(fs, func(f Summary) []ParamCopy { return f.Copies }, func(pc ParamCopy) bool {
		return !(pc.Dst.Param == flow.Receiver && pc.Global.IsZero() && !pc.Result || pc.ByKind && pc.Kind.Param == flow.Receiver || pc.Stream.OnReceiver())
	}, func(a, b ParamCopy) bool {
		a.API, b.API = "", ""
		return a == b
	}, func(kept, pc ParamCopy) ParamCopy {
		if hipapi.FamilyOf(pc.API) < hipapi.FamilyOf(kept.API) {
			return pc
		}
		return kept
	})
	notRecv := func(r flow.Ref) bool { return r.Param != flow.Receiver }
	out.SyncStreams = flow.MeetLists(fs, func(f Summary) []flow.Ref { return f.SyncStreams }, notRecv)
	out.Reads = flow.MeetLists(fs, func(f Summary) []flow.Ref { return f.Reads }, notRecv)
	out.DeviceReads = flow.MeetLists(fs, func(f Summary) []DeviceRead { return f.DeviceReads }, func(r DeviceRead) bool {
		return notRecv(r.Ref) && !r.Stream.OnReceiver()
	})
	out.EventOps = flow.MeetLists(fs, func(f Summary) []EventOp { return f.EventOps }, func(o EventOp) bool {
		return notRecv(o.Event) && !o.Stream.OnReceiver()
	})
	return out
}
