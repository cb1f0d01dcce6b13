/* hiplint fixture: hip/hip_common.h, written for hiplint. Its declarations are
 * with the rest of the HIP runtime API in hip_runtime_api.h, which this
 * header includes. */
#ifndef HIPLINT_FIXTURE_HIP_HIP_COMMON_H
#define HIPLINT_FIXTURE_HIP_HIP_COMMON_H
#include <hip/hip_runtime_api.h>
#endif
