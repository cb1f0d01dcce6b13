package modules

// #include <hip/hip_runtime_api.h>
import "C"

var (
	bootMod C.hipModule_t
	bootFn  C.hipFunction_t
)

func init() {
	if C.hipModuleLoad(&bootMod, C.CString("boot.hsaco")) != C.hipSuccess {
		return
	}
	C.hipModuleGetFunction(&bootFn, bootMod, C.CString("warmup"))
}

var keptMod C.hipModule_t

func init() {
	if C.hipModuleLoad(&keptMod, C.CString("kept.hsaco")) != C.hipSuccess {
		return
	}
}
