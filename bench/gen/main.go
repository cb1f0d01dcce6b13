// Command gen writes a HIP-heavy Go module for benchmarking hiplint: one
// wrapper package (hw, in the style of Go HIP bindings) and -n packages whose
// functions load and unload modules, copy device memory and synchronize,
// directly through cgo and through wrappers exported by the packages they
// import, so that hiplint's facts cross package boundaries.
//
// Usage:
//
//	go run ./bench/gen -n 200 -funcs 24 -include $PWD/testdata/include -o /tmp/hipbench
//
// Package i imports hw and packages (i-1)/2 and (i-1)/3 (when they exist):
// the import graph is a DAG of depth about log2(n), as in real modules,
// where the package count grows much faster than the depth. Every fourth
// package uses no cgo itself and reaches the runtime only through wrappers.
// Every tenth package has one real hazard (a module leaked on an early
// return), so the output is not empty. The output is deterministic.
//
// With -goto N it writes instead a module of one package, dispatch, holding
// one goto-heavy function of N labels (internal/gotogen; -unused: every odd
// label has no goto naming it, which Go rejects but hiplint analyzes):
//
//	go run ./bench/gen -goto 2000 -include $PWD/testdata/include -o /tmp/goto2000
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"

	"github.com/hiplint/hiplint/internal/gotogen"
)

