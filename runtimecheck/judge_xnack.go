package runtimecheck

import (
	"fmt"
	"strings"

	"github.com/hiplint/hiplint/internal/hipapi"
)

// judgeXNACK judges HL4xxx from what the tracer recorded at initialization
// (HSA_XNACK, gcnArchName, the pageable-memory attribute) and how the kernels
// that followed ended. XNACK does not exist on NVIDIA GPUs: there the
// analogue is cudaDevAttrPageableMemoryAccess, and the verdict says so.
func judgeXNACK(ev *Evidence) (Verdict, []string) {
	var evidence []string
	exercised, faulted, pageable, seen, onNVIDIA, completed := false, false, false, false, false, false
	otherCause := false // a failure that another check's precondition explains
	skippedAll := len(ev.Runs) > 0
	for _, run := range ev.Runs {
		skippedAll = skippedAll && strings.Contains(run.structure(), "--- SKIP: "+run.Test+" ")
		init, dev := run.Trace.Init(), run.Trace.Device()
		if dev == nil {
			continue
		}
		seen = true
		xnackEnv := "unset"
		if init != nil && init.HSAXnack != nil {
			xnackEnv = *init.HSAXnack
		}
		arch := ""
		if dev.Arch != nil {
			arch = *dev.Arch
		}
		pv := Word(-1)
		if dev.Pageable != nil {
			pv = *dev.Pageable
		}
		pageable = pageable || pv == 1
		nvidia := init != nil && init.Platform != "native" || dev.Attr != "hipDeviceAttributePageableMemoryAccess"
		if nvidia && !strings.Contains(arch, "gfx") {
			onNVIDIA = true
			attr := dev.Attr
			if init != nil && init.Platform == "hip-on-cuda" {
				attr = "cudaDevAttrPageableMemoryAccess (read through hipDeviceAttributePageableMemoryAccess)"
			}
			evidence = append(evidence, fmt.Sprintf("%s: NVIDIA GPU (%s): XNACK does not exist there; its analogue %s is %d, so kernels %s touch pageable system memory",
				run.Test, strOr(dev.Name, "unnamed"), attr, pv, map[bool]string{true: "may", false: "may not"}[pv == 1]))
		} else {
			evidence = append(evidence, fmt.Sprintf("%s: HSA_XNACK=%s at start, gcnArchName %q, %s = %d", run.Test, xnackEnv, arch, dev.Attr, pv))
		}
		// mine: the latest launch was this site's (or the finding is the
		// whole test's), so a fault reported now is its kernel's.
		mine := len(ev.At) == 0
		// A launch of a function whose module is already unloaded fails
		// whatever memory it touches: that is HL2003's hazard, and its
		// failure is no evidence about XNACK (issue 32).
		life := newModuleLife()
		for _, r := range sorted(run.Trace) {
			if !r.Returned() {
				continue
			}
			if mod, gone := life.unloadedFunction(&r); gone && !r.OK() && roleOf(&r) == hipapi.Launch {
				otherCause = true
				evidence = append(evidence, fmt.Sprintf("%s: %s at %s returned %s: its function's module %s was unloaded at %s, a use after unload (HL2003), not an XNACK fault",
					run.Test, r.API, ev.Sites[r.Site], errName(r.API, *r.Ret), mod.Hex(), ev.Sites[life.unloaded[mod].Site]))
				life.step(r)
				continue
			}
			life.step(r)
			here := ev.at(run.Trace, &r)
			if here || len(ev.At) == 0 {
				exercised = true
			}
			role := roleOf(&r)
			if role == hipapi.Launch && len(ev.At) > 0 {
				mine = here
			}
			if mine && r.OK() && (role == hipapi.DeviceSync || role == hipapi.StreamSync) {
				completed = true // the kernels launched before it finished without a fault
			}
			if exercised && (mine || here) && !r.OK() && (role == hipapi.Launch || role == hipapi.DeviceSync || role == hipapi.StreamSync || role == hipapi.Copy) {
				faulted = true
				evidence = append(evidence, fmt.Sprintf("%s: %s at %s returned %s", run.Test, r.API, ev.Sites[r.Site], errName(r.API, *r.Ret)))
			}
		}
		if msg, crashed := crashEvidence(ev, run); crashed && exercised && !otherCause {
			faulted = true
			evidence = append(evidence, msg)
		}
	}
	switch {
	case !seen:
		return Inconclusive, append(evidence, "the runtime was never initialized by a traced call")
	case !exercised:
		return NotExercised, evidence
	case faulted:
		return Confirmed, evidence
	case otherCause:
		return Inconclusive, append(evidence, "the kernels here failed for another check's reason, so they say nothing about XNACK")
	case ev.Finding.Silent && skippedAll && !pageable:
		return Refuted, append(evidence, "the test skipped itself on a device that reports no pageable-memory access: its guard kept the kernel away from memory the device cannot reach")
	case ev.Finding.Silent && completed && len(ev.At) > 0:
		return Refuted, append(evidence, "the kernels launched here completed without a fault (a synchronization after them returned success): the memory they touched was reachable from this device")
	case pageable:
		return Refuted, append(evidence, "the device reports pageable-memory access, so the memory is reachable without a guard here")
	case onNVIDIA && (ev.Finding.ID == "HL4002" || ev.Finding.ID == "HL4004"):
		return Inconclusive, append(evidence, "managed memory migrates on NVIDIA GPUs without XNACK, so this AMD hazard cannot show here; confirm it on an AMD GPU with XNACK off")
	case ev.Finding.ID == "HL4002":
		return Inconclusive, append(evidence, "managed memory worked here; without XNACK on AMD it stays in host memory (no migration), which is slow rather than wrong")
	}
	return Inconclusive, append(evidence, "no fault was observed although the device reports no pageable-memory access; the kernel may not have touched the memory")
}

func strOr(s *string, def string) string {
	if s == nil || *s == "" {
		return def
	}
	return *s
}
