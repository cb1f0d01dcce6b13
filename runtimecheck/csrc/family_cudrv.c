/* CUDA driver operations the tracer needs. */
CUresult cuCtxGetDevice(CUdevice* device);
CUresult cuLaunchHostFunc(CUstream hStream, void (*fn)(void*), void* userData);
#ifdef HIPLINT_FIXTURE_CUDA_H
CUresult cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd);
#endif
static int hl_cudrv_device(void) {
  CUdevice d = -1;
  if (cuCtxGetDevice(&d) != 0) d = -1;
  return (int)d;
}
static void* hl_cudrv_event_after(void* s) {
  CUevent e = 0;
  if (cuEventCreate(&e, 0 /* CU_EVENT_DEFAULT: timing on */) != 0) return 0;
  if (cuEventRecord(e, (CUstream)s) != 0) {
    cuEventDestroy(e);
    return 0;
  }
  return (void*)e;
}
static int hl_cudrv_query(void* e) {
  CUresult r = cuEventQuery((CUevent)e);
  return r == 600 /* CUDA_ERROR_NOT_READY */ ? 1 : r == 0 ? 0 : -1;
}
/* hl_cudrv_elapsed: milliseconds from event a's completion to event b's (both
 * complete, both timing events); negative when b completed first. */
static int hl_cudrv_elapsed(void* a, void* b, float* ms) { return cuEventElapsedTime(ms, (CUevent)a, (CUevent)b) == 0; }
static void hl_cudrv_destroy(void* e) { cuEventDestroy((CUevent)e); }
static void hl_cudrv_delay(void* s, long us) { cuLaunchHostFunc((CUstream)s, hl_sleep_fn, (void*)(intptr_t)us); }
static void hl_cudrv_sync(void) { cuCtxSynchronize(); }
static void hl_cudrv_describe(void) {
  int dev = hl_cudrv_device(), pageable = -1;
  if (dev < 0 || cuDeviceGetAttribute(&pageable, (CUdevice_attribute)88 /* PAGEABLE_MEMORY_ACCESS */, dev) != 0) pageable = -1;
  struct hl_line L;
  hl_begin(&L, 0, "hiplint:device");
  hl_int(&L, "dev", dev);
  hl_int(&L, "pageable", pageable);
  hl_str(&L, "attr", "CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS");
  hl_emit(&L);
}
