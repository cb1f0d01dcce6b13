package fuzzcheck

import (
	"fmt"
	"strings"
)

// A Program is a set of packages in dependency order: each may import the
// ones before it.
type Program struct {
	Packages []Package
}

// A Package is one generated package.
type Package struct {
	Path, Name string
	Files      []File
	// AllowErrors are texts of type errors the package is written to have
	// (instantiation cycles, unused labels): Analyze analyzes it despite
	// them, as the drivers analyze packages with type errors. Any other
	// type error still fails it.
	AllowErrors []string
}

// A File is one source file, named as the analyzers see it.
type File struct {
	Name, Src string
}

// Source returns the whole program as text, for failure messages.
func (p Program) Source() string {
	var b strings.Builder
	for _, pkg := range p.Packages {
		for _, f := range pkg.Files {
			if f.Name == "_cgo_gotypes.go" {
				continue // the same declarations in every program
			}
			fmt.Fprintf(&b, "==== %s/%s\n%s\n", pkg.Path, f.Name, f.Src)
		}
	}
	return b.String()
}

// Limits on the size of a generated program, so that every input stays
// cheap: the fuzzer explores shapes, not sizes.
const (
	maxStmts = 400 // statements per package
	maxDepth = 5   // nesting of blocks
	maxFuncs = 5   // generated functions per package
)

const (
	libPath = "example.com/gpu"
	appPath = "example.com/app"
)

// Generate turns fuzzer bytes into a program of two cgo-shaped packages: a
// library of runtime wrappers, and a package (a command or a library, with
// tests) that uses both the runtime and the wrappers. Every input yields a
// program that type-checks.
func Generate(data []byte) Program {
	r := &reader{data: data}
	lib := newPkgGen(r, "gpu", libPath, true, nil)
	lib.generate()
	appName := "app"
	if r.n(2) == 1 {
		appName = "main"
	}
	app := newPkgGen(r, appName, appPath, false, lib)
	app.generate()
	return Program{Packages: []Package{lib.pkg(), app.pkg()}}
}

// reader hands out the fuzzer's bytes as small choices; once they run out,
// every choice is 0, which ends every block.
type reader struct {
	data []byte
	pos  int
}

func (r *reader) n(k int) int {
	if k <= 1 || r.pos >= len(r.data) {
		return 0
	}
	v := int(r.data[r.pos])
	r.pos++
	return v % k
}

func (r *reader) done() bool { return r.pos >= len(r.data) }

func (r *reader) pick(xs ...string) string { return xs[r.n(len(xs))] }

// Result shapes of generated functions.
const (
	resError   = iota // error
	resModule         // (*Mod, error)
	resPointer        // unsafe.Pointer
	resNone           //
	resBool           // bool: an XNACK guard, or not
	numResults
)

type funcSig struct {
	name string
	res  int
}

type pkgGen struct {
	r        *reader
	name     string
	path     string
	exported bool
	dep      *pkgGen // the library, for the app package
	funcs    []funcSig
	stmts    int // statements generated so far
	files    []File
	b        *strings.Builder
	indent   int
	tmp      int // counter for fresh names
}

func newPkgGen(r *reader, name, path string, exported bool, dep *pkgGen) *pkgGen {
	g := &pkgGen{r: r, name: name, path: path, exported: exported, dep: dep}
	n := 1 + r.n(maxFuncs)
	for i := range n {
		prefix := "do"
		if exported {
			prefix = "F"
		}
		g.funcs = append(g.funcs, funcSig{fmt.Sprintf("%s%d", prefix, i), r.n(numResults)})
	}
	return g
}

func (g *pkgGen) pkg() Package {
	return Package{Path: g.path, Name: g.name, Files: g.files}
}

