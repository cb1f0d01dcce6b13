/* hiplint fixture: cuda_runtime.h, written for hiplint. In C, the real header
 * brings in the runtime API (cuda_runtime_api.h, with driver_types.h and
 * vector_types.h); its C++ templates and the triple-chevron launch are not
 * declared here. */
#ifndef HIPLINT_FIXTURE_CUDA_RUNTIME_H
#define HIPLINT_FIXTURE_CUDA_RUNTIME_H
#define __CUDA_RUNTIME_H__
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <builtin_types.h>
#include <library_types.h>
#include <cuda_runtime_api.h>
#include <driver_functions.h>
#endif
