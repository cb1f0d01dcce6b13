package realhip

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

var loadedByName = map[string]C.hipModule_t{}

// Hazard: a module from a map, unloaded, then asked for a kernel.
func evictThenGet(name string, fn *C.char) C.hipFunction_t {
	C.hipModuleUnload(loadedByName[name])
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, loadedByName[name], fn) // want `hipModuleGetFunction uses module loadedByName\[name\] after it was unloaded`
	return f
}

// Hazard: a local copy from the map.
func evictCopyThenGet(name string, fn *C.char) C.hipFunction_t { // want evictCopyThenGet:"returnsFunction\\(result=0, unloaded\\)"
	m := loadedByName[name]
	C.hipModuleUnload(m)
	delete(loadedByName, name)
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m, fn) // want `hipModuleGetFunction uses module m after it was unloaded`
	return f
}

// Safe twin: get the function first, then unload and forget.
func getThenEvict(name string, fn *C.char) error {
	m := loadedByName[name]
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, m, fn)); err != nil {
		return err
	}
	C.hipModuleUnload(m)
	delete(loadedByName, name)
	return nil
}

// Safe twin: the map entry is replaced by a new module before the lookup.
func reloadEntry(name string, path, fn *C.char) C.hipFunction_t {
	C.hipModuleUnload(loadedByName[name])
	var m C.hipModule_t
	if C.hipModuleLoad(&m, path) != C.hipSuccess {
		return nil
	}
	loadedByName[name] = m
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, loadedByName[name], fn)
	return f
}

// Hazard: a parameter's module, unloaded, then used.
func paramAfterUnload(m C.hipModule_t, fn *C.char) C.hipFunction_t { // want paramAfterUnload:"unloads\\[0\\]" paramAfterUnload:"returnsFunction\\(result=0, unloaded\\)"
	C.hipModuleUnload(m)
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m, fn) // want `hipModuleGetFunction uses module m after it was unloaded`
	return f
}

// Safe twin: unloaded on one branch only.
func paramUnloadOnOneBranch(m C.hipModule_t, fn *C.char, drop bool) C.hipFunction_t { // want paramUnloadOnOneBranch:"unloads\\[0\\]" paramUnloadOnOneBranch:"returnsFunction\\(result=0, param=0\\)"
	if drop {
		C.hipModuleUnload(m)
		return nil
	}
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, m, fn)
	return f
}

// Hazard: a field's module, unloaded by a method, then used.
func (k *Kernel) relaunchAfterClose(name *C.char) C.hipFunction_t { // want relaunchAfterClose:"unloads\\[-1\\]"
	k.Close()
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, k.mod.m, name) // want `hipModuleGetFunction uses module k after it was unloaded`
	return f
}

// Safe twin: the field is loaded again before it is used.
func (k *Kernel) reinit(path string, name *C.char) C.hipFunction_t { // want reinit:"borrows\\[-1\\]"
	k.Close()
	if err := k.mod.Load(path); err != nil {
		return nil
	}
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, k.mod.m, name)
	return f
}

// Hazard: a function taken from the module before its unload, launched after.
func launchAfterFieldUnload(k *Kernel, name *C.char, args unsafe.Pointer) error { // want launchAfterFieldUnload:"unloads\\[0\\]"
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, k.mod.m, name)); err != nil {
		return err
	}
	C.hipModuleUnload(k.mod.m)
	return check(C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, (*unsafe.Pointer)(args), nil)) // want `hipModuleLaunchKernel launches f, whose module k.mod.m was unloaded`
}

// Safe twin: launched, then unloaded.
func launchThenFieldUnload(k *Kernel, name *C.char, args unsafe.Pointer) error { // want launchThenFieldUnload:"unloads\\[0\\]"
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, k.mod.m, name)); err != nil {
		return err
	}
	err := check(C.hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nil, (*unsafe.Pointer)(args), nil))
	C.hipModuleUnload(k.mod.m)
	return err
}
