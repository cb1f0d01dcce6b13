/* hiplint fixture: hip/hip_texture_types.h, written for hiplint. Its C
 * declarations (textureReference and the texture enums) are with the rest of
 * the runtime API in hip_runtime_api.h, which this header includes; its
 * texture templates are C++ only. */
#ifndef HIPLINT_FIXTURE_HIP_HIP_TEXTURE_TYPES_H
#define HIPLINT_FIXTURE_HIP_HIP_TEXTURE_TYPES_H
#include <hip/hip_runtime_api.h>
#endif
