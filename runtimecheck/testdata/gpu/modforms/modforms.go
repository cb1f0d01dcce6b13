// Package modforms looks a kernel up in a module after the module was
// unloaded (HL2003), with the unload reached through the call and closure
// forms of the construct matrix (docs/coverage.md): a method value, a method
// expression, a method promoted through an embedded field, an interface, a
// stored closure, a range over the modules, and a goroutine joined by a
// sync.WaitGroup. Each twin looks the kernel up before the unload.
package modforms

/*
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
*/
import "C"

import (
	"fmt"
	"io"
	"sync"
	"unsafe"
)

// PTX holds one empty kernel, nop; it loads on any NVIDIA GPU.
const PTX = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry nop()\n{\n\tret;\n}\n"

func check(op string, r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("%s: error %d", op, int(r))
	}
	return nil
}

// Module is a loaded code object.
type Module struct {
	m C.hipModule_t
}

// Load loads the nop kernel's code object.
func Load() (*Module, error) {
	C.hipSetDevice(0)
	img := C.CString(PTX)
	defer C.free(unsafe.Pointer(img))
	md := &Module{}
	if err := check("hipModuleLoadData", C.hipModuleLoadData(&md.m, unsafe.Pointer(img))); err != nil {
		return nil, err
	}
	return md, nil
}

// Close unloads the module.
func (md *Module) Close() error {
	return check("hipModuleUnload", C.hipModuleUnload(md.m))
}

// Function looks the named kernel up.
func (md *Module) Function(name string) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var f C.hipFunction_t
	return check("hipModuleGetFunction", C.hipModuleGetFunction(&f, md.m, cname))
}

// MethodValueAfter unloads through a method value, then looks up.
func MethodValueAfter() error {
	md, err := Load()
	if err != nil {
		return err
	}
	unload := md.Close
	unload()
	return md.Function("nop")
}

// MethodValueBefore looks up, then unloads through a method value.
func MethodValueBefore() error {
	md, err := Load()
	if err != nil {
		return err
	}
	unload := md.Close
	defer unload()
	return md.Function("nop")
}

// MethodExprAfter unloads through a method expression, then looks up.
func MethodExprAfter() error {
	md, err := Load()
	if err != nil {
		return err
	}
	(*Module).Close(md)
	return md.Function("nop")
}

// MethodExprBefore looks up, then unloads through a method expression.
func MethodExprBefore() error {
	md, err := Load()
	if err != nil {
		return err
	}
	err = md.Function("nop")
	(*Module).Close(md)
	return err
}

// Program embeds its module by pointer: Close and Function are promoted.
type Program struct {
	*Module
	name string
}

// PromotedAfter unloads through the promoted Close, then looks up.
func PromotedAfter() error {
	md, err := Load()
	if err != nil {
		return err
	}
	p := Program{Module: md, name: "nop"}
	p.Close()
	return p.Function(p.name)
}

// PromotedBefore looks up, then unloads through the promoted Close.
func PromotedBefore() error {
	md, err := Load()
	if err != nil {
		return err
	}
	p := Program{Module: md, name: "nop"}
	defer p.Close()
	return p.Function(p.name)
}

// InterfaceAfter unloads through io.Closer, then looks up.
func InterfaceAfter() error {
	md, err := Load()
	if err != nil {
		return err
	}
	var c io.Closer = md
	c.Close()
	return md.Function("nop")
}

// InterfaceBefore looks up, then unloads through io.Closer.
func InterfaceBefore() error {
	md, err := Load()
	if err != nil {
		return err
	}
	var c io.Closer = md
	defer c.Close()
	return md.Function("nop")
}

// StoredClosureAfter unloads in a stored closure, called before the lookup.
func StoredClosureAfter() error {
	md, err := Load()
	if err != nil {
		return err
	}
	cleanup := func() { md.Close() }
	cleanup()
	return md.Function("nop")
}

// StoredClosureBefore calls the stored closure after the lookup.
func StoredClosureBefore() error {
	md, err := Load()
	if err != nil {
		return err
	}
	cleanup := func() { md.Close() }
	err = md.Function("nop")
	cleanup()
	return err
}

// RangeAfter unloads every module of a set, then looks up in the first.
func RangeAfter() error {
	a, err := Load()
	if err != nil {
		return err
	}
	b, err := Load()
	if err != nil {
		a.Close()
		return err
	}
	mods := []*Module{a, b}
	for _, md := range mods {
		md.Close()
	}
	return a.Function("nop")
}

// RangeBefore looks up in the first module, then unloads the set.
func RangeBefore() error {
	a, err := Load()
	if err != nil {
		return err
	}
	b, err := Load()
	if err != nil {
		a.Close()
		return err
	}
	mods := []*Module{a, b}
	err = a.Function("nop")
	for _, md := range mods {
		md.Close()
	}
	return err
}

// GoroutineAfter unloads in a goroutine joined before the lookup.
func GoroutineAfter() error {
	md, err := Load()
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		md.Close()
	}()
	wg.Wait()
	return md.Function("nop")
}

// GoroutineBefore looks up before starting the goroutine that unloads.
func GoroutineBefore() error {
	md, err := Load()
	if err != nil {
		return err
	}
	err = md.Function("nop")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		md.Close()
	}()
	wg.Wait()
	return err
}
