// Weak stand-ins for the HIP functions this example calls, so that its test
// binary links on machines without ROCm (go test links it; the analyzers never
// need it). Each reports that there is no device; a real libamdhip64 linked in
// replaces them.
#include <hip/hip_runtime_api.h>

#define HIPLINT_NO_DEVICE ((hipError_t)100) /* hipErrorNoDevice */

__attribute__((weak)) hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipFree(void* ptr) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) const char* hipGetErrorName(hipError_t error) { return "hipErrorNoDevice"; }
__attribute__((weak)) hipError_t hipMalloc(void** ptr, size_t size) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipMallocManaged(void** dev_ptr, size_t size, unsigned int flags) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipMemPrefetchAsync(const void* dev_ptr, size_t count, int device, hipStream_t stream) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* kname) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream, void** kernelParams, void** extra) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipModuleLoad(hipModule_t* module, const char* fname) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipModuleUnload(hipModule_t module) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipSetDevice(int deviceId) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipStreamDestroy(hipStream_t stream) { return HIPLINT_NO_DEVICE; }
__attribute__((weak)) hipError_t hipStreamSynchronize(hipStream_t stream) { return HIPLINT_NO_DEVICE; }
