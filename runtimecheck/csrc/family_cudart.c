/* CUDA runtime operations the tracer needs. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, void (*fn)(void*), void* userData);
#ifdef HIPLINT_FIXTURE_CUDA_RUNTIME_API_H
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
#endif
static int hl_cudart_device(void) {
  int d = -1;
  if (cudaGetDevice(&d) != cudaSuccess) d = -1;
  return d;
}
static void* hl_cudart_event_after(void* s) {
  cudaEvent_t e = 0;
  if (cudaEventCreateWithFlags(&e, cudaEventDefault) != cudaSuccess) return 0;
  if (cudaEventRecord(e, (cudaStream_t)s) != cudaSuccess) {
    cudaEventDestroy(e);
    return 0;
  }
  return (void*)e;
}
static int hl_cudart_query(void* e) {
  cudaError_t r = cudaEventQuery((cudaEvent_t)e);
  return r == cudaErrorNotReady ? 1 : r == cudaSuccess ? 0 : -1;
}
/* hl_cudart_elapsed: milliseconds from event a's completion to event b's (both
 * complete, both timing events); negative when b completed first. */
static int hl_cudart_elapsed(void* a, void* b, float* ms) { return cudaEventElapsedTime(ms, (cudaEvent_t)a, (cudaEvent_t)b) == cudaSuccess; }
static void hl_cudart_destroy(void* e) { cudaEventDestroy((cudaEvent_t)e); }
static void hl_cudart_delay(void* s, long us) { cudaLaunchHostFunc((cudaStream_t)s, hl_sleep_fn, (void*)(intptr_t)us); }
static void hl_cudart_sync(void) { cudaDeviceSynchronize(); }
static void hl_cudart_describe(void) {
  int dev = hl_cudart_device(), pageable = -1;
  if (cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, dev) != cudaSuccess) pageable = -1;
  struct hl_line L;
  hl_begin(&L, 0, "hiplint:device");
  hl_int(&L, "dev", dev);
  hl_int(&L, "pageable", pageable);
  hl_str(&L, "attr", "cudaDevAttrPageableMemoryAccess");
  hl_emit(&L);
}
