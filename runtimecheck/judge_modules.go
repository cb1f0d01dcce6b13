package runtimecheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// moduleLife replays a trace's module loads and unloads.
type moduleLife struct {
	live      map[Word]Record // handle → its successful load
	unloaded  map[Word]Record // handle → the unload that released it (until reloaded)
	functions map[Word]Word   // function or global → module it was borrowed from
}

func newModuleLife() *moduleLife {
	return &moduleLife{live: map[Word]Record{}, unloaded: map[Word]Record{}, functions: map[Word]Word{}}
}

// step applies one returned call.
func (m *moduleLife) step(r Record) {
	if !r.Returned() {
		return
	}
	switch roleOf(&r) {
	case hipapi.ModuleLoad:
		if r.OK() {
			m.live[r.Out] = r
			delete(m.unloaded, r.Out)
		}
	case hipapi.ModuleUnload:
		if _, ok := m.live[r.Module]; ok {
			delete(m.live, r.Module)
			m.unloaded[r.Module] = r
		}
	case hipapi.ModuleGetFunction, hipapi.ModuleGetGlobal:
		if r.OK() {
			m.functions[r.Out] = r.Module
		}
	}
}

// unloadedFunction returns the module of the function r launches when
// that module was unloaded and not loaded again.
func (m *moduleLife) unloadedFunction(r *Record) (Word, bool) {
	if r.Function == 0 {
		return 0, false
	}
	mod, ok := m.functions[r.Function]
	if !ok {
		return 0, false
	}
	_, live := m.live[mod]
	_, gone := m.unloaded[mod]
	return mod, gone && !live
}

// judgeModules judges HL2001-HL2004 from the module calls in the trace.
func judgeModules(ev *Evidence) (Verdict, []string) {
	switch ev.Finding.ID {
	case "HL2001":
		return judgeLeak(ev)
	case "HL2002":
		return judgeModuleUse(ev, "unload", func(r *Record) bool { return roleOf(r) == hipapi.ModuleUnload })
	case "HL2003":
		return judgeModuleUse(ev, "use", func(r *Record) bool {
			return r.Module != 0 || r.Function != 0
		})
	case "HL2004":
		return judgeUncheckedUnload(ev)
	}
	return Inconclusive, []string{"no module-balance judge for " + ev.Finding.ID}
}

func judgeLeak(ev *Evidence) (Verdict, []string) {
	var evidence []string
	exercised, succeeded, leakedRuns := false, false, 0
	for _, run := range ev.Runs {
		life := newModuleLife()
		var loads []Record
		failed := map[string]int{}
		for _, r := range sorted(run.Trace) {
			life.step(r)
			if r.Returned() && roleOf(&r) == hipapi.ModuleLoad && ev.at(run.Trace, &r) {
				loads = append(loads, r)
				if !r.OK() {
					failed[errName(r.API, *r.Ret)]++
				}
			}
		}
		if len(loads) == 0 {
			continue
		}
		exercised = true
		var leaked []string
		for h, r := range life.live {
			if ev.at(run.Trace, &r) {
				leaked = append(leaked, h.Hex())
			}
		}
		sort.Strings(leaked)
		ok := len(loads)
		for _, n := range failed {
			ok -= n
		}
		if ok == 0 {
			evidence = append(evidence, fmt.Sprintf("%s: all %d loads at %s failed (%s)", run.Test, len(loads), ev.Finding.Posn, joinCounts(failed)))
			continue
		}
		succeeded = true
		if len(leaked) == 0 {
			evidence = append(evidence, fmt.Sprintf("%s: %d of %d successful loads at %s were unloaded", run.Test, ok, ok, ev.Finding.Posn))
			continue
		}
		leakedRuns++
		msg := fmt.Sprintf("%s: %d loads at %s succeeded, %d were unloaded, %d never were (handles %s)",
			run.Test, ok, ev.Finding.Posn, ok-len(leaked), len(leaked), abbreviate(leaked, 4))
		evidence = append(evidence, msg)
		if g := growth(loads); g != "" {
			evidence = append(evidence, g)
		}
	}
	switch {
	case !exercised:
		return NotExercised, evidence
	case leakedRuns > 0:
		return Confirmed, evidence
	case !succeeded:
		return Inconclusive, append(evidence, "no load succeeded, so nothing could leak in these runs")
	}
	return Refuted, evidence
}

