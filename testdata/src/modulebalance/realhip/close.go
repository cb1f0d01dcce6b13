package realhip

// #include <hip/hip_runtime_api.h>
// #include <stdlib.h>
import "C"

import (
	"sync"
	"testing"
	"unsafe"
)

// FlagModule's Close is idempotent: a loaded flag guards the unload.
type FlagModule struct {
	m      C.hipModule_t
	loaded bool
}

func OpenFlag(path *C.char) (*FlagModule, error) { // want OpenFlag:"returnsModule\\(result=0, status=1\\)"
	fm := &FlagModule{}
	if err := check(C.hipModuleLoad(&fm.m, path)); err != nil {
		return nil, err
	}
	fm.loaded = true
	return fm, nil
}

func (fm *FlagModule) Close() { // want Close:"unloads\\[-1\\] idempotent\\[-1\\]"
	if fm.loaded {
		C.hipModuleUnload(fm.m)
		fm.loaded = false
	}
}

// OpenFlagFile takes a Go path.
func OpenFlagFile(path string) (*FlagModule, error) { // want OpenFlagFile:"returnsModule\\(result=0, status=1\\)"
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	fm, err := OpenFlag(cpath)
	if err != nil {
		return nil, err
	}
	return fm, nil
}

// NilModule's Close zeroes the handle and checks it.
type NilModule struct{ m C.hipModule_t }

func OpenNil(path *C.char) (*NilModule, error) { // want OpenNil:"returnsModule\\(result=0, status=1\\)"
	nm := &NilModule{}
	if err := check(C.hipModuleLoad(&nm.m, path)); err != nil {
		return nil, err
	}
	return nm, nil
}

func (nm *NilModule) Close() error { // want Close:"unloads\\[-1\\] idempotent\\[-1\\]"
	if nm.m == nil {
		return nil
	}
	err := check(C.hipModuleUnload(nm.m))
	nm.m = nil
	return err
}

// OnceModule unloads through a sync.Once.
type OnceModule struct {
	m    C.hipModule_t
	once sync.Once
}

func OpenOnce(path *C.char) (*OnceModule, error) { // want OpenOnce:"returnsModule\\(result=0, status=1\\)"
	om := &OnceModule{}
	if err := check(C.hipModuleLoad(&om.m, path)); err != nil {
		return nil, err
	}
	return om, nil
}

func (om *OnceModule) Close() { // want Close:"unloads\\[-1\\] idempotent\\[-1\\]"
	om.once.Do(func() { C.hipModuleUnload(om.m) })
}

// PlainModule's Close is not guarded.
type PlainModule struct{ m C.hipModule_t }

func OpenPlain(path *C.char) (*PlainModule, error) { // want OpenPlain:"returnsModule\\(result=0, status=1\\)"
	pm := &PlainModule{}
	if err := check(C.hipModuleLoad(&pm.m, path)); err != nil {
		return nil, err
	}
	return pm, nil
}

func (pm *PlainModule) Close() error { // want Close:"unloads\\[-1\\]"
	return check(C.hipModuleUnload(pm.m))
}

// Safe: deferred Close plus an explicit one on the happy path.
func flagDeferredAndExplicit(path *C.char, early bool) error {
	fm, err := OpenFlag(path)
	if err != nil {
		return err
	}
	defer fm.Close()
	if early {
		return nil
	}
	fm.Close()
	return nil
}

// Safe: Close called twice.
func nilClosedTwice(path *C.char) {
	nm, err := OpenNil(path)
	if err != nil {
		return
	}
	nm.Close()
	nm.Close()
}

// Safe: sync.Once, deferred and explicit.
func onceDeferredAndExplicit(path *C.char) {
	om, err := OpenOnce(path)
	if err != nil {
		return
	}
	defer om.Close()
	om.Close()
}

// Hazard twin: the unguarded Close, deferred and explicit.
func plainDeferredAndExplicit(path *C.char) {
	pm, err := OpenPlain(path)
	if err != nil {
		return
	}
	defer pm.Close()
	pm.Close() // want `module pm is unloaded here and again by a deferred unload`
}

// Hazard twin: the unguarded Close called twice.
func plainClosedTwice(path *C.char) {
	pm, err := OpenPlain(path)
	if err != nil {
		return
	}
	pm.Close()
	pm.Close() // want `module pm is unloaded twice`
}

// A test helper whose t.Cleanup unloads the module it returns.
func loadForTest(t testing.TB, path *C.char) C.hipModule_t {
	t.Helper()
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { C.hipModuleUnload(m) })
	return m
}

// Safe: the helper's cleanup unloads it.
func useTestHelper(t *testing.T, path, name *C.char) {
	m := loadForTest(t, path)
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		t.Fatal(err)
	}
}

// Safe: a method value registered as the cleanup.
func cleanupMethodValue(t *testing.T, path *C.char) {
	pm, err := OpenPlain(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pm.Close() })
	nm, err := OpenNil(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nm.Close() })
	fm, err := OpenFlag(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fm.Close)
}

// Hazard twin: a helper that forgets the cleanup hands its module over, and
// the test never unloads it.
func loadForTestNoCleanup(t testing.TB, path *C.char) C.hipModule_t { // want loadForTestNoCleanup:"returnsModule\\(result=0, status=-1\\)"
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		t.Fatal(err)
	}
	return m
}

func useHelperNoCleanup(t *testing.T, path *C.char) {
	m := loadForTestNoCleanup(t, path) // want `module m loaded by loadForTestNoCleanup is not unloaded at the end of the function`
	_ = m
}

// StreamModule guards something else than its unload.
type StreamModule struct {
	m      C.hipModule_t
	stream C.hipStream_t
}

func OpenStream(path *C.char) (*StreamModule, error) { // want OpenStream:"returnsModule\\(result=0, status=1\\)"
	sm := &StreamModule{}
	if err := check(C.hipModuleLoad(&sm.m, path)); err != nil {
		return nil, err
	}
	return sm, nil
}

func (sm *StreamModule) Close() { // want Close:"unloads\\[-1\\]"
	if sm.stream != nil {
		C.hipStreamDestroy(sm.stream)
		sm.stream = nil
	}
	C.hipModuleUnload(sm.m)
}

// Hazard: the guard in Close protects the stream, not the module.
func streamClosedTwice(path *C.char) {
	sm, err := OpenStream(path)
	if err != nil {
		return
	}
	sm.Close()
	sm.Close() // want `module sm is unloaded twice`
}
