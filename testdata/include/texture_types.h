/* hiplint fixture: texture_types.h, written for hiplint. The texture object
 * types are with the rest of the runtime's types in driver_types.h, which
 * this header includes; the texture reference (deprecated, still declared by
 * CUDA 12) is here. */
#ifndef HIPLINT_FIXTURE_TEXTURE_TYPES_H
#define HIPLINT_FIXTURE_TEXTURE_TYPES_H
#define __TEXTURE_TYPES_H__
#include <driver_types.h>

/* HIP's and CUDA's texture references share a tag: whichever header comes
 * first declares it (as with dim3). */
#ifndef HIPLINT_FIXTURE_TEXTUREREFERENCE
#define HIPLINT_FIXTURE_TEXTUREREFERENCE
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};
#endif

#endif
