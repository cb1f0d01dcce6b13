/* hiplint fixture: cudaProfiler.h, written for hiplint. The driver's profiler
 * control (cuProfilerStart, cuProfilerStop) is declared with the rest of the
 * driver API in cuda.h, which this header includes. */
#ifndef HIPLINT_FIXTURE_CUDAPROFILER_H
#define HIPLINT_FIXTURE_CUDAPROFILER_H
#include <cuda.h>
#endif
