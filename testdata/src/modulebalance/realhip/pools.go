package realhip

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// codeSet keeps every module its add method loads, in a slice; release
// unloads them all.
type codeSet struct {
	loaded []C.hipModule_t
}

func (cs *codeSet) add(blob string) error { // want add:"loadsInto\\[-1\\]\\(status=0\\) adds\\[-1\\]"
	cblob := C.CString(blob)
	defer C.free(unsafe.Pointer(cblob))
	var m C.hipModule_t
	if st := C.hipModuleLoadData(&m, unsafe.Pointer(cblob)); st != C.hipSuccess {
		return fmt.Errorf("hipModuleLoadData: %d", int(st))
	}
	cs.loaded = append(cs.loaded, m)
	return nil
}

func (cs *codeSet) release() { // want release:"unloads\\[-1\\]"
	for _, m := range cs.loaded {
		C.hipModuleUnload(m)
	}
	cs.loaded = nil
}

// Hazard: the first failing add returns and drops the set with every module
// the earlier iterations added; the cleanup is deferred only after the loop.
func buildSetLeak(blobs []string) (int, error) {
	cs := &codeSet{}
	for _, b := range blobs {
		if err := cs.add(b); err != nil { // want `modules kept in cs \(loaded by add\) are not unloaded on this return`
			return 0, err
		}
	}
	defer cs.release()
	return len(cs.loaded), nil
}

// Safe twin: the cleanup is deferred right after the set is made.
func buildSetDeferred(blobs []string) (int, error) {
	cs := &codeSet{}
	defer cs.release()
	for _, b := range blobs {
		if err := cs.add(b); err != nil {
			return 0, err
		}
	}
	return len(cs.loaded), nil
}

// Safe twin: the error path releases what was added (a failed first add
// leaves nothing, and release then unloads nothing).
func buildSetReleased(blobs []string) (int, error) {
	cs := &codeSet{}
	for _, b := range blobs {
		if err := cs.add(b); err != nil {
			cs.release()
			return 0, err
		}
	}
	n := len(cs.loaded)
	cs.release()
	return n, nil
}

// Safe twin: the set is returned to the caller, which owns it from then on;
// the error path releases it first.
func newCodeSet(blobs []string) (*codeSet, error) { // want newCodeSet:"returnsModule\\(result=0, status=1\\)"
	cs := &codeSet{}
	for _, b := range blobs {
		if err := cs.add(b); err != nil {
			cs.release()
			return nil, err
		}
	}
	return cs, nil
}

// Hazard: the caller of the constructor drops the set on its error path.
func useCodeSetLeak(blobs []string, prepare func() error) error {
	cs, err := newCodeSet(blobs) // want `module cs loaded by newCodeSet is not unloaded on this return`
	if err != nil {
		return err
	}
	if err := prepare(); err != nil {
		return err
	}
	cs.release()
	return nil
}

// Safe twin: the set is returned to the caller on every path, the partial
// one too: the caller releases it.
func partialCodeSet(blobs []string) (*codeSet, error) { // want partialCodeSet:"returnsModule\\(result=0, status=1\\)"
	cs := new(codeSet)
	for _, b := range blobs {
		if err := cs.add(b); err != nil {
			return cs, err
		}
	}
	return cs, nil
}

// Safe: a package-level set lives as long as the process.
var sharedSet = &codeSet{}

func loadShared(blobs []string) error {
	for _, b := range blobs {
		if err := sharedSet.add(b); err != nil {
			return err
		}
	}
	return nil
}

// Safe: the local points to the server's set, which outlives the function.
type server struct{ set *codeSet }

func (s *server) preload(blobs []string) error {
	cs := s.set
	for _, b := range blobs {
		if err := cs.add(b); err != nil {
			return err
		}
	}
	return nil
}

// Hazard: a set held by value; the second add's failure drops the first.
func pairByValueLeak(a, b string) error {
	var cs codeSet
	if err := cs.add(a); err != nil { // want `modules kept in cs \(loaded by add\) are not unloaded on this return`
		return err
	}
	if err := cs.add(b); err != nil {
		return err
	}
	cs.release()
	return nil
}

// Safe twin: the deferred release binds &cs and sees every module added.
func pairByValue(a, b string) error {
	var cs codeSet
	defer cs.release()
	if err := cs.add(a); err != nil {
		return err
	}
	return cs.add(b)
}

