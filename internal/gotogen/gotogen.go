// Package gotogen writes goto-heavy Go functions that call the HIP runtime:
// the shape of a generated dispatcher (an interpreter loop unrolled into
// labels), whose control-flow graph is one large irreducible tangle of
// forward and backward edges. Issue 29 found the copy-sync analysis
// superlinear on such functions (400 labels took 11.5 s, 2,000 ran out of
// memory); bench/ times hiplint on them and internal/fuzzcheck feeds them to
// the analyzers.
//
// The output is deterministic: label i copies device-to-device into one of
// four buffers, may jump to two other labels (one earlier, one later, picked
// by a fixed hash of i), synchronizes the device at every third label, and
// reads one of the buffers on the host, which is a hazard wherever a copy
// into it may still be in flight.
package gotogen

import (
	"fmt"
	"strings"
)

// Options say what to write.
type Options struct {
	// Labels is the number of labels (at least 1).
	Labels int
	// Unused leaves every odd label without a goto naming it. Go rejects a
	// label that is not used ("label L1 declared and not used"), so such a
	// package does not type-check; hiplint still analyzes it (it analyzes
	// packages with type errors), and the control flow only falls through
	// those labels.
	Unused bool
	// Shaped writes the calls as cgo's generated code names them
	// (_Cfunc_hipMemcpy, _Ciconst_hipMemcpyDeviceToDevice), for the
	// cgo-shaped programs of internal/fuzzcheck; otherwise as C.hipMemcpy,
	// for a file that cgo processes.
	Shaped bool
	// Name of the function (default Dispatch).
	Name string
}

func (o Options) fn(name string) string {
	if o.Shaped {
		return "_Cfunc_" + name
	}
	return "C." + name
}

func (o Options) constant(name string) string {
	if o.Shaped {
		return "_Ciconst_" + name
	}
	return "C." + name
}

// target is the label a goto of label i jumps to: an earlier or a later
// label, spread over the whole function. With Unused, only even labels
// are targets.
func (o Options) target(i, k int) int {
	n := o.Labels
	t := (i*7919 + k*104729 + 13) % n
	if o.Unused {
		t &^= 1
	}
	return t
}

// Func returns the function's declaration: func NAME(ops []int, d0, d1, d2,
// d3, src unsafe.Pointer) (sum float32). It needs "unsafe" imported and the
// runtime's declarations (a cgo preamble including hip_runtime_api.h, or
// fuzzcheck's cgo-shaped stubs).
func Func(o Options) string {
	if o.Labels < 1 {
		o.Labels = 1
	}
	if o.Name == "" {
		o.Name = "Dispatch"
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("// %s runs the program ops over the buffers d0-d3: %d labels.", o.Name, o.Labels)
	w("func %s(ops []int, d0, d1, d2, d3, src unsafe.Pointer) (sum float32) {", o.Name)
	w("\tpc := 0")
	for i := range o.Labels {
		w("L%d:", i)
		w("\tpc++")
		w("\tif pc >= len(ops) {")
		w("\t\treturn sum")
		w("\t}")
		w("\t%s(d%d, src, 64, %s)", o.fn("hipMemcpy"), i%4, o.constant("hipMemcpyDeviceToDevice"))
		w("\tif ops[pc] == %d {", i%5)
		w("\t\tgoto L%d", o.target(i, 1))
		w("\t}")
		if i%3 == 0 {
			w("\t%s()", o.fn("hipDeviceSynchronize"))
		}
		w("\tsum += *(*float32)(d%d)", (i+1)%4)
		w("\tif ops[pc] > %d {", 5+i%3)
		w("\t\tgoto L%d", o.target(i, 2))
		w("\t}")
	}
	w("\treturn sum")
	w("}")
	return b.String()
}

// Package returns a cgo file of package name holding Func(o), its
// preamble including <hip/hip_runtime_api.h> from include (a directory
// added with -I; empty: none, for a caller that sets CGO_CFLAGS).
func Package(name, include string, o Options) string {
	o.Shaped = false
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is a generated goto-heavy dispatcher (internal/gotogen).\n", name)
	fmt.Fprintf(&b, "package %s\n\n/*\n", name)
	if include != "" {
		fmt.Fprintf(&b, "#cgo CFLAGS: -I%s\n", include)
	}
	b.WriteString("#include <hip/hip_runtime_api.h>\n*/\nimport \"C\"\n\nimport \"unsafe\"\n\n")
	b.WriteString(Func(o))
	return b.String()
}
