// Package rangeset holds a range loop that unloads every module of a set
// the function built from its own variables (mods := []*Module{a, b}), and
// a use or unload of one of those variables after the loop: the loop
// unloaded it (issue #32). Each hazard has a silent twin, and each way the
// loop may miss the variable (a conditional unload, a break or return
// before it, a set changed after its literal, a set from elsewhere, the
// variable given a new module) has its own.
package rangeset

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

import (
	"errors"
	"fmt"
)

// Module owns one loaded code object.
type Module struct{ m C.hipModule_t }

func check(r C.hipError_t) error {
	if r != C.hipSuccess {
		return fmt.Errorf("hip error %d", int(r))
	}
	return nil
}

// Load loads the code object at path.
func Load(path *C.char) (*Module, error) { // want Load:"returnsModule\\(result=0, status=1\\)"
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return nil, err
	}
	return &Module{m: m}, nil
}

// Close unloads the module.
func (md *Module) Close() error { return check(C.hipModuleUnload(md.m)) } // want Close:"unloads\\[\\-1\\]"

// Function looks a kernel up in the module.
func (md *Module) Function(name *C.char) (C.hipFunction_t, error) { // want Function:"borrows\\[\\-1\\] uses\\[\\-1\\]"
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, md.m, name))
	return f, err
}

// loadTwo loads two modules, or none.
func loadTwo(path *C.char) (*Module, *Module, error) { // want loadTwo:"returnsModule\\(result=0, status=2\\)"
	a, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	b, err := Load(path)
	if err != nil {
		a.Close()
		return nil, nil, err
	}
	return a, b, nil
}

// The modforms RangeAfter of the GPU run: the loop unloaded a.
func rangeAfter(path, name *C.char) error {
	a, err := Load(path)
	if err != nil {
		return err
	}
	b, err := Load(path)
	if err != nil {
		a.Close()
		return err
	}
	mods := []*Module{a, b}
	for _, md := range mods {
		md.Close()
	}
	_, err = a.Function(name) // want `Function uses module a after it was unloaded`
	return err
}

// Its twin looks up before the loop.
func rangeBefore(path, name *C.char) error {
	a, err := Load(path)
	if err != nil {
		return err
	}
	b, err := Load(path)
	if err != nil {
		a.Close()
		return err
	}
	mods := []*Module{a, b}
	_, err = a.Function(name)
	for _, md := range mods {
		md.Close()
	}
	return err
}

// The loop unloaded b; closing it again unloads twice.
func rangeThenClose(path *C.char) error {
	a, err := Load(path)
	if err != nil {
		return err
	}
	b, err := Load(path)
	if err != nil {
		a.Close()
		return err
	}
	mods := []*Module{a, b}
	for _, md := range mods {
		md.Close()
	}
	return b.Close() // want `module b is unloaded twice`
}

// Its twin closes only the module the set leaves out.
func rangeThenCloseOther(path *C.char) error {
	a, err := Load(path)
	if err != nil {
		return err
	}
	b, err := Load(path)
	if err != nil {
		a.Close()
		return err
	}
	mods := []*Module{a}
	for _, md := range mods {
		md.Close()
	}
	return b.Close()
}

// Raw handles, an array, and the runtime's own calls.
func rawArray(path, name *C.char) error {
	var a, b C.hipModule_t
	if err := check(C.hipModuleLoad(&a, path)); err != nil {
		return err
	}
	if err := check(C.hipModuleLoad(&b, path)); err != nil {
		C.hipModuleUnload(a)
		return err
	}
	var f C.hipFunction_t
	mods := [...]C.hipModule_t{a, b}
	for _, m := range mods {
		C.hipModuleUnload(m)
	}
	return check(C.hipModuleGetFunction(&f, b, name)) // want `hipModuleGetFunction uses module b after it was unloaded`
}

// Its twin looks up before the loop.
func rawArrayBefore(path, name *C.char) error {
	var a, b C.hipModule_t
	if err := check(C.hipModuleLoad(&a, path)); err != nil {
		return err
	}
	if err := check(C.hipModuleLoad(&b, path)); err != nil {
		C.hipModuleUnload(a)
		return err
	}
	var f C.hipFunction_t
	mods := [...]C.hipModule_t{a, b}
	err := check(C.hipModuleGetFunction(&f, b, name))
	for _, m := range mods {
		C.hipModuleUnload(m)
	}
	return err
}

