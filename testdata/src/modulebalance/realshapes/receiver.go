package realshapes

// #include <cuda.h>
import "C"

import "unsafe"

// Program loads its module into a field of the receiver.
type Program struct{ mod C.CUmodule }

func (p *Program) LoadData(img unsafe.Pointer) error { // want LoadData:"loadsInto\\[-1\\]\\(status=0\\)"
	res := C.cuModuleLoadData(&p.mod, img)
	if err := newErr("cuModuleLoadData", res); err != nil {
		return err
	}
	return nil
}

func (p *Program) Close() error { // want Close:"unloads\\[-1\\] idempotent\\[-1\\]"
	if p.mod == nil {
		return nil
	}
	err := check(C.cuModuleUnload(p.mod))
	p.mod = nil
	return err
}

// Hazard: the caller of the loading method never closes the program.
func programLeak(img unsafe.Pointer) error {
	p := &Program{}
	return p.LoadData(img) // want `module p loaded by LoadData is not unloaded on this return`
}

// Safe twin: closed by defer; Close is idempotent, so closing early too is fine.
func programClosed(img unsafe.Pointer, early bool) error {
	p := &Program{}
	if err := p.LoadData(img); err != nil {
		return err
	}
	defer p.Close()
	if early {
		return p.Close()
	}
	return nil
}