func main() {
	n := flag.Int("n", 200, "number of packages")
	funcs := flag.Int("funcs", 24, "functions per package")
	include := flag.String("include", "", "absolute path of hiplint's testdata/include (the fixture headers)")
	out := flag.String("o", "", "output directory (created; must not exist or be empty)")
	labels := flag.Int("goto", 0, "write one goto-heavy function of this many labels instead (internal/gotogen)")
	unused := flag.Bool("unused", false, "with -goto: leave every odd label unused")
	flag.Parse()
	if *include == "" || *out == "" || !filepath.IsAbs(*include) {
		log.Fatal("gen: -include (absolute) and -o are required")
	}
	g := &generator{n: *n, funcs: *funcs, include: *include}
	var files map[string][]byte
	if *labels > 0 {
		files = map[string][]byte{
			"go.mod": []byte("module " + modPath + "\n\ngo 1.26\n"),
			"dispatch/dispatch.go": g.gofmt("dispatch", gotogen.Package("dispatch", *include,
				gotogen.Options{Labels: *labels, Unused: *unused})),
		}
	} else {
		files = g.module()
	}
	for name, data := range files {
		path := filepath.Join(*out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

type generator struct {
	n, funcs int
	include  string
}

const modPath = "hipbench"

func pkgName(i int) string { return fmt.Sprintf("p%04d", i) }

// imports returns the generated packages that package i imports.
func imports(i int) []int {
	var deps []int
	for _, d := range []int{(i - 1) / 2, (i - 1) / 3} {
		if i > 0 && d < i && (len(deps) == 0 || deps[0] != d) {
			deps = append(deps, d)
		}
	}
	return deps
}

func usesCgo(i int) bool { return i%4 != 3 }

func (g *generator) module() map[string][]byte {
	files := map[string][]byte{
		"go.mod":   []byte("module " + modPath + "\n\ngo 1.26\n"),
		"hw/hw.go": g.gofmt("hw/hw.go", fmt.Sprintf(hwSource, g.include)),
	}
	for i := range g.n {
		name := pkgName(i)
		files[name+"/"+name+".go"] = g.gofmt(name, g.pkg(i))
	}
	return files
}

func (g *generator) gofmt(name, src string) []byte {
	out, err := format.Source([]byte(src))
	if err != nil {
		log.Fatalf("gen: %s: %v\n%s", name, err, src)
	}
	return out
}

const hwSource = `// Package hw is a thin Go wrapper over the HIP runtime.
package hw

// #cgo CFLAGS: -I%s
// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"unsafe"
)

type Error C.hipError_t

func (e Error) Error() string { return fmt.Sprintf("hip error %%d", int(e)) }

func result(r C.hipError_t) error {
	if r != C.hipSuccess {
		return Error(r)
	}
	return nil
}

// Module owns one loaded code object.
type Module struct{ h C.hipModule_t }

// Function is a kernel borrowed from a Module.
type Function struct{ f C.hipFunction_t }

// Load loads a code object file.
func Load(path string) (*Module, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	m := &Module{}
	if err := result(C.hipModuleLoad(&m.h, cpath)); err != nil {
		return nil, err
	}
	return m, nil
}

// Function looks a kernel up by name.
func (m *Module) Function(name string) (Function, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f Function
	err := result(C.hipModuleGetFunction(&f.f, m.h, cname))
	return f, err
}

// Launch runs f on the null stream.
func (m *Module) Launch(f Function, blocks int) error {
	return result(C.hipModuleLaunchKernel(f.f, C.uint(blocks), 1, 1, 256, 1, 1, 0, nil, nil, nil))
}

// Unload releases the module.
func (m *Module) Unload() error { return result(C.hipModuleUnload(m.h)) }

// Malloc allocates device memory.
func Malloc(size int) (unsafe.Pointer, error) {
	var p unsafe.Pointer
	err := result(C.hipMalloc(&p, C.size_t(size)))
	return p, err
}

// Free releases device memory.
func Free(p unsafe.Pointer) error { return result(C.hipFree(p)) }

// CopyD2D copies device memory; it returns before the copy lands.
func CopyD2D(dst, src unsafe.Pointer, size int) error {
	return result(C.hipMemcpy(dst, src, C.size_t(size), C.hipMemcpyDeviceToDevice))
}

// Sync waits for the current device.
func Sync() error { return result(C.hipDeviceSynchronize()) }

// Checksum reads device-visible memory on the host.
func Checksum(p unsafe.Pointer, count int) (sum float32) {
	for _, v := range unsafe.Slice((*float32)(p), count) {
		sum += v
	}
	return sum
}
`

// pkg returns the source of package i.
func (g *generator) pkg(i int) string {
	var b bytes.Buffer
	name := pkgName(i)
	deps := imports(i)
	cgo := usesCgo(i)
	fmt.Fprintf(&b, "// Package %s is generated by hiplint's bench/gen.\npackage %s\n\n", name, name)
	if cgo {
		fmt.Fprintf(&b, "// #cgo CFLAGS: -I%s\n// #include <hip/hip_runtime_api.h>\n// #include <stdlib.h>\nimport \"C\"\n\n", g.include)
	}
	b.WriteString("import (\n\t\"errors\"\n\t\"unsafe\"\n\n\t\"" + modPath + "/hw\"\n")
	for _, d := range deps {
		fmt.Fprintf(&b, "\t%q\n", modPath+"/"+pkgName(d))
	}
	b.WriteString(")\n\n")
	b.WriteString("var _ = errors.New\nvar _ unsafe.Pointer\n\n")

	// Wrappers that callers in other packages use: a constructor, a type
	// whose method unloads, a copy into the caller's memory, a sync.
	b.WriteString(`// Kernels owns a module for the package's kernels.
type Kernels struct{ mod *hw.Module }

// Open loads the package's code object.
func Open(path string) (*Kernels, error) {
	m, err := LoadModule(path)
	if err != nil {
		return nil, err
	}
	return &Kernels{mod: m}, nil
}

// Close unloads the module.
func (k *Kernels) Close() error { return k.mod.Unload() }

`)
	// LoadModule and CopyInto go through the first dependency's wrappers, so
	// facts chain across packages.
	if len(deps) > 0 {
		d := pkgName(deps[0])
		fmt.Fprintf(&b, "// LoadModule loads a code object through %s.\nfunc LoadModule(path string) (*hw.Module, error) { return %s.LoadModule(path) }\n\n", d, d)
		fmt.Fprintf(&b, "// CopyInto copies device memory through %s; it returns before the copy lands.\nfunc CopyInto(dst, src unsafe.Pointer, n int) error { return %s.CopyInto(dst, src, n) }\n\n", d, d)
		w := pkgName(deps[len(deps)-1])
		fmt.Fprintf(&b, "// Wait waits for the device through %s.\nfunc Wait() error { return %s.Wait() }\n\n", w, w)
	} else {
		b.WriteString("// LoadModule loads a code object.\nfunc LoadModule(path string) (*hw.Module, error) { return hw.Load(path) }\n\n")
		b.WriteString("// CopyInto copies device memory; it returns before the copy lands.\nfunc CopyInto(dst, src unsafe.Pointer, n int) error { return hw.CopyD2D(dst, src, n) }\n\n")
		b.WriteString("// Wait waits for the device.\nfunc Wait() error { return hw.Sync() }\n\n")
	}

	for f := range g.funcs {
		dep := "" // the package's own wrappers when it imports no generated package
		if len(deps) > 0 {
			dep = pkgName(deps[f%len(deps)]) + "."
		}
		kind := f % 8
		if !cgo && (kind == 1 || kind == 4 || kind == 5) {
			kind = 0 // no direct C calls without cgo
		}
		fn := fmt.Sprintf("F%02d", f)
		switch kind {
		case 0: // module through the dependency's constructor, unloaded by defer
			fmt.Fprintf(&b, `func %s(path string, blocks int) error {
	m, err := %sLoadModule(path)
	if err != nil {
		return err
	}
	defer m.Unload()
	k, err := m.Function("k%d")
	if err != nil {
		return err
	}
	return m.Launch(k, blocks)
}

`, fn, dep, f)
		case 1: // module through C directly, unloaded on every path
			fmt.Fprintf(&b, `func %s(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if r := C.hipModuleLoad(&m, cpath); r != C.hipSuccess {
		return errors.New("load")
	}
	var f C.hipFunction_t
	cname := C.CString("k%d")
	defer C.free(unsafe.Pointer(cname))
	if r := C.hipModuleGetFunction(&f, m, cname); r != C.hipSuccess {
		C.hipModuleUnload(m)
		return errors.New("get function")
	}
	if r := C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, nil, nil); r != C.hipSuccess {
		C.hipModuleUnload(m)
		return errors.New("launch")
	}
	C.hipModuleUnload(m)
	return nil
}

`, fn, f)
		case 2: // copy through the dependency's wrapper, sync, read
			fmt.Fprintf(&b, `func %s(dst, src unsafe.Pointer, n int) (float32, error) {
	if err := %sCopyInto(dst, src, n); err != nil {
		return 0, err
	}
	if err := %sWait(); err != nil {
		return 0, err
	}
	return hw.Checksum(dst, n/4), nil
}

`, fn, dep, dep)
		case 3: // the package's own type: open, use, close
			fmt.Fprintf(&b, `func %s(path string, blocks int) error {
	k, err := Open(path)
	if err != nil {
		return err
	}
	defer k.Close()
	f, err := k.mod.Function("k%d")
	if err != nil {
		return err
	}
	for i := 0; i < blocks; i++ {
		if err := k.mod.Launch(f, i+1); err != nil {
			return err
		}
	}
	return nil
}

`, fn, f)
		case 4: // direct device-to-device copy, synchronize, read back
			fmt.Fprintf(&b, `func %s(n int) (float32, error) {
	var src, dst unsafe.Pointer
	if r := C.hipMalloc(&src, C.size_t(n)); r != C.hipSuccess {
		return 0, errors.New("malloc")
	}
	defer C.hipFree(src)
	if r := C.hipMalloc(&dst, C.size_t(n)); r != C.hipSuccess {
		return 0, errors.New("malloc")
	}
	defer C.hipFree(dst)
	C.hipMemcpy(dst, src, C.size_t(n), C.hipMemcpyDeviceToDevice)
	if r := C.hipDeviceSynchronize(); r != C.hipSuccess {
		return 0, errors.New("sync")
	}
	host := make([]float32, n/4)
	C.hipMemcpyDtoH(unsafe.Pointer(&host[0]), C.hipDeviceptr_t(dst), C.size_t(n))
	var sum float32
	for _, v := range host {
		sum += v
	}
	return sum, nil
}

`, fn)
		case 5: // stream copy and stream sync
			fmt.Fprintf(&b, `func %s(dst, src unsafe.Pointer, n int) error {
	var s C.hipStream_t
	if r := C.hipStreamCreate(&s); r != C.hipSuccess {
		return errors.New("stream")
	}
	defer C.hipStreamDestroy(s)
	if r := C.hipMemcpyAsync(dst, src, C.size_t(n), C.hipMemcpyDeviceToDevice, s); r != C.hipSuccess {
		return errors.New("copy")
	}
	if r := C.hipStreamSynchronize(s); r != C.hipSuccess {
		return errors.New("sync")
	}
	_ = hw.Checksum(dst, n/4)
	return nil
}

`, fn)
		case 6: // allocation wrappers with a loop of copies
			fmt.Fprintf(&b, `func %s(bufs [][]byte, n int) error {
	p, err := hw.Malloc(n)
	if err != nil {
		return err
	}
	defer hw.Free(p)
	q, err := hw.Malloc(n)
	if err != nil {
		return err
	}
	defer hw.Free(q)
	for i := range bufs {
		if len(bufs[i]) < n {
			continue
		}
		if err := CopyInto(q, p, n); err != nil {
			return err
		}
	}
	return Wait()
}

`, fn)
		default: // plain Go: the bulk of any real package
			fmt.Fprintf(&b, `func %s(xs []int, k int) (int, map[int]int) {
	counts := make(map[int]int)
	total := 0
	for i, x := range xs {
		switch {
		case x%%k == 0:
			counts[x]++
		case i%%2 == 0:
			total += x
		default:
			total -= x / (k + 1)
		}
	}
	return total, counts
}

`, fn)
		}
	}
	if i%10 == 9 { // one real hazard: the module leaks on the early return
		b.WriteString(`// Leaky forgets to unload on the error path.
func Leaky(path string) error {
	m, err := hw.Load(path)
	if err != nil {
		return err
	}
	if _, err := m.Function("k"); err != nil {
		return err
	}
	return m.Unload()
}
`)
	}
	return b.String()
}