// kernelTable keeps modules by name, in a map; it adds through a pointer
// parameter rather than a receiver.
type kernelTable struct {
	byName map[string]C.hipModule_t
}

func putKernel(t *kernelTable, name, path string) error { // want putKernel:"loadsInto\\[0\\]\\(status=0\\) adds\\[0\\]"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	t.byName[name] = m
	return nil
}

func (t *kernelTable) drop() { // want drop:"unloads\\[-1\\]"
	for name, m := range t.byName {
		C.hipModuleUnload(m)
		delete(t.byName, name)
	}
}

// Hazard: the table is dropped when the second file fails to load.
func tableLeak(pathA, pathB string) error {
	t := &kernelTable{byName: map[string]C.hipModule_t{}}
	if err := putKernel(t, "a", pathA); err != nil { // want `modules kept in t \(loaded by putKernel\) are not unloaded on this return`
		return err
	}
	if err := putKernel(t, "b", pathB); err != nil {
		return err
	}
	t.drop()
	return nil
}

// Safe twin: the error path drops the table's modules.
func tableDropped(pathA, pathB string) error {
	t := &kernelTable{byName: map[string]C.hipModule_t{}}
	if err := putKernel(t, "a", pathA); err != nil {
		return err
	}
	if err := putKernel(t, "b", pathB); err != nil {
		t.drop()
		return err
	}
	t.drop()
	return nil
}

// kernelFile loads into a local and then stores the module in its field:
// like loading into the field, the caller owns it.
type kernelFile struct {
	mod C.hipModule_t
}

func (k *kernelFile) open(path string) error { // want open:"loadsInto\\[-1\\]\\(status=0\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, cpath)); err != nil {
		return err
	}
	k.mod = m
	return nil
}

func (k *kernelFile) close() error { // want close:"unloads\\[-1\\]"
	return check(C.hipModuleUnload(k.mod))
}

// Hazard: the kernel lookup fails and the opened file's module leaks.
func openKernelLeak(path string, name *C.char) error {
	var k kernelFile
	if err := k.open(path); err != nil { // want `module k loaded by open is not unloaded on this return`
		return err
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, k.mod, name)); err != nil {
		return err
	}
	return k.close()
}

// Safe twin: the close is deferred after the open's check.
func openKernel(path string, name *C.char) error {
	var k kernelFile
	if err := k.open(path); err != nil {
		return err
	}
	defer k.close()
	var f C.hipFunction_t
	return check(C.hipModuleGetFunction(&f, k.mod, name))
}

// appendModule appends through a pointer to the caller's slice.
func appendModule(mods *[]C.hipModule_t, path *C.char) error { // want appendModule:"loadsInto\\[0\\]\\(status=0\\) adds\\[0\\]"
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return err
	}
	*mods = append(*mods, m)
	return nil
}

// Hazard: the local slice is dropped on the first error.
func appendAllLeak(paths []*C.char) ([]C.hipModule_t, error) { // want appendAllLeak:"returnsModule\\(result=0, status=1\\)"
	var mods []C.hipModule_t
	for _, p := range paths {
		if err := appendModule(&mods, p); err != nil { // want `modules kept in mods \(loaded by appendModule\) are not unloaded on this return`
			return nil, err
		}
	}
	return mods, nil
}

// Safe twin: the error path unloads what the slice holds.
func appendAll(paths []*C.char) ([]C.hipModule_t, error) { // want appendAll:"returnsModule\\(result=0, status=1\\)"
	var mods []C.hipModule_t
	for _, p := range paths {
		if err := appendModule(&mods, p); err != nil {
			for _, m := range mods {
				C.hipModuleUnload(m)
			}
			return nil, err
		}
	}
	return mods, nil
}

// runtimeCtx is shared by the workers that point to it.
type runtimeCtx struct{ mods []C.hipModule_t }

type worker struct{ ctx *runtimeCtx }

// stash appends to the shared context, not to the worker: its callers own
// nothing.
func (w *worker) stash(path *C.char) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return err
	}
	w.ctx.mods = append(w.ctx.mods, m)
	return nil
}

// Safe: the modules belong to the shared context.
func stashAll(ctx *runtimeCtx, paths []*C.char) error {
	w := &worker{ctx: ctx}
	for _, p := range paths {
		if err := w.stash(p); err != nil {
			return err
		}
	}
	return nil
}
