package realhip

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"log"
	"os"
	"testing"
)

// Hazard: t.Fatal ends the test (its defers run), the process goes on, and
// the module was never unloaded.
func fatalSkipsUnload(t *testing.T, path, name *C.char) {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil { // want `module m loaded by hipModuleLoad is not unloaded when t.Fatal ends the test`
		t.Fatal(err)
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		t.Fatal(err)
	}
	C.hipModuleUnload(m)
}

// Hazard: t.FailNow in a helper that gets the test.
func failNowSkipsUnload(tb testing.TB, path *C.char, ok func() bool) {
	m, err := OpenPlain(path) // want `module m loaded by OpenPlain is not unloaded when tb.FailNow ends the test`
	if err != nil {
		tb.Fatal(err)
	}
	if !ok() {
		tb.FailNow()
	}
	m.Close()
}

// Safe twin: the unload is deferred; t.Fatal runs it.
func fatalWithDefer(t *testing.T, path, name *C.char) {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		t.Fatal(err)
	}
	defer C.hipModuleUnload(m)
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		t.Fatal(err)
	}
}

// Safe twin: unloaded before t.Fatal.
func unloadThenFatal(t *testing.T, path, name *C.char) {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		t.Fatal(err)
	}
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, m, name))
	C.hipModuleUnload(m)
	if err != nil {
		t.Fatal(err)
	}
}

// Safe: log.Fatal and os.Exit end the process, which frees everything.
func processExit(path, name *C.char, quit bool) {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		log.Fatal(err)
	}
	if quit {
		os.Exit(1)
	}
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, name)); err != nil {
		log.Fatal(err)
	}
	C.hipModuleUnload(m)
}
