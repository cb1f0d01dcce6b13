package runtimecheck

import (
	"fmt"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// provenance is where a pointer came from.
type provenance struct {
	rec      Record
	captured bool // allocated while a stream capture was active
	graph    bool // a graph allocation node's address
}

// judgeGraphFree judges HL3xxx: the free node's pointer, where it was
// allocated and by which API, and what the runtime answered (or the crash).
func judgeGraphFree(ev *Evidence) (Verdict, []string) {
	if ev.Finding.ID == "HL3003" {
		return Inconclusive, []string{"graph dependency edges are not traced; only the free node's pointer and the runtime's answer are"}
	}
	var evidence []string
	exercised, confirmed := false, false
	for _, run := range ev.Runs {
		origin := map[Word]provenance{}
		freed := map[Word]Record{}
		capturing := 0
		streams := map[Word]bool{} // streams under capture
		uncaptured := 0            // stream-ordered frees at the site outside any capture
		node := func(r Record) {
			if !ev.at(run.Trace, &r) {
				if r.OK() {
					freed[r.Ptr] = r
				}
				return
			}
			exercised = true
			o, known := origin[r.Ptr]
			from := "an address no traced allocation returned"
			if known {
				kind := "?"
				if f, ok := hipapi.Lookup(o.rec.API); ok {
					kind = f.Alloc.String()
				}
				from = fmt.Sprintf("%s memory from %s at %s", kind, o.rec.API, ev.Sites[o.rec.Site])
				if o.captured {
					from += " (under stream capture)"
				}
			}
			what := r.API
			if roleOf(&r) == hipapi.Free {
				what += " (under stream capture: a graph free node)"
			}
			answer := "the runtime returned " + errName(r.API, *r.Ret)
			if prev, twice := freed[r.Ptr]; twice {
				confirmed = true
				evidence = append(evidence, fmt.Sprintf("%s: %s at %s frees %s a second time (first at %s); %s",
					run.Test, what, ev.where(&r), r.Ptr.Hex(), ev.Sites[prev.Site], answer))
			} else if !known || !o.graph && !o.captured {
				confirmed = true
				evidence = append(evidence, fmt.Sprintf("%s: %s at %s was given %s, %s; %s",
					run.Test, what, ev.where(&r), r.Ptr.Hex(), from, answer))
				if r.OK() {
					evidence = append(evidence, "the runtime accepted it (as HIP 5.6.1 did), but the pointer is not a graph allocation")
				}
			} else {
				evidence = append(evidence, fmt.Sprintf("%s: %s at %s frees %s, %s; %s", run.Test, what, ev.where(&r), r.Ptr.Hex(), from, answer))
			}
			if r.OK() {
				freed[r.Ptr] = r
			}
		}
		for _, r := range sorted(run.Trace) {
			if !r.Returned() {
				continue
			}
			fn, _ := hipapi.Lookup(r.API)
			switch roleOf(&r) {
			case hipapi.CaptureBegin:
				if r.OK() {
					capturing++
					streams[r.Stream] = true
				}
			case hipapi.CaptureEnd:
				if capturing > 0 {
					capturing--
				}
				delete(streams, r.Stream)
			case hipapi.Alloc:
				if r.OK() {
					// A stream-ordered allocation is the graph's when its
					// own stream is captured; others when any capture is on.
					captured := capturing > 0
					if fn != nil && fn.Stream != 0 {
						captured = streams[r.Stream]
					}
					origin[r.Out] = provenance{rec: r, captured: captured}
				}
			case hipapi.GraphAllocNode:
				if r.OK() {
					origin[r.DPtr] = provenance{rec: r, graph: true}
				}
			case hipapi.GraphFreeNode:
				node(r)
			case hipapi.Free:
				// hipFreeAsync on a captured stream records a free node of
				// the graph being captured; elsewhere it frees at once.
				if fn != nil && streamOrderedFree(fn) && streams[r.Stream] {
					node(r)
				} else if ev.at(run.Trace, &r) && fn != nil && streamOrderedFree(fn) {
					uncaptured++
				}
			}
		}
		if uncaptured > 0 {
			evidence = append(evidence, fmt.Sprintf("%s: the stream-ordered free at %s ran %d time(s) outside any stream capture: an ordinary free, no graph free node", run.Test, ev.Finding.Posn, uncaptured))
		}
		if msg, crashed := crashEvidence(ev, run); crashed {
			if u := run.Trace.Unfinished(); u != nil && ev.at(run.Trace, u) {
				exercised, confirmed = true, true
			}
			evidence = append(evidence, msg)
		}
	}
	switch {
	case confirmed:
		return Confirmed, evidence
	case !exercised:
		return NotExercised, evidence
	}
	return Refuted, evidence
}
