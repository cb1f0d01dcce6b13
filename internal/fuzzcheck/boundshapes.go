package fuzzcheck

import (
	"fmt"
	"strings"

	"github.com/hiplint/hiplint/internal/gotogen"
)

// Shapes that walks over types and the solver must survive (issue 29):
// generic instantiation cycles, which go build rejects but the type
// checker hands the analyzers as ever larger instantiations; mutually
// recursive generic types; and goto-heavy functions, whose control-flow
// graphs are one large irreducible tangle.

// cycleErrors are the type errors the cycle shapes have.
var cycleErrors = []string{"instantiation cycle", "instantiated as", "invalid recursive type", "declared and not used"}

// GotoProgram is a cgo-shaped package holding internal/gotogen's
// dispatcher of labels labels (with unused, every odd label has no goto
// naming it: a type error the analyzers see past).
func GotoProgram(labels int, unused bool) Program {
	src := "//line /src/big/big.go:1:1\npackage big\n\nimport \"unsafe\"\n\n" +
		gotogen.Func(gotogen.Options{Labels: labels, Unused: unused, Shaped: true})
	return Program{Packages: []Package{{Path: "example.com/big", Name: "big", Files: []File{
		{Name: "_cgo_gotypes.go", Src: gotypes("big")},
		{Name: "big.cgo1.go", Src: src},
	}, AllowErrors: cycleErrors}}}
}

// typeCycles are the generic types of the cycle shapes, each with what a
// value of it is written as.
var typeCycles = []struct{ decl, value string }{
	{"type A[T any] struct {\n\ta *A[A[T]]\n\tm _Ctype_hipModule_t\n}", "A[int]{}"},
	{"type B[T any] struct {\n\t*B[B[T]]\n\tp unsafe.Pointer\n}", "B[int]{}"},
	{"type P[T any] struct {\n\tq *Q[P[T]]\n\tm _Ctype_hipModule_t\n}\ntype Q[T any] struct {\n\tp *P[Q[T]]\n\ts []Q[*T]\n}", "Q[int]{}"},
	{"type E[T any] struct {\n\tE2[E[T]]\n\tp unsafe.Pointer\n}\ntype E2[T any] struct{ *E[E2[T]] }", "E[int]{}"},
	{"type M[T any] struct {\n\tnext map[string]M[[]T]\n\tf func(M[*T])\n\tc chan M[[2]T]\n}", "M[int]{}"},
	// Mutually recursive, without a cycle of instantiations: valid Go.
	{"type L[T any] struct {\n\tr *R[T]\n\tv T\n}\ntype R[T any] struct {\n\tl *L[T]\n\tm _Ctype_hipModule_t\n}", "L[unsafe.Pointer]{}"},
}

// CycleProgram is a cgo-shaped package with the type shapes data picks
// (each byte: a shape of typeCycles, in turn), used where the analyzers
// walk types: as parameters of functions that load, borrow and unload
// modules, in a struct that embeds them and implements an interface, as
// the holder of a copy's destination, and through an interface method.
// A goto-heavy function of up to 64 labels closes it, unless data is
// shorter than two bytes.
func CycleProgram(data []byte) Program {
	var b strings.Builder
	b.WriteString("//line /src/big/big.go:1:1\npackage big\n\nimport \"unsafe\"\n\n")
	b.WriteString("type Runtime interface {\n\tFree(p unsafe.Pointer)\n}\n\n")
	used := map[int]bool{}
	var values []string
	for i, c := range data {
		k := int(c) % len(typeCycles)
		if used[k] {
			continue
		}
		used[k] = true
		tc := typeCycles[k]
		fmt.Fprintf(&b, "%s\n\n", tc.decl)
		name := tc.value[:strings.Index(tc.value, "[")]
		fmt.Fprintf(&b, "type Holder%d struct {\n\t%s[int]\n\tm _Ctype_hipModule_t\n}\n\n", i, name)
		fmt.Fprintf(&b, "func (h *Holder%d) Free(p unsafe.Pointer) { _Cfunc_hipFree(p) }\n\n", i)
		fmt.Fprintf(&b, "func Use%d(x *%s[int], h Holder%d, m _Ctype_hipModule_t) {\n", i, name, i)
		b.WriteString("\tvar f _Ctype_hipFunction_t\n\t_Cfunc_hipModuleGetFunction(&f, m, nil)\n\t_, _ = x, h\n}\n\n")
		fmt.Fprintf(&b, "func Load%d(dst, src unsafe.Pointer, r Runtime) float32 {\n", i)
		b.WriteString("\tvar m _Ctype_hipModule_t\n\t_Cfunc_hipModuleLoad(&m, nil)\n")
		fmt.Fprintf(&b, "\tv := %s\n\th := Holder%d{}\n\tUse%d(nil, h, m)\n", tc.value, i, i)
		fmt.Fprintf(&b, "\tvar rt Runtime = &h\n\trt.Free(dst)\n\tr.Free(src)\n\t_ = v\n")
		b.WriteString("\t_Cfunc_hipMemcpy(dst, src, 64, _Ciconst_hipMemcpyDeviceToDevice)\n")
		if c&0x80 == 0 {
			b.WriteString("\t_Cfunc_hipModuleUnload(m)\n")
		}
		b.WriteString("\treturn *(*float32)(dst)\n}\n\n")
		values = append(values, tc.value)
	}
	if len(data) >= 2 {
		b.WriteString(gotogen.Func(gotogen.Options{Labels: 1 + int(data[1])%64, Unused: data[0]&1 == 1, Shaped: true}))
	}
	return Program{Packages: []Package{{Path: "example.com/big", Name: "big", Files: []File{
		{Name: "_cgo_gotypes.go", Src: gotypes("big")},
		{Name: "big.cgo1.go", Src: b.String()},
	}, AllowErrors: cycleErrors}}}
}
