package plugins

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import "unsafe"

// loadRaw loads modules by path into a slice, for a plugin host that keeps
// raw handles. On failure it unloads what it loaded with an index loop.
func loadRaw(paths []string) ([]C.hipModule_t, error) {
	mods := make([]C.hipModule_t, 0, len(paths))
	for _, path := range paths {
		cpath := C.CString(path)
		var m C.hipModule_t
		r := C.hipModuleLoad(&m, cpath)
		C.free(unsafe.Pointer(cpath))
		if err := wrap("hipModuleLoad", r); err != nil {
			for i := range mods {
				C.hipModuleUnload(mods[i])
			}
			return nil, err
		}
		mods = append(mods, m)
	}
	return mods, nil
}

// unloadRaw unloads every raw handle by index.
func unloadRaw(mods []C.hipModule_t) { // want unloadRaw:"unloads\\[0\\]"
	for i := range mods {
		C.hipModuleUnload(mods[i])
	}
}

// countKernels loads the modules, counts those exporting "run" and unloads
// them all by index.
func countKernels(paths []string) (int, error) {
	mods, err := loadRaw(paths)
	if err != nil {
		return 0, err
	}
	defer unloadRaw(mods)
	name := C.CString("run")
	defer C.free(unsafe.Pointer(name))
	n := 0
	for i := range mods {
		var fn C.hipFunction_t
		if C.hipModuleGetFunction(&fn, mods[i], name) == C.hipSuccess {
			n++
		}
	}
	return n, nil
}

// countTwice unloads the set by index and then again through unloadRaw.
// Hazard: each module is unloaded twice.
func countTwice(paths []string) (int, error) {
	mods, err := loadRaw(paths)
	if err != nil {
		return 0, err
	}
	n := len(mods)
	for i := range mods {
		C.hipModuleUnload(mods[i])
	}
	unloadRaw(mods) // MISSED: a slice of modules returned by a loader (loadRaw) is not tracked by the caller (no returnsModule for a slice result), so neither unload is seen; the index loop alone is handled (testdata/src/modulebalance/indexloop)
	return n, nil
}

// runAll runs every plugin and closes them; Close is idempotent, so the
// deferred CloseAll after the explicit closes unloads nothing twice.
func runAll(paths []string) error {
	ps, err := LoadPaths(paths)
	if err != nil {
		return err
	}
	defer CloseAll(ps)
	for _, p := range ps {
		if err := p.Run(1024, nil); err != nil {
			return err
		}
		p.Close()
	}
	return nil
}

// runClosed closes a plugin and then runs it. Hazard: its module is gone.
func runClosed(path string) error {
	p, err := Open(path)
	if err != nil {
		return err
	}
	p.Close()
	return p.Run(64, nil) // want `after`
}
