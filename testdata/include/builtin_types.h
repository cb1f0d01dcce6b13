/* hiplint fixture: builtin_types.h, written for hiplint: the CUDA runtime's
 * types (device_types.h, driver_types.h, surface_types.h, texture_types.h)
 * and dim3 (vector_types.h). */
#ifndef HIPLINT_FIXTURE_BUILTIN_TYPES_H
#define HIPLINT_FIXTURE_BUILTIN_TYPES_H
#include <device_types.h>
#include <driver_types.h>
#include <surface_types.h>
#include <texture_types.h>
#include <vector_types.h>
#endif
