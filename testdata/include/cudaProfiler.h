/* hiplint fixture: cudaProfiler.h, written for hiplint. The driver's profiler
 * control (cuProfilerStart, cuProfilerStop) is declared with the rest of the
 * driver API in cuda.h, which this header includes; the output modes and
 * cuProfilerInitialize (CUDA 11.x, gone from CUDA 12) are here. */
#ifndef HIPLINT_FIXTURE_CUDAPROFILER_H
#define HIPLINT_FIXTURE_CUDAPROFILER_H
#define __cudaProfiler_h__
#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum CUoutput_mode_enum {
  CU_OUT_KEY_VALUE_PAIR = 0x00,
  CU_OUT_CSV = 0x01
} CUoutput_mode;

CUresult cuProfilerInitialize(const char* configFile, const char* outputFile, CUoutput_mode outputMode);

#ifdef __cplusplus
}
#endif
#endif
