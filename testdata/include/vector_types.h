/* hiplint fixture: vector_types.h, written for hiplint. The CUDA runtime's
 * dim3 (the launch dimensions), shared with the HIP fixture when both are
 * included. The short vector types (int2, float4, ...) are not declared. */
#ifndef HIPLINT_FIXTURE_VECTOR_TYPES_H
#define HIPLINT_FIXTURE_VECTOR_TYPES_H
#define __VECTOR_TYPES_H__

#ifndef HIPLINT_FIXTURE_DIM3
#define HIPLINT_FIXTURE_DIM3
struct dim3 {
  unsigned int x, y, z;
};
typedef struct dim3 dim3;
#endif

#endif
