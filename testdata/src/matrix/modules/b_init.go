package modules

// #include <hip/hip_runtime_api.h>
import "C"

// This init runs after a_init.go's (files initialize in name order) and
// frees the boot module "to save memory", though bootFn came from it.
func init() {
	C.hipModuleUnload(bootMod)
}

//matrix:gap order-init: a launch of a function whose module another file's init unloaded; the order of init functions across files is not modelled
func Warmup() error {
	return check(C.hipModuleLaunchKernel(bootFn, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil))
}

//matrix:twin order-init
func WarmupKept() error {
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, keptMod, C.CString("warmup"))); err != nil {
		return err
	}
	return launch(f)
}
