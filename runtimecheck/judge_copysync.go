package runtimecheck

import (
	"fmt"
	"strings"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// judgeCopySync judges HL1001/HL1002: was the flagged read ordered after the
// device-to-device copy it reads? Being issued while the copy was in flight
// (an event recorded right after the copy, queried at the read) proves nothing
// on its own: a stream that waits for the copy still reads fresh data. So
// each read is judged twice from the trace:
//
//   - the ordering the trace shows (copyOrder): the copy's stream, the legacy
//     null stream's implicit synchronization with blocking streams, events
//     recorded after the copy and waited for by the reading stream
//     (hipStreamWaitEvent) or the host (hipEventSynchronize), stream and
//     device synchronization (on the copy's device), synchronous copies;
//   - the ground truth (hiplint:order records): a timing event recorded after
//     the copy on its stream and one after the read on the read's stream,
//     compared once both completed. With the delay confirm queues before each
//     copy, a read the copy does not order completes first.
//
// The ground truth decides when the trace has it; the ordering decides
// otherwise. A second run with HIPLINT_FORCE_SYNC=1 shows whether the test's
// data depends on it.
func judgeCopySync(ev *Evidence) (Verdict, []string) {
	var evidence []string
	reads, racing, ordered, exercised := 0, 0, 0, false
	for _, run := range ev.Runs {
		recs := sorted(run.Trace)
		co := newCopyOrder(ev)
		for _, r := range recs {
			if r.API == "hiplint:order" && r.ElapsedUS != nil {
				co.truth[[2]int{r.CopySeq, r.ReadSeq}] = *r.ElapsedUS
			}
		}
		ncopies := 0
		for _, r := range recs {
			if r.Returned() && r.D2D == 1 {
				ncopies++
			}
		}
		reached := false
		for _, r := range recs {
			reached = reached || ev.at(run.Trace, &r)
		}
		if !reached {
			continue // another subtest's run: its failures are not this site's
		}
		if init := run.Trace.Init(); init != nil && init.DelayUS > 0 && ncopies > 0 {
			evidence = append(evidence, fmt.Sprintf("%s: a %d µs host-function delay was queued on the copy's stream before each of %d device-to-device copies",
				run.Test, init.DelayUS, ncopies))
		}
		for _, r := range recs {
			isProbe := r.API == "hiplint:probe"
			if ev.at(run.Trace, &r) && (isProbe || r.Returned()) {
				exercised = true
				reads++
				for _, p := range r.Pending {
					c, ok := co.copies[p.CopySeq]
					if !ok || len(ev.Related) > 0 && !contains(ev.Related, p.Copy) || p.InFlight != 1 {
						continue
					}
					line, unordered := co.judgeRead(run, &r, c, isProbe)
					evidence = append(evidence, line)
					if unordered {
						racing++
					} else {
						ordered++
					}
				}
			}
			co.step(&r)
		}
		if fs := run.ForceSync; fs != nil {
			switch {
			case run.Exit != 0 && fs.Exit == 0 && run.Signal == "" && !run.TimedOut:
				evidence = append(evidence, fmt.Sprintf("%s fails as written and passes with HIPLINT_FORCE_SYNC=1 (a device synchronize after each copy): the data read depends on the missing synchronization%s",
					run.Test, failureLines(run.Output)))
			case run.Exit == 0 && fs.Exit == 0:
				evidence = append(evidence, fmt.Sprintf("%s passes both as written and with HIPLINT_FORCE_SYNC=1", run.Test))
			default:
				evidence = append(evidence, fmt.Sprintf("%s: as written %s; with HIPLINT_FORCE_SYNC=1 %s", run.Test, run.Outcome(), fs.Outcome()))
			}
		}
	}
	switch {
	case racing > 0:
		return Confirmed, evidence
	case !exercised:
		return NotExercised, evidence
	}
	msg := fmt.Sprintf("%d reads at %s: none was issued while the copy was in flight on a path the copy does not order", reads, ev.Finding.Posn)
	if ordered == 0 {
		for _, run := range ev.Runs {
			for _, r := range sorted(run.Trace) {
				if r.Returned() && r.D2D == 1 && (len(ev.Related) == 0 || contains(ev.Related, r.Site)) {
					evidence = append(evidence, fmt.Sprintf("%s: the copy %s at %s returned after %.2f ms: on this platform it did not return before the data landed",
						run.Test, r.API, ev.Sites[r.Site], float64(r.T1-r.T0)/1e6))
					break
				}
			}
		}
	} else {
		msg = fmt.Sprintf("%d reads at %s: %d were issued while the copy was in flight, all on a stream the copy orders", reads, ev.Finding.Posn, ordered)
	}
	return Refuted, append(evidence, msg)
}

// copyOrder replays what orders later work after each device-to-device copy
// of one trace, in the trace's order.
type copyOrder struct {
	ev      *Evidence
	copies  map[int]*Record         // copy seq → the copy
	streams map[Word]streamInfo     // created streams
	host    map[int]string          // copy seq → how the host came to wait for it
	waited  map[int]map[Word]string // copy seq → stream → the wait that orders it
	covers  map[Word]map[int]bool   // stream → copies work issued on it since waits for
	events  map[Word]eventInfo      // event → copies its last record follows
	truth   map[[2]int]float64      // (copy seq, read seq) → read completion − copy completion, µs
}

type streamInfo struct {
	nonBlocking bool
	dev         Word
}

type eventInfo struct {
	rec    Record
	copies map[int]bool
}

func newCopyOrder(ev *Evidence) *copyOrder {
	return &copyOrder{ev: ev, copies: map[int]*Record{}, streams: map[Word]streamInfo{}, host: map[int]string{},
		waited: map[int]map[Word]string{}, covers: map[Word]map[int]bool{}, events: map[Word]eventInfo{}, truth: map[[2]int]float64{}}
}

func devOf(r *Record) Word {
	if r.Dev == nil {
		return -1
	}
	return *r.Dev
}

// The legacy default stream is 0 (and cudaStreamLegacy, 1); the per-thread
// default stream (2) synchronizes with it like a blocking stream.
func isNullStream(s Word) bool { return s == 0 || s == 1 }

func (co *copyOrder) streamName(s Word) string {
	switch {
	case isNullStream(s):
		return "the null stream"
	case co.streams[s].nonBlocking:
		return "non-blocking stream " + s.Hex()
	}
	return "blocking stream " + s.Hex()
}

// streamDev is the device a stream belongs to (the null stream: the current one).
func (co *copyOrder) streamDev(s, current Word) Word {
	if info, ok := co.streams[s]; ok && !isNullStream(s) {
		return info.dev
	}
	return current
}

// ordersStream says whether work issued now on stream s (current device dev)
// runs after copy c, and why.
func (co *copyOrder) ordersStream(c *Record, s, dev Word) (string, bool) {
	if why, ok := co.host[c.Seq]; ok {
		return why, true
	}
	if why, ok := co.waited[c.Seq][s]; ok {
		return why, true
	}
	sdev := co.streamDev(s, dev)
	cdev := co.streamDev(c.Stream, devOf(c))
	if sdev != cdev && sdev >= 0 && cdev >= 0 {
		return fmt.Sprintf("on device %d (the copy ran on device %d), with no wait for the copy", sdev, cdev), false
	}
	blocking := !co.streams[s].nonBlocking
	switch {
	case s == c.Stream:
		return "on the copy's stream", true
	case isNullStream(c.Stream) && isNullStream(s):
		return "on the null stream, like the copy", true
	case isNullStream(c.Stream) && blocking:
		return fmt.Sprintf("on %s, which waits for the null stream's earlier work (the copy)", co.streamName(s)), true
	case isNullStream(s) && !co.streams[c.Stream].nonBlocking:
		return fmt.Sprintf("on the null stream, which waits for the earlier work of blocking stream %s (the copy)", c.Stream.Hex()), true
	}
	return fmt.Sprintf("on %s, with no wait for the copy on %s", co.streamName(s), co.streamName(c.Stream)), false
}

// judgeRead judges one read issued while copy c was in flight: one line of
// evidence, and whether the read was unordered (the hazard happened).
func (co *copyOrder) judgeRead(run *Run, r, c *Record, probe bool) (string, bool) {
	var why string
	var orderedBy bool
	if probe {
		why, orderedBy = co.host[c.Seq]
		if !orderedBy {
			why = "on the host, which waited for nothing that follows the copy"
		}
	} else {
		why, orderedBy = co.ordersStream(c, r.Stream, devOf(r))
	}
	after := ""
	if r.T0 > 0 && c.T1 > 0 {
		after = fmt.Sprintf(" %.1f µs after the copy returned,", float64(r.T0-c.T1)/1e3)
	}
	head := fmt.Sprintf("%s: %s at %s was issued%s while the copy %s at %s (%d bytes, returned in %.1f µs) was still in flight (event query: not ready)",
		run.Test, readName(r), co.ev.Sites[r.Site], after, c.API, co.ev.Sites[c.Site], int64(c.Size), float64(c.T1-c.T0)/1e3)
	if g, ok := co.truth[[2]int{c.Seq, r.Seq}]; ok {
		if g < 0 {
			line := fmt.Sprintf("%s, %s; ground truth: an event recorded after the read on its stream completed %.1f µs before one recorded after the copy on the copy's stream: the read ran before the copy landed", head, why, -g)
			if orderedBy {
				line += " (although the calls traced seemed to order it)"
			}
			return line, true
		}
		return fmt.Sprintf("%s, but %s; ground truth: the read completed %.1f µs after the copy", head, why, g), false
	}
	if orderedBy {
		return fmt.Sprintf("%s, but %s, which orders it after the copy", head, why), false
	}
	return fmt.Sprintf("%s, %s", head, why), true
}

// step applies one record to the ordering state.
func (co *copyOrder) step(r *Record) {
	if !r.Returned() || !r.OK() {
		return
	}
	f, _ := hipapi.Lookup(r.API)
	if f == nil {
		return
	}
	dev := devOf(r)
	at := co.ev.Sites[r.Site].String()
	hostWaits := func(why string, pred func(c *Record) bool) {
		for seq, c := range co.copies {
			if _, done := co.host[seq]; !done && pred(c) {
				co.host[seq] = why
			}
		}
	}
	// Work issued on a stream after a copy it is ordered after keeps that
	// stream's later synchronization waiting for the copy.
	if f.Stream != 0 && f.Role != hipapi.StreamSync && f.Role != hipapi.StreamQuery && f.Role != hipapi.StreamDestroy {
		for seq, c := range co.copies {
			if _, ok := co.ordersStream(c, r.Stream, dev); ok {
				if co.covers[r.Stream] == nil {
					co.covers[r.Stream] = map[int]bool{}
				}
				co.covers[r.Stream][seq] = true
			}
		}
	}
	switch f.Role {
	case hipapi.StreamCreate:
		co.streams[r.Out] = streamInfo{nonBlocking: r.Flags&hipapi.NonBlockingStream != 0, dev: dev}
	case hipapi.Copy:
		if r.D2D == 1 {
			c := *r
			co.copies[r.Seq] = &c
			if co.covers[r.Stream] == nil {
				co.covers[r.Stream] = map[int]bool{}
			}
			co.covers[r.Stream][r.Seq] = true
			return
		}
		if !f.Async {
			// A synchronous copy returns after the work before it on its
			// stream, the copies that stream is ordered after included.
			hostWaits(fmt.Sprintf("after the synchronous %s at %s", r.API, at), func(c *Record) bool {
				_, ok := co.ordersStream(c, r.Stream, dev)
				return ok
			})
		}
	case hipapi.DeviceSync:
		hostWaits(fmt.Sprintf("after %s at %s on device %d", r.API, at, dev), func(c *Record) bool {
			return co.streamDev(c.Stream, devOf(c)) == dev
		})
	case hipapi.StreamSync, hipapi.StreamQuery:
		hostWaits(fmt.Sprintf("after %s of %s at %s", r.API, co.streamName(r.Stream), at), func(c *Record) bool {
			return co.covers[r.Stream][c.Seq] && co.streamDev(r.Stream, dev) == co.streamDev(c.Stream, devOf(c))
		})
	case hipapi.EventRecord:
		info := eventInfo{rec: *r, copies: map[int]bool{}}
		for seq, c := range co.copies {
			if _, ok := co.ordersStream(c, r.Stream, dev); ok {
				info.copies[seq] = true
			}
		}
		co.events[r.Event] = info
	case hipapi.StreamWaitEvent:
		info := co.events[r.Event]
		for seq := range info.copies {
			if co.waited[seq] == nil {
				co.waited[seq] = map[Word]string{}
			}
			if _, ok := co.waited[seq][r.Stream]; !ok {
				co.waited[seq][r.Stream] = fmt.Sprintf("on %s, which waits (%s at %s) for an event recorded after the copy (%s at %s)",
					co.streamName(r.Stream), r.API, at, info.rec.API, co.ev.Sites[info.rec.Site])
			}
			if co.covers[r.Stream] == nil {
				co.covers[r.Stream] = map[int]bool{}
			}
			co.covers[r.Stream][seq] = true
		}
	case hipapi.EventSync, hipapi.EventQuery:
		info := co.events[r.Event]
		hostWaits(fmt.Sprintf("after %s at %s of an event recorded after the copy (%s at %s)", r.API, at, info.rec.API, co.ev.Sites[info.rec.Site]), func(c *Record) bool {
			return info.copies[c.Seq]
		})
	}
}

func readName(r *Record) string {
	if r.API == "hiplint:probe" {
		return "the host read"
	}
	return r.API
}

// failureLines picks the test's own failure messages from its output.
func failureLines(out string) string {
	var picked []string
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if strings.Contains(t, "_test.go:") && len(picked) < 3 {
			picked = append(picked, t)
		}
	}
	if len(picked) == 0 {
		return ""
	}
	return ": " + strings.Join(picked, "; ")
}
