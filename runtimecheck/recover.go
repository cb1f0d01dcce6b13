package runtimecheck

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// panicSite returns where the panic being recovered was raised, as
// "function (file:line)": the first frame past runtime.gopanic that is not
// the runtime's own. Call it from the deferred function that recovers.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(f.Function, "runtime."):
			return fmt.Sprintf("%s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

// internalError turns a value recovered from a panic in confirm into one
// error line (Main prints it, "hiplint confirm: internal error: ...").
func internalError(r any, at string) error {
	var bp *buildPanic
	if err, ok := r.(error); ok && errors.As(err, &bp) {
		return fmt.Errorf("internal error: %v", bp)
	}
	if at == "" {
		return fmt.Errorf("internal error: %v", r)
	}
	return fmt.Errorf("internal error: %v (at %s)", r, at)
}
