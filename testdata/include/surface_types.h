/* hiplint fixture: surface_types.h, written for hiplint: the CUDA runtime's
 * surface enums (CUDA 12.9). The surface object types are with the rest of
 * the runtime's types in driver_types.h, which this header includes. */
#ifndef HIPLINT_FIXTURE_SURFACE_TYPES_H
#define HIPLINT_FIXTURE_SURFACE_TYPES_H
#define __SURFACE_TYPES_H__
#include <driver_types.h>

enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1
};

#endif