// growth describes the process's growth across the loads at the flagged site.
func growth(loads []Record) string {
	var ok []Record
	for _, r := range loads {
		if r.OK() && (r.Maps > 0 || r.RSS > 0) {
			ok = append(ok, r)
		}
	}
	if len(ok) < 2 {
		return ""
	}
	first, last := ok[0], ok[len(ok)-1]
	n := int64(len(ok) - 1)
	return fmt.Sprintf("growth over %d loads: /proc/self/maps %d → %d lines (%+.1f per load), RSS %s → %s (%+.1f KiB per load)",
		len(ok), first.Maps, last.Maps, float64(last.Maps-first.Maps)/float64(n), mib(first.RSS), mib(last.RSS),
		float64(last.RSS-first.RSS)/1024/float64(n))
}

// judgeModuleUse judges a call at the flagged site that must find its module
// loaded: an unload (HL2002) or a use (HL2003).
func judgeModuleUse(ev *Evidence, what string, relevant func(*Record) bool) (Verdict, []string) {
	var evidence []string
	exercised, confirmed := false, false
	foreign := map[string]bool{} // runs with a use of a function no traced module lent
	for _, run := range ev.Runs {
		life := newModuleLife()
		for _, r := range sorted(run.Trace) {
			if r.Returned() && ev.at(run.Trace, &r) && relevant(&r) {
				mod := r.Module
				if mod == 0 {
					mod = life.functions[r.Function]
				}
				if mod == 0 {
					// hipLaunchKernel's host stub, or a function from a
					// module loaded in an untraced package: no module to
					// have unloaded, nothing to judge.
					foreign[run.Test] = true
					life.step(r)
					continue
				}
				exercised = true
				_, live := life.live[mod]
				if u, gone := life.unloaded[mod]; gone && !live {
					confirmed = true
					evidence = append(evidence, fmt.Sprintf("%s: %s at %s of module %s, already unloaded at %s; the runtime returned %s",
						run.Test, r.API, ev.Finding.Posn, mod.Hex(), ev.Sites[u.Site], errName(r.API, *r.Ret)))
				} else if live {
					evidence = append(evidence, fmt.Sprintf("%s: %s at %s found module %s loaded", run.Test, r.API, ev.Finding.Posn, mod.Hex()))
				}
			}
			life.step(r)
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
		for _, t := range sortedKeys(foreign) {
			evidence = append(evidence, fmt.Sprintf("%s: %s at %s used a function that no traced module load lent (a runtime-API kernel, or a module of an untraced package)", t, what, ev.Finding.Posn))
		}
		return NotExercised, evidence
	}
	return Refuted, append(evidence, fmt.Sprintf("every %s at %s found its module loaded", what, ev.Finding.Posn))
}

func judgeUncheckedUnload(ev *Evidence) (Verdict, []string) {
	var evidence []string
	exercised, confirmed := false, false
	for _, run := range ev.Runs {
		life := newModuleLife()
		for _, r := range sorted(run.Trace) {
			if r.Returned() && ev.at(run.Trace, &r) && roleOf(&r) == hipapi.ModuleUnload {
				exercised = true
				if _, live := life.live[r.Module]; !live {
					confirmed = true
					evidence = append(evidence, fmt.Sprintf("%s: %s at %s was given %s, which no successful load returned; the runtime returned %s",
						run.Test, r.API, ev.Finding.Posn, r.Module.Hex(), errName(r.API, *r.Ret)))
				}
			}
			life.step(r)
		}
	}
	switch {
	case confirmed:
		return Confirmed, evidence
	case !exercised:
		return NotExercised, evidence
	}
	return Inconclusive, append(evidence, "every load before this unload succeeded in these runs; the hazard needs a failing load (for example a missing code object) to show")
}

func joinCounts(m map[string]int) string {
	var parts []string
	for k, n := range m {
		parts = append(parts, fmt.Sprintf("%d× %s", n, k))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func abbreviate(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + fmt.Sprintf(" and %d more", len(list)-n)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
