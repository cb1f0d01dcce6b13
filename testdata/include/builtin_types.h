/* hiplint fixture: builtin_types.h, written for hiplint: the CUDA runtime's
 * types (driver_types.h) and dim3 (vector_types.h). */
#ifndef HIPLINT_FIXTURE_BUILTIN_TYPES_H
#define HIPLINT_FIXTURE_BUILTIN_TYPES_H
#include <driver_types.h>
#include <vector_types.h>
#endif
