/* hiplint fixture: device_types.h, written for hiplint: the CUDA runtime's
 * rounding modes (CUDA 12.9). */
#ifndef HIPLINT_FIXTURE_DEVICE_TYPES_H
#define HIPLINT_FIXTURE_DEVICE_TYPES_H
#define __DEVICE_TYPES_H__

enum cudaRoundMode {
  cudaRoundNearest = 0,
  cudaRoundZero = 1,
  cudaRoundPosInf = 2,
  cudaRoundMinInf = 3
};

#endif
