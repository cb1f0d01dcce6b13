/* HIP runtime operations the tracer needs (real HIP, or hiplint's
 * HIP-on-CUDA mapping, which defines HIPLINT_HIPCUDA). */
#ifndef HIPLINT_HIPCUDA
hipError_t hipLaunchHostFunc(hipStream_t stream, void (*fn)(void*), void* userData);
#endif
static int hl_hip_device(void) {
  int d = -1;
  if (hipGetDevice(&d) != hipSuccess) d = -1;
  return d;
}
static void* hl_hip_event_after(void* s) {
  hipEvent_t e = 0;
  if (hipEventCreateWithFlags(&e, hipEventDefault) != hipSuccess) return 0;
  if (hipEventRecord(e, (hipStream_t)s) != hipSuccess) {
    hipEventDestroy(e);
    return 0;
  }
  return (void*)e;
}
static int hl_hip_query(void* e) {
  hipError_t r = hipEventQuery((hipEvent_t)e);
  return r == hipErrorNotReady ? 1 : r == hipSuccess ? 0 : -1;
}
/* hl_hip_elapsed: milliseconds from event a's completion to event b's (both
 * complete, both timing events); negative when b completed first. */
static int hl_hip_elapsed(void* a, void* b, float* ms) { return hipEventElapsedTime(ms, (hipEvent_t)a, (hipEvent_t)b) == hipSuccess; }
static void hl_hip_destroy(void* e) { hipEventDestroy((hipEvent_t)e); }
static void hl_hip_delay(void* s, long us) { hipLaunchHostFunc((hipStream_t)s, hl_sleep_fn, (void*)(intptr_t)us); }
static void hl_hip_sync(void) { hipDeviceSynchronize(); }
static void hl_hip_describe(void) {
  int dev = hl_hip_device(), pageable = -1;
  static hipDeviceProp_t p;
  memset(&p, 0, sizeof p);
  if (hipDeviceGetAttribute(&pageable, hipDeviceAttributePageableMemoryAccess, dev) != hipSuccess) pageable = -1;
  int props = hipGetDeviceProperties(&p, dev) == hipSuccess;
  struct hl_line L;
  hl_begin(&L, 0, "hiplint:device");
  hl_int(&L, "dev", dev);
  hl_int(&L, "pageable", pageable);
  hl_str(&L, "arch", props ? p.gcnArchName : NULL);
  hl_str(&L, "name", props ? p.name : NULL);
  hl_str(&L, "attr", "hipDeviceAttributePageableMemoryAccess");
  hl_emit(&L);
}
