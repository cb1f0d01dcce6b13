/* hiplint fixture: hip/hip_ext.h, written for hiplint. The AMD extensions
 * (hipExtModuleLaunchKernel, hipExtLaunchKernel, hipExtStreamCreateWithCUMask,
 * hipExtMallocWithFlags, ...) are declared with the rest of the runtime API in
 * hip_runtime_api.h, which this header includes. */
#ifndef HIPLINT_FIXTURE_HIP_EXT_H
#define HIPLINT_FIXTURE_HIP_EXT_H
#define HIP_INCLUDE_HIP_HIP_EXT_H
#include <hip/hip_runtime.h>
#endif