// Clearing each element after its unload leaves the loop unloading all.
func clearedAfter(path, name *C.char) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	mods := []*Module{a, b}
	for i, md := range mods {
		md.Close()
		mods[i] = nil
	}
	_, err = a.Function(name) // want `Function uses module a after it was unloaded`
	return err
}

// The unload is conditional: the loop may skip a.
func conditional(path, name *C.char, keep *Module) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	mods := []*Module{a, b}
	for _, md := range mods {
		if md != keep {
			md.Close()
		}
	}
	_, err = a.Function(name)
	return err
}

// A break before the unload may end the loop before a.
func breakBefore(path, name *C.char, stop bool) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	mods := []*Module{b, a}
	for _, md := range mods {
		if stop {
			break
		}
		md.Close()
	}
	_, err = a.Function(name)
	return err
}

var errStop = errors.New("stop")

// A return before the unload may leave before a.
func returnBefore(path, name *C.char, stop bool) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	mods := []*Module{b, a}
	for _, md := range mods {
		if stop {
			return errStop
		}
		md.Close()
	}
	_, err = a.Function(name)
	return err
}

// The set no longer holds a when the loop runs.
func replacedElement(path, name *C.char) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	defer a.Close()
	mods := []*Module{a}
	mods[0] = b
	for _, md := range mods {
		md.Close()
	}
	_, err = a.Function(name)
	return err
}

// Nor here: append reuses the set's array.
func appendedOver(path, name *C.char) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	defer a.Close()
	mods := []*Module{a}
	mods = append(mods[:0], b)
	for _, md := range mods {
		md.Close()
	}
	_, err = a.Function(name)
	return err
}

// Nor through an alias of the set.
func aliasChanged(path, name *C.char) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	defer a.Close()
	mods := []*Module{a}
	other := mods
	other[0] = b
	for _, md := range mods {
		md.Close()
	}
	_, err = a.Function(name)
	return err
}

// A set from elsewhere: nothing says it holds a.
func fromElsewhere(mods []*Module, a *Module, name *C.char) error { // want fromElsewhere:"unloads\\[0\\]" fromElsewhere:"borrows\\[1\\] uses\\[1\\]"
	for _, md := range mods {
		md.Close()
	}
	_, err := a.Function(name)
	return err
}

// a holds a new module after the loop.
func reloaded(path, name *C.char) error {
	a, b, err := loadTwo(path)
	if err != nil {
		return err
	}
	mods := []*Module{a, b}
	for _, md := range mods {
		md.Close()
	}
	a, err = Load(path)
	if err != nil {
		return err
	}
	defer a.Close()
	_, err = a.Function(name)
	return err
}

// A function looked up before the loop dies with the module the loop
// unloaded.
func launchAfter(path, name *C.char) error {
	var a, b C.hipModule_t
	if err := check(C.hipModuleLoad(&a, path)); err != nil {
		return err
	}
	if err := check(C.hipModuleLoad(&b, path)); err != nil {
		C.hipModuleUnload(a)
		return err
	}
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, a, name))
	mods := []C.hipModule_t{a, b}
	for _, m := range mods {
		C.hipModuleUnload(m)
	}
	if err != nil {
		return err
	}
	return check(C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)) // want `hipModuleLaunchKernel launches f, whose module a was unloaded`
}

// Its twin launches before the loop.
func launchBefore(path, name *C.char) error {
	var a, b C.hipModule_t
	if err := check(C.hipModuleLoad(&a, path)); err != nil {
		return err
	}
	if err := check(C.hipModuleLoad(&b, path)); err != nil {
		C.hipModuleUnload(a)
		return err
	}
	var f C.hipFunction_t
	err := check(C.hipModuleGetFunction(&f, a, name))
	if err == nil {
		err = check(C.hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
	}
	mods := []C.hipModule_t{a, b}
	for _, m := range mods {
		C.hipModuleUnload(m)
	}
	return err
}
