// Package hipdrvapp uses the hipdrv binding.
package hipdrvapp

import (
	"fmt"
	"unsafe"

	"libs/modulebalance/hipdrv"
)

var grid, block = hipdrv.Dim3{X: 64, Y: 1, Z: 1}, hipdrv.Dim3{X: 256, Y: 1, Z: 1}

// Scale loads, launches and unloads.
func Scale(image []byte, x unsafe.Pointer) error {
	m, err := hipdrv.LoadData(image)
	if err != nil {
		return err
	}
	defer m.Unload()
	f, err := m.Function("scale")
	if err != nil {
		return fmt.Errorf("scale: %w", err)
	}
	return f.Launch(grid, block, 0, unsafe.Pointer(&x))
}

// ScaleUnloaded unloads the module before launching its kernel. Hazard.
func ScaleUnloaded(image []byte, x unsafe.Pointer) error {
	m, err := hipdrv.LoadData(image)
	if err != nil {
		return err
	}
	f, err := m.Function("scale")
	m.Unload()
	if err != nil {
		return err
	}
	return f.Launch(grid, block, 0, unsafe.Pointer(&x)) // MISSED: LoadData sets a finalizer, so its module is not tracked at all (no returnsModule), and neither is its unload
}

// ScaleKernel uses LoadKernel's pair; the module is unloaded last.
func ScaleKernel(path string, x unsafe.Pointer) error {
	m, f, err := hipdrv.LoadKernel(path, "scale")
	if err != nil {
		return err
	}
	defer m.Unload()
	return f.Launch(grid, block, 0, unsafe.Pointer(&x))
}

// launchAll is a helper that launches each kernel it is given.
func launchAll(fs []*hipdrv.Function, x unsafe.Pointer) error {
	for _, f := range fs {
		if err := f.Launch(grid, block, 0, unsafe.Pointer(&x)); err != nil {
			return err
		}
	}
	return nil
}

// launchOne launches one kernel.
func launchOne(f *hipdrv.Function, x unsafe.Pointer) error { // want launchOne:"launches\\[0\\]"
	return f.Launch(grid, block, 0, unsafe.Pointer(&x))
}

// Pipeline looks up two kernels, unloads the module and then hands a kernel
// to a helper that launches it. Hazard.
func Pipeline(path string, x unsafe.Pointer) error {
	m, f, err := hipdrv.LoadKernel(path, "stage1")
	if err != nil {
		return err
	}
	if err := m.Unload(); err != nil {
		return err
	}
	return launchOne(f, x) // MISSED: as ScaleUnloaded (a finalizer-owned module is not tracked); launchOne itself is summarized (launches[0])
}

// PipelineOrdered is its twin: the helper launches before the unload.
func PipelineOrdered(path string, x unsafe.Pointer) error {
	m, f, err := hipdrv.LoadKernel(path, "stage1")
	if err != nil {
		return err
	}
	defer m.Unload()
	return launchAll([]*hipdrv.Function{f}, x)
}

// Probe loads a module and drops it: the finalizer unloads it, so it is
// no leak.
func Probe(image []byte) bool {
	m, err := hipdrv.LoadData(image)
	if err != nil {
		return false
	}
	_, err = m.Function("scale")
	return err == nil
}

// UnloadTwice unloads twice; Unload is idempotent, so this is safe.
func UnloadTwice(image []byte) error {
	m, err := hipdrv.LoadData(image)
	if err != nil {
		return err
	}
	m.Unload()
	return m.Unload()
}
