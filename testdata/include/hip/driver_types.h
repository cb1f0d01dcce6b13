/* hiplint fixture: hip/driver_types.h, written for hiplint. Its declarations are
 * with the rest of the HIP runtime API in hip_runtime_api.h, which this
 * header includes. */
#ifndef HIPLINT_FIXTURE_HIP_DRIVER_TYPES_H
#define HIPLINT_FIXTURE_HIP_DRIVER_TYPES_H
#include <hip/hip_runtime_api.h>
#endif
