package memcpysync

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/flow"
	"github.com/hiplint/hiplint/internal/hipapi"
	"golang.org/x/tools/go/analysis"
)

const goroutine = "the goroutine started here"

// finding is a read of a pending copy's destination that is not ordered
// after it, as the reporting pass saw it.
type finding struct {
	site       int
	copyQueue  flow.Queue
	at, anchor ast.Node
	q          flow.Queue
	l          flow.Loc
	what       string
	device     flow.Sym // current at the read
}

// found records, in the reporting pass, an unordered read of cp's
// destination.
func (fa *funcAnalysis) found(cp *pending, at, anchor ast.Node, q flow.Queue, l flow.Loc, what string, s *state) {
	if lit := fa.ownLit; lit != nil {
		if pos := fa.sites.List[cp.site].pos; lit.Pos() <= pos && pos < lit.End() {
			return
		}
	}
	if fa.seen != nil {
		fa.seen.findings = append(fa.seen.findings, finding{cp.site, cp.queue, at, anchor, q, l, what, s.device})
	}
}

// report reports the findings of the function, each read of each copy once.
func (fa *funcAnalysis) report() {
	done := map[[2]int]bool{} // the read's position and the copy's site
	for _, f := range fa.seen.findings {
		if k := [2]int{int(f.at.Pos()), f.site}; !done[k] {
			done[k] = true
			fa.reportOne(f)
		}
	}
}

func (fa *funcAnalysis) reportOne(f finding) {
	site := fa.sites.List[f.site]
	check := UnorderedRead
	if site.async {
		check = UnorderedAsyncRead
	}
	sync := hipapi.Twin("hipDeviceSynchronize", hipapi.FamilyOf(site.api))
	var where string
	switch q := f.q; {
	case f.what == goroutine:
		where = "concurrently with the copy"
	case q.Kind == flow.OnHost:
		where = "on the host"
	case q.Kind == flow.OnStream && q.Known && q.NonBlocking:
		where = "on a non-blocking stream (it does not wait for other streams)"
	case !q.Device.Same(f.copyQueue.Device):
		where = fmt.Sprintf("on %s while the copy runs on %s", fa.deviceName(q.Device), fa.deviceName(f.copyQueue.Device))
	case q.Kind == flow.OnStream && f.copyQueue.Kind == flow.OnStream:
		where = "on a different stream than the copy's"
	default:
		where = "on a stream that is not ordered after the copy"
	}
	advice := fmt.Sprintf("the copy returns before the data lands; call C.%s() with the copying device current before the read, or record an event after the copy and wait for it", sync)
	if site.async {
		advice = fmt.Sprintf("synchronize the copy's stream first, or record an event after the copy and make this work wait for it (or call C.%s())", sync)
	}
	msg := fmt.Sprintf("%s reads %s %s before the device-to-device copy into it by %s is ordered: %s", f.what, f.l, where, site.desc, advice)
	related := []diag.Related{{Pos: site.pos, Message: "device-to-device copy issued here"}}
	var fixes []analysis.SuggestedFix
	// The fix: a device synchronize on its own line before the statement
	// holding the read, when the copying device is the current one there
	// and the file calls C functions.
	if f.device == f.copyQueue.Device && f.device != flow.Unknown && fa.fileUsesC(f.anchor.Pos()) {
		edit, stmt, ok := flow.LineBefore(fa.pass.Fset, fa.fn.Body, f.anchor, "C."+sync+"()")
		if ok && !(stmt.Pos() <= site.pos && site.pos < stmt.End()) {
			fixes = append(fixes, analysis.SuggestedFix{
				Message:   fmt.Sprintf("Insert C.%s() before the read", sync),
				TextEdits: []analysis.TextEdit{edit},
			})
		}
	}
	end := f.at.End()
	if f.anchor != f.at {
		end = token.NoPos
	}
	diag.Report(fa.pass, check, f.at.Pos(), end, msg, related, fixes...)
}

// deviceName words a device for a message.
func (fa *funcAnalysis) deviceName(d flow.Sym) string {
	switch {
	case d.Of == flow.ParamSym && d.Ref.Param >= 0 && fa.sig != nil && d.Ref.Param < fa.sig.Params().Len():
		return "device " + fa.sig.Params().At(d.Ref.Param).Name()
	case d.Of == flow.EntrySym:
		return "the device current on entry"
	case d.Of == flow.UnknownSym:
		return "an unknown device"
	case d.Of == flow.ConstSym:
		return fmt.Sprintf("device %d", d.N)
	case d.Of == flow.ExprSym:
		return "device " + d.Expr
	}
	return "device " + d.String()
}

// fileUsesC is cgocall.FileUsesC, once per file of the package: it walks
// the file, and a function of thousands of findings asked it for each
// (issue 29: most of the reporting time of a 2,000-label function).
func (fa *funcAnalysis) fileUsesC(pos token.Pos) bool {
	for _, f := range fa.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			uses, ok := fa.usesC[f]
			if !ok {
				uses = cgocall.FileUsesC([]*ast.File{f}, pos)
				if fa.usesC == nil {
					fa.usesC = map[*ast.File]bool{}
				}
				fa.usesC[f] = uses
			}
			return uses
		}
	}
	return false
}
