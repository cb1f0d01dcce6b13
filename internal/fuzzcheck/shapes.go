package fuzzcheck

import (
	"fmt"
	"strings"
)

// DeepProgram is a cgo-shaped package with one function whose ifs nest
// depth deep, with module loads and device-to-device copies on the way in,
// unloads and synchronizations on the way out.
func DeepProgram(depth int) Program { return ShapedProgram(deepBody(depth)) }

// HugeProgram is a cgo-shaped package with one function of n runtime calls,
// two per if/else: copies, synchronizations, module loads and unloads,
// allocations and frees.
func HugeProgram(n int) Program { return ShapedProgram(hugeBody(n)) }

// ShapedProgram wraps body in a cgo-shaped package, as the body of
// func Big(n int, p, q unsafe.Pointer) with locals m (a module) and s (a
// stream).
func ShapedProgram(body string) Program {
	src := `//line /src/big/big.go:1:1
package big

import "unsafe"

func Big(n int, p, q unsafe.Pointer) {
	var m _Ctype_hipModule_t
	var s _Ctype_hipStream_t
	_, _ = m, s
` + body + "}\n"
	return Program{Packages: []Package{{Path: "example.com/big", Name: "big", Files: []File{
		{Name: "_cgo_gotypes.go", Src: gotypes("big")},
		{Name: "big.cgo1.go", Src: src},
	}}}}
}

// deepBody nests ifs depth deep: module loads and device-to-device copies
// on the way in, unloads and synchronizations on the way out.
func deepBody(depth int) string {
	var b strings.Builder
	tabs := func(k int) string { return strings.Repeat("\t", k) }
	for i := range depth {
		fmt.Fprintf(&b, "%sif n > %d {\n", tabs(i+1), i)
		if i%2 == 0 {
			fmt.Fprintf(&b, "%s_Cfunc_hipModuleLoad(&m, nil)\n", tabs(i+2))
		} else {
			fmt.Fprintf(&b, "%s_Cfunc_hipMemcpy(q, p, 64, _Ciconst_hipMemcpyDeviceToDevice)\n", tabs(i+2))
		}
	}
	for i := depth - 1; i >= 0; i-- {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%s_Cfunc_hipModuleUnload(m)\n", tabs(i+2))
		} else {
			fmt.Fprintf(&b, "%s_Cfunc_hipDeviceSynchronize()\n", tabs(i+2))
		}
		fmt.Fprintf(&b, "%s}\n", tabs(i+1))
	}
	return b.String()
}

// hugeBody is n runtime calls, two per if/else.
func hugeBody(n int) string {
	calls := [][2]string{
		{"_Cfunc_hipDeviceSynchronize()", "_Cfunc_hipMemcpy(q, p, 64, _Ciconst_hipMemcpyHostToDevice)"},
		{"_Cfunc_hipModuleLoad(&m, nil)", "_Cfunc_hipStreamSynchronize(s)"},
		{"_Cfunc_hipModuleUnload(m)", "_Cfunc_hipMalloc(&p, 64)"},
		{"_Cfunc_hipMemcpy(q, p, 64, _Ciconst_hipMemcpyDeviceToDevice)", "_Cfunc_hipFree(p)"},
		{"_Cfunc_hipStreamCreate(&s)", "_Cfunc_hipMemset(q, 0, 64)"},
	}
	var b strings.Builder
	for i := range n / 2 {
		c := calls[i%len(calls)]
		fmt.Fprintf(&b, "\tif n > %d {\n\t\t%s\n\t} else {\n\t\t%s\n\t}\n", i, c[0], c[1])
	}
	return b.String()
}
