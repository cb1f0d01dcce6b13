/* hiplint fixture: hip/hip_runtime.h, written for hiplint. In C, the real
 * header brings in the runtime API (hip_runtime_api.h) and the C library
 * headers its inline helpers use; kernels and the triple-chevron launch are
 * C++ only and are not declared here. */
#ifndef HIPLINT_FIXTURE_HIP_RUNTIME_H
#define HIPLINT_FIXTURE_HIP_RUNTIME_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <hip/hip_version.h>
#include <hip/hip_runtime_api.h>
#include <hip/library_types.h>

/* Host-side qualifiers expand to nothing in C. */
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __shared__
#define __shared__
#endif
#ifndef __constant__
#define __constant__
#endif

#endif
