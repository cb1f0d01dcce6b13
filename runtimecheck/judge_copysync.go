package runtimecheck

import (
	"fmt"
	"strings"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// judgeCopySync judges HL1001/HL1002: was the flagged read issued while the
// device-to-device copy was still in flight (an event recorded right after
// the copy, queried when the read was issued), on something the copy does not
// order (the host, a non-blocking stream, another device)? A second run with
// HIPLINT_FORCE_SYNC=1 shows whether the test's data depends on it.
func judgeCopySync(ev *Evidence) (Verdict, []string) {
	var evidence []string
	reads, racing, ordered, exercised := 0, 0, 0, false
	for _, run := range ev.Runs {
		recs := sorted(run.Trace)
		copies := map[int]Record{} // seq → copy record
		nonBlocking := map[Word]bool{}
		for _, r := range recs {
			if r.Returned() && r.D2D == 1 {
				copies[r.Seq] = r
			}
			if r.Returned() && r.OK() && roleOf(&r) == hipapi.StreamCreate {
				nonBlocking[r.Out] = r.Flags&hipapi.NonBlockingStream != 0
			}
		}
		if init := run.Trace.Init(); init != nil && init.DelayUS > 0 && len(copies) > 0 {
			evidence = append(evidence, fmt.Sprintf("%s: a %d µs host-function delay was queued on the copy's stream before each of %d device-to-device copies",
				run.Test, init.DelayUS, len(copies)))
		}
		for _, r := range recs {
			isProbe := r.API == "hiplint:probe"
			if !ev.atSite(r.Site) || !(isProbe || r.Returned()) {
				continue
			}
			exercised = true
			reads++
			for _, p := range r.Pending {
				c, ok := copies[p.CopySeq]
				if !ok || len(ev.Related) > 0 && !ev.relatedSite(p.Copy) {
					continue
				}
				if p.InFlight != 1 {
					continue
				}
				where, unordered := readPlace(&r, &c, isProbe, nonBlocking)
				after := ""
				if when := r.T0; when > 0 && c.T1 > 0 {
					after = fmt.Sprintf(" %.1f µs after the copy returned,", float64(when-c.T1)/1e3)
				}
				copyTime := fmt.Sprintf("%.1f µs", float64(c.T1-c.T0)/1e3)
				if unordered {
					racing++
					evidence = append(evidence, fmt.Sprintf("%s: %s at %s was issued%s %s, while the copy %s at %s (%s bytes, returned in %s) was still in flight (event query: not ready)",
						run.Test, readName(&r), ev.Finding.Posn, after, where, c.API, ev.Sites[c.Site], fmt.Sprint(int64(c.Size)), copyTime))
				} else {
					ordered++
					evidence = append(evidence, fmt.Sprintf("%s: %s at %s was issued while the copy at %s was in flight, but %s, which orders it after the copy",
						run.Test, readName(&r), ev.Finding.Posn, ev.Sites[c.Site], where))
				}
			}
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
	for _, run := range ev.Runs {
		for _, r := range sorted(run.Trace) {
			if r.Returned() && r.D2D == 1 && (len(ev.Related) == 0 || ev.relatedSite(r.Site)) {
				evidence = append(evidence, fmt.Sprintf("%s: the copy %s at %s returned after %.2f ms: on this platform it did not return before the data landed",
					run.Test, r.API, ev.Sites[r.Site], float64(r.T1-r.T0)/1e6))
				break
			}
		}
	}
	if ordered > 0 {
		msg = fmt.Sprintf("%d reads at %s: %d were issued while the copy was in flight, all on a stream the copy orders", reads, ev.Finding.Posn, ordered)
	}
	return Refuted, append(evidence, msg)
}

// readPlace says where the read ran and whether the copy orders it.
func readPlace(r, c *Record, probe bool, nonBlocking map[Word]bool) (string, bool) {
	if probe {
		return "on the host", true
	}
	if r.Dev != nil && c.Dev != nil && *r.Dev != *c.Dev {
		return fmt.Sprintf("on device %d (the copy ran on device %d)", *r.Dev, *c.Dev), true
	}
	f, _ := hipapi.Lookup(r.API)
	if f != nil && f.Stream != 0 && r.Stream != 0 && r.Stream != c.Stream {
		if nonBlocking[r.Stream] {
			return fmt.Sprintf("on non-blocking stream %s", r.Stream.Hex()), true
		}
		return fmt.Sprintf("on blocking stream %s", r.Stream.Hex()), false
	}
	return "on the copy's stream", false
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
