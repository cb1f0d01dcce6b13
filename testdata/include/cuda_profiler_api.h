/* hiplint fixture: cuda_profiler_api.h, written for hiplint. The runtime's
 * profiler control (cudaProfilerStart, cudaProfilerStop) is declared with the
 * rest of the runtime API in cuda_runtime_api.h, which this header includes. */
#ifndef HIPLINT_FIXTURE_CUDA_PROFILER_API_H
#define HIPLINT_FIXTURE_CUDA_PROFILER_API_H
#define __CUDA_PROFILER_API_H__
#include <cuda_runtime_api.h>
#endif
