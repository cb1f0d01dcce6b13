package modules

// #include <hip/hip_runtime_api.h>
import "C"

// This init runs after a_init.go's (files initialize in name order) and
// frees the boot module "to save memory", though bootFn came from it.
func init() {
	C.hipModuleUnload(bootMod)
}

//matrix:hazard order-init
func Warmup() error {
	return check(C.hipModuleLaunchKernel(bootFn, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)) // want `hipModuleLaunchKernel uses bootFn, whose module bootMod was unloaded by an init function in b_init.go`
}

//matrix:twin order-init
func WarmupKept() error {
	var f C.hipFunction_t
	if err := check(C.hipModuleGetFunction(&f, keptMod, C.CString("warmup"))); err != nil {
		return err
	}
	return launch(f)
}