func (g *pkgGen) p(format string, args ...any) {
	g.b.WriteString(strings.Repeat("\t", g.indent))
	fmt.Fprintf(g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *pkgGen) fresh(prefix string) string {
	g.tmp++
	return fmt.Sprintf("%s%d", prefix, g.tmp)
}

func (g *pkgGen) generate() {
	g.files = append(g.files, File{Name: "_cgo_gotypes.go", Src: gotypes(g.name)})

	g.b = &strings.Builder{}
	// cgo's output files start with a //line directive back to the user's file.
	g.p("//line /src/%s/%s.go:1:1", g.name, g.name)
	g.p("package %s", g.name)
	g.p("")
	g.imports()
	g.p("var gMod _Ctype_hipModule_t")
	g.p("var gPtr unsafe.Pointer")
	g.p("")
	g.p("// Mod owns a module, a buffer and a stream.")
	g.p("type Mod struct {")
	g.p("\tm _Ctype_hipModule_t")
	g.p("\tp unsafe.Pointer")
	g.p("\ts _Ctype_hipStream_t")
	g.p("}")
	g.p("")
	g.p("func check(r _Ctype_hipError_t) error {")
	g.p("\tif r != _Ciconst_hipSuccess {")
	g.p("\t\treturn errors.New(\"hip error\")")
	g.p("\t}")
	g.p("\treturn nil")
	g.p("}")
	g.p("")
	g.p("func must(r _Ctype_hipError_t) {")
	g.p("\tif r != _Ciconst_hipSuccess {")
	g.p("\t\tpanic(r)")
	g.p("\t}")
	g.p("}")
	g.p("")
	g.typeShapes()
	// The method that releases what Mod owns: one of several variants.
	g.p("func (x *Mod) Close() {")
	g.indent++
	switch g.r.n(4) {
	case 0:
		g.p("%s", g.call("hipModuleUnload", typed("x.m")))
	case 1:
		g.p("if x.m != nil {")
		g.indent++
		g.p("%s", g.call("hipModuleUnload", typed("x.m")))
		g.p("x.m = nil")
		g.indent--
		g.p("}")
	case 2:
		g.p("%s", g.call("hipFree", typed("x.p")))
	case 3:
		g.prologue()
		g.body(scope{ret: []string{"return"}, method: true}, 3)
	}
	g.indent--
	g.p("}")
	g.p("")
	for _, f := range g.funcs {
		g.function(f)
	}
	if g.name == "main" {
		g.p("func init() {")
		g.indent++
		g.prologue()
		g.body(scope{ret: []string{"return"}}, 3)
		g.indent--
		g.p("}")
		g.p("")
		g.p("func main() {")
		g.indent++
		g.prologue()
		g.body(scope{ret: []string{"return"}}, 6)
		g.indent--
		g.p("}")
	}
	g.files = append(g.files, File{Name: g.name + ".cgo1.go", Src: g.b.String()})

	if g.dep != nil && g.r.n(2) == 1 {
		g.b = &strings.Builder{}
		g.p("//line /src/%s/%s_test.go:1:1", g.name, g.name)
		g.p("package %s", g.name)
		g.p("")
		g.imports("testing")
		if g.r.n(2) == 1 {
			g.p("func TestMain(m *testing.M) {")
			g.indent++
			if g.r.n(2) == 1 {
				g.p("os.Setenv(\"HSA_XNACK\", \"1\")")
			}
			g.prologue()
			g.body(scope{ret: []string{"return"}}, 2)
			g.p("os.Exit(m.Run())")
			g.indent--
			g.p("}")
			g.p("")
		}
		for i := range 1 + g.r.n(2) {
			g.p("func TestGen%d(t *testing.T) {", i)
			g.indent++
			g.prologue()
			g.body(scope{ret: []string{"return", "t.Skip(\"no XNACK\")", "t.Fatal(err)"}, test: true}, 5)
			g.indent--
			g.p("}")
			g.p("")
		}
		g.files = append(g.files, File{Name: g.name + "_test.cgo1.go", Src: g.b.String()})
	}
}

// scope is what a block may refer to: how it can return, whether it is in a
// loop, whether a receiver x or a test's t is in scope.
type scope struct {
	ret    []string
	loop   bool
	depth  int
	method bool
	test   bool
}

func (s scope) nested() scope { s.depth++; return s }

func (g *pkgGen) function(f funcSig) {
	var ret []string
	var res string
	switch f.res {
	case resError:
		res, ret = " error", []string{"return err", "return nil", "return check(st)"}
	case resModule:
		res, ret = " (*Mod, error)", []string{"return nil, err", "return &Mod{m: m0}, nil", "return &Mod{m: m1, p: p0, s: s0}, nil"}
	case resPointer:
		res, ret = " unsafe.Pointer", []string{"return p0", "return nil", "return ap0.dptr"}
	case resNone:
		res, ret = "", []string{"return"}
	case resBool:
		res, ret = " bool", []string{"return false", "return true",
			`return strings.Contains(_Cfunc_GoString(&prop.gcnArchName[0]), "xnack+")`, "return attr == 1"}
	}
	g.p("func %s(pa unsafe.Pointer, ma *Mod, na int)%s {", f.name, res)
	g.indent++
	g.locals()
	g.body(scope{ret: ret}, 8)
	if f.res != resNone {
		g.p("%s", ret[g.r.n(len(ret))])
	}
	g.indent--
	g.p("}")
	g.p("")
}

// locals declares the variables every generated body may use, and uses them
// once so that the package type-checks whatever the body does.
func (g *pkgGen) locals() {
	g.p("var m0, m1 _Ctype_hipModule_t")
	g.p("var f0, f1 _Ctype_hipFunction_t")
	g.p("var p0, p1, p2 unsafe.Pointer")
	g.p("var dp0, dp1 _Ctype_hipDeviceptr_t")
	g.p("var s0, s1 _Ctype_hipStream_t")
	g.p("var e0 _Ctype_hipEvent_t")
	g.p("var g0 _Ctype_hipGraph_t")
	g.p("var n0, n1, n2 _Ctype_hipGraphNode_t")
	g.p("var ap0 _Ctype_hipMemAllocNodeParams")
	g.p("var kp0 _Ctype_hipKernelNodeParams")
	g.p("var prop _Ctype_hipDeviceProp_t")
	g.p("var attr _Ctype_int")
	g.p("var st _Ctype_hipError_t")
	g.p("var err error")
	g.p("var cm0 _Ctype_CUmodule")
	g.p("var cf0 _Ctype_CUfunction")
	g.p("var sz _Ctype_size_t = 64")
	g.p("var wg sync.WaitGroup")
	g.p("buf := make([]float32, 16)")
	g.p("args := []unsafe.Pointer{unsafe.Pointer(&p0), unsafe.Pointer(&sz)}")
	g.p("deps := []_Ctype_hipGraphNode_t{n0}")
	if g.dep != nil {
		g.p("var lm *%s.Mod", g.dep.name)
		g.p("_ = lm")
	}
	g.p("_, _, _, _, _, _, _, _, _, _ = m0, m1, f0, f1, p0, p1, p2, dp0, dp1, s0")
	g.p("_, _, _, _, _, _, _, _, _, _ = s1, e0, g0, n0, n1, n2, ap0, kp0, prop, attr")
	g.p("_, _, _, _, _, _, _, _, _, _ = st, err, cm0, cf0, sz, buf, args, deps, pa, ma")
	g.p("_, _ = na, &wg")
}

// body writes up to max statements, fewer as the nesting deepens.
func (g *pkgGen) body(s scope, max int) {
	if s.depth >= maxDepth {
		return
	}
	n := g.r.n(max + 1)
	for range n {
		if g.stmts >= maxStmts || g.r.done() {
			return
		}
		g.stmts++
		g.stmt(s)
	}
}

// Argument shapes: cgo copies each argument into a temporary in its own way.
type argShape uint8

const (
	shTyped   argShape = iota // a typed expression: _cgoN := x
	shUntyped                 // an untyped constant or nil: var _cgoN T = x
	shAddr                    // &x: _cgoBaseN := &x; _cgoN := _cgoBaseN
	shIndex                   // &x[0]: _cgoIndexN := &x; _cgoN := &(*_cgoIndexN)[0]
)

type arg struct {
	text  string
	shape argShape
	base  string // x in &x and &x[0]
}

func typed(x string) arg   { return arg{text: x, shape: shTyped} }
func untyped(x string) arg { return arg{text: x, shape: shUntyped} }
func addr(x string) arg    { return arg{text: "&" + x, shape: shAddr, base: x} }
func index(x string) arg   { return arg{text: "&" + x + "[0]", shape: shIndex, base: x} }

// call returns a call of C function name in one of the shapes cmd/cgo
// writes: a direct call, or a pointer-checking wrapper literal.
func (g *pkgGen) call(name string, args ...arg) string {
	f, ok := cfuncs[name]
	if !ok || len(f.params) != len(args) {
		panic(fmt.Sprintf("fuzzcheck: bad call of %s with %d args", name, len(args)))
	}
	if len(args) == 0 || g.r.n(3) == 0 {
		var texts []string
		for _, a := range args {
			texts = append(texts, a.text)
		}
		if g.r.n(2) == 0 {
			return fmt.Sprintf("( _Cfunc_%s )(%s)", name, strings.Join(texts, ", "))
		}
		return fmt.Sprintf("_Cfunc_%s(%s)", name, strings.Join(texts, ", "))
	}
	temps, checks, names := g.temps(f, args)
	call := fmt.Sprintf("_Cfunc_%s(%s)", name, strings.Join(names, ", "))
	if f.result == "_Ctype_void" {
		return fmt.Sprintf("func() { %s%s%s; }()", temps, checks, call)
	}
	return fmt.Sprintf("func() %s { %s%sreturn %s; }()", f.result, temps, checks, call)
}

// deferCall returns a defer statement of a C call: cgo's deferred form, which
// evaluates the arguments at the defer statement, or a direct deferred call.
func (g *pkgGen) deferCall(name string, args ...arg) string {
	f := cfuncs[name]
	if len(args) == 0 || g.r.n(3) == 0 {
		var texts []string
		for _, a := range args {
			texts = append(texts, a.text)
		}
		return fmt.Sprintf("defer _Cfunc_%s(%s)", name, strings.Join(texts, ", "))
	}
	temps, checks, names := g.temps(f, args)
	return fmt.Sprintf("defer func() func() { %sreturn func() { %s_Cfunc_%s(%s); }}()()",
		temps, checks, name, strings.Join(names, ", "))
}

func (g *pkgGen) temps(f cfunc, args []arg) (temps, checks string, names []string) {
	var t, c strings.Builder
	for i, a := range args {
		n := fmt.Sprintf("_cgo%d", i)
		names = append(names, n)
		switch a.shape {
		case shAddr:
			if g.r.n(2) == 0 {
				fmt.Fprintf(&t, "_cgoBase%d := &%s; %s := _cgoBase%d; ", i, a.base, n, i)
				fmt.Fprintf(&c, "_cgoCheckPointer(_cgoBase%d, 0 == 0); ", i)
			} else {
				fmt.Fprintf(&t, "%s := %s; ", n, a.text)
			}
		case shIndex:
			fmt.Fprintf(&t, "_cgoIndex%d := &%s; %s := &(*_cgoIndex%d)[0]; ", i, a.base, n, i)
			fmt.Fprintf(&c, "_cgoCheckPointer(%s, *_cgoIndex%d); ", n, i)
		case shUntyped:
			fmt.Fprintf(&t, "var %s %s = %s; ", n, f.params[i], a.text)
		default:
			if g.r.n(2) == 0 {
				fmt.Fprintf(&t, "%s := %s; ", n, a.text)
				fmt.Fprintf(&c, "_cgoCheckPointer(%s, nil); ", n)
			} else {
				fmt.Fprintf(&t, "var %s %s = %s; ", n, f.params[i], a.text)
			}
		}
	}
	return t.String(), c.String(), names
}

// use writes a statement that issues a HIP call and does something with its
// status.
func (g *pkgGen) use(s scope, call string) {
	switch g.r.n(7) {
	case 0:
		g.p("%s", call)
	case 1:
		g.p("st = %s", call)
	case 2:
		g.p("if st := %s; st != _Ciconst_hipSuccess {", call)
		g.ret(s)
		g.p("}")
	case 3:
		g.p("if err := check(%s); err != nil {", call)
		g.ret(s)
		g.p("}")
	case 4:
		g.p("must(%s)", call)
	case 5:
		g.p("err = check(%s)", call)
	case 6:
		g.p("if %s != _Ciconst_hipSuccess {", call)
		g.indent++
		g.p("panic(\"hip\")")
		g.indent--
		g.p("}")
	}
}

// useOther writes a statement for a call whose status is not a hipError_t.
func (g *pkgGen) useOther(call string) {
	if g.r.n(2) == 0 {
		g.p("%s", call)
	} else {
		g.p("_ = %s", call)
	}
}

func (g *pkgGen) ret(s scope) {
	g.indent++
	g.p("%s", s.ret[g.r.n(len(s.ret))])
	g.indent--
}

// Operands.

func (g *pkgGen) ptrVar(s scope) string {
	xs := []string{"p0", "p1", "p2", "dp0", "dp1", "pa", "ap0.dptr", "gPtr", "ma.p"}
	if s.method {
		xs = append(xs, "x.p")
	}
	return xs[g.r.n(len(xs))]
}

func (g *pkgGen) ptr(s scope) arg {
	switch g.r.n(6) {
	case 0:
		return typed("unsafe.Pointer(&buf[0])")
	case 1:
		return untyped("nil")
	}
	return typed(g.ptrVar(s))
}

func (g *pkgGen) modVar(s scope) string {
	xs := []string{"m0", "m1", "m0", "m1", "gMod", "ma.m"}
	if s.method {
		xs = append(xs, "x.m")
	}
	return xs[g.r.n(len(xs))]
}

func (g *pkgGen) stream() arg {
	switch g.r.n(5) {
	case 0:
		return untyped("nil")
	case 1:
		return typed("_Cmacro_hipStreamPerThread()")
	case 2:
		return typed("s1")
	case 3:
		return typed("ma.s")
	}
	return typed("s0")
}

func (g *pkgGen) size() arg {
	switch g.r.n(3) {
	case 0:
		return untyped("64")
	case 1:
		return typed("_Ctype_size_t(na)")
	}
	return typed("sz")
}

func (g *pkgGen) device() arg {
	switch g.r.n(3) {
	case 0:
		return untyped("0")
	case 1:
		return untyped("1")
	}
	return typed("_Ctype_int(na)")
}

func (g *pkgGen) kind() arg {
	return untyped(g.r.pick("_Ciconst_hipMemcpyDeviceToDevice", "_Ciconst_hipMemcpyDefault",
		"_Ciconst_hipMemcpyDeviceToHost", "_Ciconst_hipMemcpyHostToDevice", "3", "_Ciconst_hipMemcpyHostToHost"))
}

func (g *pkgGen) node() string { return g.r.pick("n0", "n1", "n2") }

func (g *pkgGen) depsArgs() (arg, arg) {
	switch g.r.n(4) {
	case 0:
		return untyped("nil"), untyped("0")
	case 1:
		return index("deps"), typed("_Ctype_size_t(len(deps))")
	case 2:
		n := g.node()
		return addr(n), untyped("1")
	}
	return index("deps"), untyped("1")
}

func (g *pkgGen) kname() arg {
	if g.r.n(2) == 0 {
		return untyped("nil")
	}
	return typed(`_Cfunc_CString("kernel")`)
}

// stmt writes one statement.
func (g *pkgGen) stmt(s scope) {
	r := g.r
	switch r.n(38) {
	case 0: // device allocation
		if r.n(4) == 0 {
			g.useOther(g.call("cudaMalloc", addr(g.ptrVar(s)), g.size()))
		} else {
			g.use(s, g.call("hipMalloc", addr(g.ptrVar(s)), g.size()))
		}
	case 1:
		switch r.n(4) {
		case 0:
			g.use(s, g.call("hipMallocManaged", addr(g.ptrVar(s)), g.size(), untyped("_Ciconst_hipMemAttachGlobal")))
		case 1:
			g.use(s, g.call("hipHostMalloc", addr(g.ptrVar(s)), g.size(), untyped("0")))
		case 2:
			g.use(s, g.call("hipMallocAsync", addr(g.ptrVar(s)), g.size(), g.stream()))
		case 3:
			g.useOther(g.call("cudaMallocManaged", addr(g.ptrVar(s)), g.size(), untyped("1")))
		}
	case 2: // system memory
		switch r.n(3) {
		case 0:
			g.p("%s = _Cfunc__CMalloc(%s)", g.ptrVar(s), g.size().text)
		case 1:
			g.p("%s = unsafe.Pointer(&buf[%d])", g.ptrVar(s), r.n(4))
		case 2:
			g.p("%s = unsafe.Pointer(new([64]byte))", g.ptrVar(s))
		}
	case 3: // frees
		switch r.n(5) {
		case 0, 1:
			g.use(s, g.call("hipFree", g.ptr(s)))
		case 2:
			g.use(s, g.call("hipHostFree", g.ptr(s)))
		case 3:
			g.use(s, g.call("hipFreeAsync", g.ptr(s), g.stream()))
		case 4:
			g.p("%s", g.call("free", g.ptr(s)))
		}
	case 4, 5: // copies
		switch r.n(8) {
		case 0, 1:
			g.use(s, g.call("hipMemcpy", g.ptr(s), g.ptr(s), g.size(), g.kind()))
		case 2:
			g.use(s, g.call("hipMemcpyDtoD", g.ptr(s), g.ptr(s), g.size()))
		case 3:
			g.use(s, g.call("hipMemcpyPeer", g.ptr(s), g.device(), g.ptr(s), g.device(), g.size()))
		case 4:
			g.use(s, g.call("hipMemcpyAsync", g.ptr(s), g.ptr(s), g.size(), g.kind(), g.stream()))
		case 5:
			g.use(s, g.call("hipMemcpyDtoH", g.ptr(s), g.ptr(s), g.size()))
		case 6:
			g.use(s, g.call("hipMemcpyWithStream", g.ptr(s), g.ptr(s), g.size(), g.kind(), g.stream()))
		case 7:
			g.useOther(g.call("cudaMemcpy", g.ptr(s), g.ptr(s), g.size(), untyped("_Ciconst_cudaMemcpyDeviceToDevice")))
		}
	case 6: // host reads of memory
		switch r.n(3) {
		case 0:
			g.p("_ = *(*float32)(%s)", g.ptrVar(s))
		case 1:
			g.p("_ = buf[%d]", r.n(16))
		case 2:
			g.p("_ = unsafe.Slice((*byte)(%s), 4)[0]", g.ptrVar(s))
		}
	case 7, 8: // synchronization
		switch r.n(7) {
		case 0, 1:
			g.use(s, g.call("hipDeviceSynchronize"))
		case 2:
			g.use(s, g.call("hipStreamSynchronize", g.stream()))
		case 3:
			g.use(s, g.call("hipEventSynchronize", typed("e0")))
		case 4:
			g.use(s, g.call("hipStreamWaitEvent", g.stream(), typed("e0"), untyped("0")))
		case 5:
			g.use(s, g.call("hipEventRecord", typed("e0"), g.stream()))
		case 6:
			g.useOther(g.call("cudaDeviceSynchronize"))
		}
	case 9: // streams, events, devices
		switch r.n(6) {
		case 0:
			g.use(s, g.call("hipStreamCreate", addr(r.pick("s0", "s1"))))
		case 1:
			g.use(s, g.call("hipStreamCreateWithFlags", addr(r.pick("s0", "s1", "ma.s")), untyped(r.pick("_Ciconst_hipStreamNonBlocking", "_Ciconst_hipStreamDefault", "1"))))
		case 2:
			g.use(s, g.call("hipEventCreate", addr("e0")))
		case 3:
			g.use(s, g.call("hipStreamDestroy", g.stream()))
		case 4:
			g.use(s, g.call("hipSetDevice", g.device()))
		case 5:
			g.use(s, g.call("hipStreamQuery", g.stream()))
		}
	case 10, 11: // module loads
		m := g.modVar(s)
		switch r.n(5) {
		case 0, 1:
			g.use(s, g.call("hipModuleLoad", addr(m), g.kname()))
		case 2:
			g.use(s, g.call("hipModuleLoadData", addr(m), g.ptr(s)))
		case 3:
			g.use(s, g.call("hipModuleLoadDataEx", addr(m), g.ptr(s), untyped("0"), untyped("nil"), untyped("nil")))
		case 4:
			g.useOther(g.call("cuModuleLoad", addr("cm0"), g.kname()))
		}
	case 12: // unloads
		switch r.n(4) {
		case 0, 1:
			g.use(s, g.call("hipModuleUnload", typed(g.modVar(s))))
		case 2:
			g.p("%s", g.deferCall("hipModuleUnload", typed(g.modVar(s))))
		case 3:
			g.useOther(g.call("cuModuleUnload", typed("cm0")))
		}
	case 13: // functions and globals of a module
		switch r.n(3) {
		case 0:
			g.use(s, g.call("hipModuleGetFunction", addr(r.pick("f0", "f1")), typed(g.modVar(s)), g.kname()))
		case 1:
			g.use(s, g.call("hipModuleGetGlobal", addr(r.pick("dp0", "dp1")), addr("sz"), typed(g.modVar(s)), g.kname()))
		case 2:
			g.useOther(g.call("cuModuleGetFunction", addr("cf0"), typed("cm0"), g.kname()))
		}
	case 14: // launches and kernel arguments
		switch r.n(4) {
		case 0:
			g.p("args = []unsafe.Pointer{unsafe.Pointer(&%s), unsafe.Pointer(&%s)}", g.ptrVar(s), g.ptrVar(s))
		case 1:
			g.p("args = append(args, unsafe.Pointer(&%s))", g.ptrVar(s))
		default:
			one := untyped("1")
			if r.n(2) == 0 {
				g.use(s, g.call("hipModuleLaunchKernel", typed(r.pick("f0", "f1")), one, one, one, untyped("64"), one, one, untyped("0"),
					g.stream(), index("args"), untyped("nil")))
			} else {
				g.use(s, g.call("hipLaunchKernel", g.ptr(s), typed("(_Ctype_dim3{x: 1, y: 1, z: 1})"), typed("(_Ctype_dim3{x: 64, y: 1, z: 1})"),
					index("args"), untyped("0"), g.stream()))
			}
		}
	case 15, 16: // graph nodes
		deps, num := g.depsArgs()
		switch r.n(6) {
		case 0, 1:
			g.use(s, g.call("hipGraphAddMemAllocNode", addr(g.node()), typed("g0"), deps, num, addr("ap0")))
		case 2, 3:
			g.use(s, g.call("hipGraphAddMemFreeNode", addr(g.node()), typed("g0"), deps, num, g.ptr(s)))
		case 4:
			g.use(s, g.call("hipGraphAddKernelNode", addr(g.node()), typed("g0"), deps, num, addr("kp0")))
		case 5:
			g.use(s, g.call("hipGraphAddMemcpyNode1D", addr(g.node()), typed("g0"), deps, num, g.ptr(s), g.ptr(s), g.size(), g.kind()))
		}
	case 17: // dependency arrays and graph bookkeeping
		switch r.n(5) {
		case 0:
			g.p("deps = []_Ctype_hipGraphNode_t{%s, %s}", g.node(), g.node())
		case 1:
			g.p("deps = append(deps, %s)", g.node())
		case 2:
			g.p("deps = deps[:0]")
		case 3:
			g.p("%s = ap0.dptr", g.ptrVar(s))
		case 4:
			g.use(s, g.call("hipGraphCreate", addr("g0"), untyped("0")))
		}
	case 18: // stream capture
		if r.n(2) == 0 {
			g.use(s, g.call("hipStreamBeginCapture", g.stream(), untyped("_Ciconst_hipStreamCaptureModeGlobal")))
		} else {
			g.use(s, g.call("hipStreamEndCapture", g.stream(), addr("g0")))
		}
	case 19: // XNACK environment and guards
		switch r.n(5) {
		case 0:
			g.p("os.Setenv(\"HSA_XNACK\", %q)", r.pick("1", "0", "1"))
		case 1:
			g.p("%s", g.call("hipGetDeviceProperties", addr("prop"), g.device()))
			g.p("if !strings.Contains(_Cfunc_GoString(&prop.gcnArchName[0]), \"xnack+\") {")
			g.ret(s)
			g.p("}")
		case 2:
			attr := r.pick("_Ciconst_hipDeviceAttributePageableMemoryAccess", "_Ciconst_hipDeviceAttributeManagedMemory")
			g.p("%s", g.call("hipDeviceGetAttribute", addr("attr"), untyped(attr), g.device()))
			g.p("if attr != 1 {")
			g.ret(s)
			g.p("}")
		case 3:
			g.use(s, g.call("hipMemAdvise", g.ptr(s), g.size(), untyped("_Ciconst_hipMemAdviseSetReadMostly"), g.device()))
		case 4:
			g.use(s, g.call("hipMemPrefetchAsync", g.ptr(s), g.size(), g.device(), g.stream()))
		}
	case 20: // runtime init and memset
		switch r.n(3) {
		case 0:
			g.use(s, g.call("hipInit", untyped("0")))
		case 1:
			g.use(s, g.call("hipGetDeviceCount", addr("attr")))
		case 2:
			g.use(s, g.call("hipMemset", g.ptr(s), untyped("0"), g.size()))
		}
	case 21: // aliasing
		switch r.n(4) {
		case 0:
			g.p("%s = %s", g.ptrVar(s), g.ptrVar(s))
		case 1:
			g.p("%s = %s", g.modVar(s), g.modVar(s))
		case 2:
			g.p("%s, %s = %s, %s", r.pick("s0", "s1"), r.pick("e0", "e0"), r.pick("s1", "s0", "nil"), "e0")
		case 3:
			g.p("ma = &Mod{m: %s, p: %s, s: s0}", g.modVar(s), g.ptrVar(s))
		}
	case 22, 23: // if / else
		g.p("if %s {", g.cond(s))
		g.indent++
		g.body(s.nested(), 4)
		g.indent--
		if r.n(2) == 0 {
			g.p("} else {")
			g.indent++
			g.body(s.nested(), 4)
			g.indent--
		}
		g.p("}")
	case 24: // loops
		ls := s.nested()
		ls.loop = true
		switch r.n(3) {
		case 0:
			g.p("for i := 0; i < na; i++ {")
		case 1:
			g.p("for range %d {", r.n(4))
		case 2:
			g.p("for %s {", g.cond(s))
		}
		g.indent++
		g.body(ls, 5)
		g.indent--
		g.p("}")
	case 25: // break, continue, return
		if s.loop && r.n(2) == 0 {
			g.p("if %s {", g.cond(s))
			g.indent++
			g.p("%s", r.pick("break", "continue"))
			g.indent--
			g.p("}")
		} else {
			g.p("if %s {", g.cond(s))
			g.ret(s)
			g.p("}")
		}
	case 26: // defer
		g.p("defer func() {")
		g.indent++
		g.body(scope{ret: []string{"return"}, depth: s.depth + 1, method: s.method, test: s.test}, 3)
		g.indent--
		g.p("}()")
	case 27: // goroutines
		g.p("wg.Add(1)")
		g.p("go func() {")
		g.indent++
		g.p("defer wg.Done()")
		g.body(scope{ret: []string{"return"}, depth: s.depth + 1, method: s.method, test: s.test}, 4)
		g.indent--
		g.p("}()")
		if r.n(2) == 0 {
			g.p("wg.Wait()")
		}
	case 28: // closures
		fn := g.fresh("fn")
		g.p("%s := func() error {", fn)
		g.indent++
		g.body(scope{ret: []string{"return err", "return nil"}, depth: s.depth + 1, method: s.method, test: s.test}, 4)
		g.p("return nil")
		g.indent--
		g.p("}")
		switch r.n(3) {
		case 0:
			g.p("_ = %s", fn)
		case 1:
			g.p("err = %s()", fn)
		case 2:
			g.p("if err := %s(); err != nil {", fn)
			g.ret(s)
			g.p("}")
		}
	case 29, 30: // calls of generated functions of this package
		g.callGenerated(s, g, "")
	case 31: // calls of the library
		if g.dep != nil {
			g.callGenerated(s, g.dep, g.dep.name+".")
		} else {
			g.p("ma.Close()")
		}
	case 32: // switch
		g.p("switch na {")
		for i := range 1 + r.n(3) {
			g.p("case %d:", i)
			g.indent++
			g.body(s.nested(), 3)
			g.indent--
		}
		if r.n(2) == 0 {
			g.p("default:")
			g.indent++
			g.body(s.nested(), 3)
			g.indent--
		}
		g.p("}")
	case 34, 35: // idioms: whole sequences real code writes, right or wrong
		g.idiom(s)
	case 36, 37: // calls through interfaces, embedded types, method values, generics
		g.shapedCall(s)
	case 33: // panics and exits
		g.p("if %s {", g.cond(s))
		g.indent++
		g.p("%s", r.pick("panic(\"gpu\")", "os.Exit(1)", "panic(err)"))
		g.indent--
		g.p("}")
	}
}

func (g *pkgGen) cond(s scope) string {
	switch g.r.n(7) {
	case 0:
		return "na > 0"
	case 1:
		return "err != nil"
	case 2:
		return "st != _Ciconst_hipSuccess"
	case 3:
		return g.modVar(s) + " == nil"
	case 4:
		return g.ptrVar(s) + " != nil"
	case 5:
		return "attr == 1"
	}
	return "na%2 == 1"
}

// callGenerated writes a call of one of pkg's generated functions (or of
// Mod.Close), with its results used the usual ways.
func (g *pkgGen) callGenerated(s scope, pkg *pkgGen, qual string) {
	r := g.r
	f := pkg.funcs[r.n(len(pkg.funcs))]
	ptr, mod := g.ptrVar(s), "ma"
	if qual != "" {
		mod = "lm"
	}
	if r.n(4) == 0 {
		g.p("%s.Close()", mod)
		return
	}
	call := fmt.Sprintf("%s%s(%s, %s, %s)", qual, f.name, ptr, mod, r.pick("na", "0", "na+1"))
	switch f.res {
	case resError:
		switch r.n(3) {
		case 0:
			g.p("err = %s", call)
		case 1:
			g.p("if err := %s; err != nil {", call)
			g.ret(s)
			g.p("}")
		case 2:
			g.p("%s", call)
		}
	case resModule:
		switch r.n(3) {
		case 0:
			g.p("%s, err = %s", mod, call)
		case 1:
			g.p("if m, err := %s; err == nil {", call)
			g.indent++
			g.p("%s = m", mod)
			g.indent--
			g.p("}")
		case 2:
			g.p("%s, _ = %s", mod, call)
		}
	case resPointer:
		g.p("%s = %s", g.ptrVar(s), call)
	case resNone:
		if r.n(3) == 0 {
			g.p("defer %s", call)
		} else {
			g.p("%s", call)
		}
	case resBool:
		g.p("if !%s {", call)
		if s.test && r.n(2) == 0 {
			g.indent++
			g.p("t.Skip(\"no XNACK\")")
			g.indent--
		} else {
			g.ret(s)
		}
		g.p("}")
	}
}

// imports writes the import block every generated file shares, and uses each
// import once.
func (g *pkgGen) imports(extra ...string) {
	paths := append([]string{"errors", "os", "strings", "sync", "unsafe"}, extra...)
	if g.dep != nil {
		paths = append(paths, g.dep.path)
	}
	g.p("import (")
	for _, path := range paths {
		g.p("\t%q", path)
	}
	g.p(")")
	g.p("")
	g.p("var _ = errors.New")
	g.p("var _ = os.Setenv")
	g.p("var _ = strings.Contains")
	g.p("var _ sync.WaitGroup")
	g.p("var _ unsafe.Pointer")
	if g.dep != nil {
		g.p("var _ = %s.F0", g.dep.name)
	}
	g.p("")
}

// prologue declares what a generated function's parameters would be, for
// bodies without them (init, main, tests, methods), then the locals.
func (g *pkgGen) prologue() {
	g.p("var pa unsafe.Pointer")
	g.p("var ma *Mod")
	g.p("var na int")
	g.locals()
}

// idiom writes a sequence of statements the way real code orders them, so
// that the checks' interesting cases (a free node after a kernel node on the
// same memory, a read after a copy) come up more often than random
// statements would make them.
func (g *pkgGen) idiom(s scope) {
	r := g.r
	switch r.n(5) {
	case 0, 1: // graph allocation, a kernel node using it, then a free node
		p := r.pick("p1", "p2", "ap0.dptr")
		g.use(s, g.call("hipGraphAddMemAllocNode", addr("n0"), typed("g0"), untyped("nil"), untyped("0"), addr("ap0")))
		if p != "ap0.dptr" {
			g.p("%s = ap0.dptr", p)
		}
		if r.n(2) == 0 {
			g.p("args = []unsafe.Pointer{unsafe.Pointer(&%s)}", p)
			g.p("kp0.kernelParams = &args[0]")
			g.use(s, g.call("hipGraphAddKernelNode", addr("n1"), typed("g0"), addr("n0"), untyped("1"), addr("kp0")))
		}
		switch r.n(3) {
		case 0:
			g.p("deps = []_Ctype_hipGraphNode_t{n0, n1}")
			g.use(s, g.call("hipGraphAddMemFreeNode", addr("n2"), typed("g0"), index("deps"), typed("_Ctype_size_t(len(deps))"), typed(p)))
		case 1:
			g.use(s, g.call("hipGraphAddMemFreeNode", addr("n2"), typed("g0"), addr(r.pick("n0", "n1")), untyped("1"), typed(p)))
		case 2:
			g.use(s, g.call("hipGraphAddMemFreeNode", addr("n2"), typed("g0"), addr("n1"), untyped("1"), typed(p)))
			g.use(s, g.call(r.pick("hipGraphAddMemFreeNode"), addr("n2"), typed("g0"), addr("n2"), untyped("1"), typed(p)))
		}
	case 2: // stream-ordered allocation, in or out of capture, freed by a node
		if r.n(2) == 0 {
			g.use(s, g.call("hipStreamBeginCapture", typed("s0"), untyped("_Ciconst_hipStreamCaptureModeGlobal")))
		}
		g.use(s, g.call("hipMallocAsync", addr("p1"), g.size(), typed("s0")))
		if r.n(2) == 0 {
			g.use(s, g.call("hipStreamEndCapture", typed("s0"), addr("g0")))
		}
		g.use(s, g.call("hipGraphAddMemFreeNode", addr("n2"), typed("g0"), untyped("nil"), untyped("0"), typed("p1")))
	case 3: // device-to-device copy, then a read, ordered or not
		g.use(s, g.call("hipMemcpy", typed("p1"), typed("p2"), g.size(), untyped("_Ciconst_hipMemcpyDeviceToDevice")))
		switch r.n(3) {
		case 0:
			g.use(s, g.call("hipDeviceSynchronize"))
		case 1:
			g.use(s, g.call("hipStreamCreateWithFlags", addr("s1"), untyped("_Ciconst_hipStreamNonBlocking")))
		}
		g.use(s, g.call("hipMemcpyAsync", typed("unsafe.Pointer(&buf[0])"), typed("p1"), g.size(), untyped("_Ciconst_hipMemcpyDeviceToHost"), g.stream()))
	case 4: // a module's whole life
		g.use(s, g.call("hipModuleLoad", addr("m0"), g.kname()))
		if r.n(2) == 0 {
			g.p("%s", g.deferCall("hipModuleUnload", typed("m0")))
		}
		g.use(s, g.call("hipModuleGetFunction", addr("f0"), typed("m0"), g.kname()))
		g.use(s, g.call("hipModuleLaunchKernel", typed("f0"), untyped("1"), untyped("1"), untyped("1"), untyped("64"), untyped("1"), untyped("1"), untyped("0"),
			g.stream(), index("args"), untyped("nil")))
		if r.n(2) == 0 {
			g.use(s, g.call("hipModuleUnload", typed("m0")))
		}
	}
}
