/* hiplint fixture: the HIP version these declarations follow (HIP 6.2 of
 * ROCm 6.2.1, whose runtime reports 6.2.41134). Written for hiplint; the
 * formula is HIP's: major * 10000000 + minor * 100000 + patch. Code that
 * declares newer APIs by hand under `#if HIP_VERSION < ...` sees a current
 * ROCm and leaves them out. */
#ifndef HIPLINT_FIXTURE_HIP_VERSION_H
#define HIPLINT_FIXTURE_HIP_VERSION_H
#define HIP_VERSION_H

#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 41134
#define HIP_VERSION_GITHASH ""
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME ""
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#endif
