// Package handles ties function handles to their modules through the
// shapes library code uses: a handle and its module stored into fields of
// one value from locals (&plugin{mod: m, entry: fn}), a helper that looks a
// kernel up in the module it is given, and a helper that launches the
// handle it is given.
package handles

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

type plugin struct {
	mod   C.hipModule_t
	entry C.hipFunction_t
}

func open(path, name *C.char) *plugin { // want open:"returnsModule\\(result=0, status=-1\\)"
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		panic("load")
	}
	var fn C.hipFunction_t
	if C.hipModuleGetFunction(&fn, m, name) != C.hipSuccess {
		C.hipModuleUnload(m)
		panic("lookup")
	}
	return &plugin{mod: m, entry: fn}
}

func (p *plugin) close() { C.hipModuleUnload(p.mod) } // want close:"unloads\\[-1\\]"

func (p *plugin) run() { // want run:"borrows\\[-1\\] uses\\[-1\\]"
	C.hipModuleLaunchKernel(p.entry, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)
}

// Hazard: run launches the entry kernel of the module close unloaded.
func runClosed(path, name *C.char) {
	p := open(path, name)
	p.close()
	p.run() // want `run uses module p after it was unloaded`
}

// Twin: it runs first.
func runThenClose(path, name *C.char) {
	p := open(path, name)
	p.run()
	p.close()
}

// lookup takes a kernel from the module it is given.
func lookup(m C.hipModule_t, name *C.char) C.hipFunction_t { // want lookup:"borrows\\[0\\] uses\\[0\\]" lookup:"returnsFunction\\(result=0, param=0\\)"
	var fn C.hipFunction_t
	if C.hipModuleGetFunction(&fn, m, name) != C.hipSuccess {
		return nil
	}
	return fn
}

// launch launches the kernel it is given.
func launch(fn C.hipFunction_t) { // want launch:"launches\\[0\\]"
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)
}

// Hazard: the kernel lookup took from m is launched, by the helper, after
// m's unload.
func launchAfterUnload(path, name *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	fn := lookup(m, name)
	C.hipModuleUnload(m)
	launch(fn) // want `launch launches fn, whose module m was unloaded`
}

// Hazard: the same kernel launched in place.
func launchInPlaceAfterUnload(path, name *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	fn := lookup(m, name)
	C.hipModuleUnload(m)
	C.hipModuleLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil) // want `hipModuleLaunchKernel launches fn, whose module m was unloaded`
}

// Twin: launched before the unload.
func launchBeforeUnload(path, name *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	defer C.hipModuleUnload(m)
	launch(lookup(m, name))
	fn := lookup(m, name)
	launch(fn)
}

// kernel wraps a handle in a struct; its method launches it.
type kernel struct{ fn C.hipFunction_t }

func (k kernel) launch() { // want launch:"launches\\[-1\\]"
	C.hipModuleLaunchKernel(k.fn, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)
}

// Hazard: a wrapper made from the handle after the unload.
func wrappedAfterUnload(path, name *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	fn := lookup(m, name)
	C.hipModuleUnload(m)
	kernel{fn: fn}.launch() // want `launch launches fn, whose module m was unloaded`
}

// Twin: launched first.
func wrappedBeforeUnload(path, name *C.char) {
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return
	}
	fn := lookup(m, name)
	kernel{fn: fn}.launch()
	C.hipModuleUnload(m)
}
