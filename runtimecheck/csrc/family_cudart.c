/* CUDA runtime operations the tracer needs. */
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, void (*fn)(void*), void* userData);
static int hl_cudart_device(void) {
  int d = -1;
  if (cudaGetDevice(&d) != cudaSuccess) d = -1;
  return d;
}
static void* hl_cudart_event_after(void* s) {
  cudaEvent_t e = 0;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return 0;
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
