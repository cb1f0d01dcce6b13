package hipdrv

import "runtime"

// runtime_SetFinalizer gives a module the finalizer LoadData sets.
func runtime_SetFinalizer(m *Module) {
	runtime.SetFinalizer(m, func(m *Module) { m.Unload() })
}
