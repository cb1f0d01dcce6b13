/* hiplint's HIP-on-CUDA mapping: the HIP runtime API subset hiplint models,
 * as static inline functions over the CUDA runtime and driver APIs, the way
 * HIP's own NVIDIA platform (ROCm/hipother nvidia_detail) does it. Debian's
 * copy of that platform (HIP 5.2.3) does not compile against CUDA 13, hence
 * this one. Types follow hiplint's fixture header (testdata/include), so code
 * written against HIP compiles unchanged; status codes keep HIP's values,
 * which equal CUDA's for every code mapped here. */
#ifndef HIPLINT_HIPCUDA_HIP_RUNTIME_API_H
#define HIPLINT_HIPCUDA_HIP_RUNTIME_API_H
#define HIPLINT_HIPCUDA 1
#include <stddef.h>
#include <string.h>
#include <cuda.h>
#include <cuda_runtime_api.h>

typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorInvalidContext = 201,
  hipErrorFileNotFound = 301,
  hipErrorInvalidResourceHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchFailure = 719,
} hipError_t;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
} hipMemcpyKind;

/* HIP's attribute numbering differs from CUDA's; the mapping translates. */
typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeConcurrentManagedAccess = 15,
  hipDeviceAttributeManagedMemory = 40,
  hipDeviceAttributePageableMemoryAccess = 53,
  hipDeviceAttributePageableMemoryAccessUsesHostPageTables = 54,
} hipDeviceAttribute_t;

typedef enum hipMemoryAdvise {
  hipMemAdviseSetReadMostly = 1,
  hipMemAdviseUnsetReadMostly = 2,
  hipMemAdviseSetPreferredLocation = 3,
  hipMemAdviseUnsetPreferredLocation = 4,
  hipMemAdviseSetAccessedBy = 5,
  hipMemAdviseUnsetAccessedBy = 6,
} hipMemoryAdvise;

typedef enum hipStreamCaptureMode {
  hipStreamCaptureModeGlobal = 0,
  hipStreamCaptureModeThreadLocal = 1,
  hipStreamCaptureModeRelaxed = 2,
} hipStreamCaptureMode;

typedef enum hipMemAllocationType { hipMemAllocationTypeInvalid = 0, hipMemAllocationTypePinned = 1 } hipMemAllocationType;
typedef enum hipMemLocationType { hipMemLocationTypeInvalid = 0, hipMemLocationTypeDevice = 1 } hipMemLocationType;
typedef enum hipJitOption { hipJitOptionMaxRegisters = 0 } hipJitOption;

#define hipStreamDefault cudaStreamDefault
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipEventDefault cudaEventDefault
#define hipEventDisableTiming cudaEventDisableTiming
#define hipMemAttachGlobal cudaMemAttachGlobal
#define hipHostMallocDefault 0x0
#define hipDeviceMallocDefault 0x0

typedef void* hipDeviceptr_t;
typedef CUmodule hipModule_t;
typedef CUfunction hipFunction_t;
typedef cudaStream_t hipStream_t;
typedef cudaEvent_t hipEvent_t;
typedef cudaGraph_t hipGraph_t;
typedef cudaGraphNode_t hipGraphNode_t;
typedef cudaGraphExec_t hipGraphExec_t;
typedef cudaMemPool_t hipMemPool_t;
typedef struct textureReference textureReference;
typedef void (*hipHostFn_t)(void* userData);

typedef struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  int major;
  int minor;
  int multiProcessorCount;
  int managedMemory;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  char gcnArchName[256]; /* empty on NVIDIA: there is no gcnArchName */
} hipDeviceProp_t;

typedef struct cudaMemAllocNodeParams hipMemAllocNodeParams;
typedef struct cudaMemLocation hipMemLocation;
typedef struct cudaMemPoolProps hipMemPoolProps;
typedef struct cudaMemAccessDesc hipMemAccessDesc;
typedef struct cudaKernelNodeParams hipKernelNodeParams;
typedef struct cudaMemcpy3DParms hipMemcpy3DParms;
typedef struct cudaMemsetParams hipMemsetParams;

#define HIPCUDA static inline
HIPCUDA hipError_t hipcuda_rt(cudaError_t e) { return (hipError_t)e; }
HIPCUDA hipError_t hipcuda_drv(CUresult e) {
  switch (e) {
  case CUDA_ERROR_INVALID_HANDLE: return hipErrorInvalidResourceHandle;
  case CUDA_ERROR_FILE_NOT_FOUND: return hipErrorFileNotFound;
  default: return (hipError_t)e;
  }
}
/* Driver-API calls need a current context; HIP has none to set up, so make
 * the runtime's primary context current first, as the runtime API would. */
HIPCUDA void hipcuda_context(void) {
  CUcontext c = 0;
  if (cuCtxGetCurrent(&c) != CUDA_SUCCESS || c == 0) cudaFree(0);
}

/* Initialization and devices */
HIPCUDA hipError_t hipInit(unsigned int flags) { return hipcuda_drv(cuInit(flags)); }
HIPCUDA hipError_t hipGetDeviceCount(int* count) { return hipcuda_rt(cudaGetDeviceCount(count)); }
HIPCUDA hipError_t hipSetDevice(int d) { return hipcuda_rt(cudaSetDevice(d)); }
HIPCUDA hipError_t hipGetDevice(int* d) { return hipcuda_rt(cudaGetDevice(d)); }
HIPCUDA hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int dev) {
  enum cudaDeviceAttr a;
  switch (attr) {
  case hipDeviceAttributeConcurrentManagedAccess: a = cudaDevAttrConcurrentManagedAccess; break;
  case hipDeviceAttributeManagedMemory: a = cudaDevAttrManagedMemory; break;
  case hipDeviceAttributePageableMemoryAccess: a = cudaDevAttrPageableMemoryAccess; break;
  case hipDeviceAttributePageableMemoryAccessUsesHostPageTables: a = cudaDevAttrPageableMemoryAccessUsesHostPageTables; break;
  default: return hipErrorInvalidValue;
  }
  return hipcuda_rt(cudaDeviceGetAttribute(pi, a, dev));
}
HIPCUDA hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int dev) {
  struct cudaDeviceProp c;
  cudaError_t e = cudaGetDeviceProperties(&c, dev);
  if (e != cudaSuccess) return hipcuda_rt(e);
  memset(p, 0, sizeof *p);
  memcpy(p->name, c.name, sizeof p->name < sizeof c.name ? sizeof p->name : sizeof c.name);
  p->totalGlobalMem = c.totalGlobalMem;
  p->major = c.major, p->minor = c.minor, p->multiProcessorCount = c.multiProcessorCount;
  p->managedMemory = c.managedMemory, p->concurrentManagedAccess = c.concurrentManagedAccess;
  p->pageableMemoryAccess = c.pageableMemoryAccess;
  return hipSuccess;
}
HIPCUDA hipError_t hipDeviceSynchronize(void) { return hipcuda_rt(cudaDeviceSynchronize()); }
HIPCUDA hipError_t hipDeviceReset(void) { return hipcuda_rt(cudaDeviceReset()); }
HIPCUDA hipError_t hipDeviceEnablePeerAccess(int peer, unsigned int flags) { return hipcuda_rt(cudaDeviceEnablePeerAccess(peer, flags)); }
HIPCUDA hipError_t hipGetLastError(void) { return hipcuda_rt(cudaGetLastError()); }
HIPCUDA const char* hipGetErrorString(hipError_t e) { return cudaGetErrorString((cudaError_t)e); }
HIPCUDA const char* hipGetErrorName(hipError_t e) { return cudaGetErrorName((cudaError_t)e); }

/* Memory */
HIPCUDA hipError_t hipMalloc(void** p, size_t n) { return hipcuda_rt(cudaMalloc(p, n)); }
HIPCUDA hipError_t hipExtMallocWithFlags(void** p, size_t n, unsigned int flags) { (void)flags; return hipcuda_rt(cudaMalloc(p, n)); }
HIPCUDA hipError_t hipMallocManaged(void** p, size_t n, unsigned int flags) { return hipcuda_rt(cudaMallocManaged(p, n, flags)); }
HIPCUDA hipError_t hipHostMalloc(void** p, size_t n, unsigned int flags) { return hipcuda_rt(cudaHostAlloc(p, n, flags)); }
HIPCUDA hipError_t hipMallocHost(void** p, size_t n) { return hipcuda_rt(cudaMallocHost(p, n)); }
HIPCUDA hipError_t hipHostAlloc(void** p, size_t n, unsigned int flags) { return hipcuda_rt(cudaHostAlloc(p, n, flags)); }
HIPCUDA hipError_t hipMallocPitch(void** p, size_t* pitch, size_t w, size_t h) { return hipcuda_rt(cudaMallocPitch(p, pitch, w, h)); }
HIPCUDA hipError_t hipMallocAsync(void** p, size_t n, hipStream_t s) { return hipcuda_rt(cudaMallocAsync(p, n, s)); }
HIPCUDA hipError_t hipMallocFromPoolAsync(void** p, size_t n, hipMemPool_t pool, hipStream_t s) { return hipcuda_rt(cudaMallocFromPoolAsync(p, n, pool, s)); }
HIPCUDA hipError_t hipFree(void* p) { return hipcuda_rt(cudaFree(p)); }
HIPCUDA hipError_t hipHostFree(void* p) { return hipcuda_rt(cudaFreeHost(p)); }
HIPCUDA hipError_t hipFreeHost(void* p) { return hipcuda_rt(cudaFreeHost(p)); }
HIPCUDA hipError_t hipFreeAsync(void* p, hipStream_t s) { return hipcuda_rt(cudaFreeAsync(p, s)); }
HIPCUDA hipError_t hipMemset(void* d, int v, size_t n) { return hipcuda_rt(cudaMemset(d, v, n)); }
HIPCUDA hipError_t hipMemsetAsync(void* d, int v, size_t n, hipStream_t s) { return hipcuda_rt(cudaMemsetAsync(d, v, n, s)); }

/* Copies */
HIPCUDA hipError_t hipMemcpy(void* d, const void* s, size_t n, hipMemcpyKind k) { return hipcuda_rt(cudaMemcpy(d, s, n, (enum cudaMemcpyKind)k)); }
HIPCUDA hipError_t hipMemcpyWithStream(void* d, const void* s, size_t n, hipMemcpyKind k, hipStream_t st) {
  cudaError_t e = cudaMemcpyAsync(d, s, n, (enum cudaMemcpyKind)k, st);
  return hipcuda_rt(e != cudaSuccess ? e : cudaStreamSynchronize(st));
}
HIPCUDA hipError_t hipMemcpyAsync(void* d, const void* s, size_t n, hipMemcpyKind k, hipStream_t st) { return hipcuda_rt(cudaMemcpyAsync(d, s, n, (enum cudaMemcpyKind)k, st)); }
HIPCUDA hipError_t hipMemcpyHtoD(hipDeviceptr_t d, void* s, size_t n) { return hipcuda_rt(cudaMemcpy(d, s, n, cudaMemcpyHostToDevice)); }
HIPCUDA hipError_t hipMemcpyDtoH(void* d, hipDeviceptr_t s, size_t n) { return hipcuda_rt(cudaMemcpy(d, s, n, cudaMemcpyDeviceToHost)); }
HIPCUDA hipError_t hipMemcpyDtoD(hipDeviceptr_t d, hipDeviceptr_t s, size_t n) { return hipcuda_rt(cudaMemcpy(d, s, n, cudaMemcpyDeviceToDevice)); }
HIPCUDA hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t d, void* s, size_t n, hipStream_t st) { return hipcuda_rt(cudaMemcpyAsync(d, s, n, cudaMemcpyHostToDevice, st)); }
HIPCUDA hipError_t hipMemcpyDtoHAsync(void* d, hipDeviceptr_t s, size_t n, hipStream_t st) { return hipcuda_rt(cudaMemcpyAsync(d, s, n, cudaMemcpyDeviceToHost, st)); }
HIPCUDA hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t d, hipDeviceptr_t s, size_t n, hipStream_t st) { return hipcuda_rt(cudaMemcpyAsync(d, s, n, cudaMemcpyDeviceToDevice, st)); }
HIPCUDA hipError_t hipMemcpyPeer(void* d, int dd, const void* s, int sd, size_t n) { return hipcuda_rt(cudaMemcpyPeer(d, dd, s, sd, n)); }
HIPCUDA hipError_t hipMemcpyPeerAsync(void* d, int dd, const void* s, int sd, size_t n, hipStream_t st) { return hipcuda_rt(cudaMemcpyPeerAsync(d, dd, s, sd, n, st)); }

/* Streams and events */
HIPCUDA hipError_t hipStreamCreate(hipStream_t* s) { return hipcuda_rt(cudaStreamCreate(s)); }
HIPCUDA hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned int f) { return hipcuda_rt(cudaStreamCreateWithFlags(s, f)); }
HIPCUDA hipError_t hipStreamCreateWithPriority(hipStream_t* s, unsigned int f, int p) { return hipcuda_rt(cudaStreamCreateWithPriority(s, f, p)); }
HIPCUDA hipError_t hipStreamDestroy(hipStream_t s) { return hipcuda_rt(cudaStreamDestroy(s)); }
HIPCUDA hipError_t hipStreamSynchronize(hipStream_t s) { return hipcuda_rt(cudaStreamSynchronize(s)); }
HIPCUDA hipError_t hipStreamQuery(hipStream_t s) { return hipcuda_rt(cudaStreamQuery(s)); }
HIPCUDA hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e, unsigned int f) { return hipcuda_rt(cudaStreamWaitEvent(s, e, f)); }
HIPCUDA hipError_t hipEventCreate(hipEvent_t* e) { return hipcuda_rt(cudaEventCreate(e)); }
HIPCUDA hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned f) { return hipcuda_rt(cudaEventCreateWithFlags(e, f)); }
HIPCUDA hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) { return hipcuda_rt(cudaEventRecord(e, s)); }
HIPCUDA hipError_t hipEventSynchronize(hipEvent_t e) { return hipcuda_rt(cudaEventSynchronize(e)); }
HIPCUDA hipError_t hipEventQuery(hipEvent_t e) { return hipcuda_rt(cudaEventQuery(e)); }
HIPCUDA hipError_t hipEventDestroy(hipEvent_t e) { return hipcuda_rt(cudaEventDestroy(e)); }
HIPCUDA hipError_t hipEventElapsedTime(float* ms, hipEvent_t a, hipEvent_t b) { return hipcuda_rt(cudaEventElapsedTime(ms, a, b)); }
HIPCUDA hipError_t hipLaunchHostFunc(hipStream_t s, hipHostFn_t fn, void* u) { return hipcuda_rt(cudaLaunchHostFunc(s, fn, u)); }

/* Modules and launches */
HIPCUDA hipError_t hipModuleLoad(hipModule_t* m, const char* f) { hipcuda_context(); return hipcuda_drv(cuModuleLoad(m, f)); }
HIPCUDA hipError_t hipModuleLoadData(hipModule_t* m, const void* img) { hipcuda_context(); return hipcuda_drv(cuModuleLoadData(m, img)); }
HIPCUDA hipError_t hipModuleLoadDataEx(hipModule_t* m, const void* img, unsigned int n, hipJitOption* o, void** v) {
  hipcuda_context();
  return hipcuda_drv(cuModuleLoadDataEx(m, img, n, (CUjit_option*)o, v));
}
HIPCUDA hipError_t hipModuleUnload(hipModule_t m) { return hipcuda_drv(cuModuleUnload(m)); }
HIPCUDA hipError_t hipModuleGetFunction(hipFunction_t* f, hipModule_t m, const char* k) { return hipcuda_drv(cuModuleGetFunction(f, m, k)); }
HIPCUDA hipError_t hipModuleGetGlobal(hipDeviceptr_t* d, size_t* n, hipModule_t m, const char* name) {
  CUdeviceptr p = 0;
  CUresult e = cuModuleGetGlobal(&p, n, m, name);
  if (d) *d = (void*)(size_t)p;
  return hipcuda_drv(e);
}
HIPCUDA hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                         unsigned int by, unsigned int bz, unsigned int shared, hipStream_t s, void** params,
                                         void** extra) {
  return hipcuda_drv(cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, (CUstream)s, params, extra));
}

/* Graphs */
HIPCUDA hipError_t hipGraphCreate(hipGraph_t* g, unsigned int f) { return hipcuda_rt(cudaGraphCreate(g, f)); }
HIPCUDA hipError_t hipGraphDestroy(hipGraph_t g) { return hipcuda_rt(cudaGraphDestroy(g)); }
HIPCUDA hipError_t hipGraphInstantiate(hipGraphExec_t* x, hipGraph_t g, hipGraphNode_t* errNode, char* log, size_t n) {
  (void)errNode, (void)log, (void)n;
  return hipcuda_rt(cudaGraphInstantiate(x, g, 0));
}
HIPCUDA hipError_t hipGraphLaunch(hipGraphExec_t x, hipStream_t s) { return hipcuda_rt(cudaGraphLaunch(x, s)); }
HIPCUDA hipError_t hipGraphExecDestroy(hipGraphExec_t x) { return hipcuda_rt(cudaGraphExecDestroy(x)); }
HIPCUDA hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* n, hipGraph_t g, const hipGraphNode_t* deps, size_t nd, hipMemAllocNodeParams* p) {
  return hipcuda_rt(cudaGraphAddMemAllocNode(n, g, deps, nd, p));
}
HIPCUDA hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* n, hipGraph_t g, const hipGraphNode_t* deps, size_t nd, void* p) {
  return hipcuda_rt(cudaGraphAddMemFreeNode(n, g, deps, nd, p));
}
HIPCUDA hipError_t hipStreamBeginCapture(hipStream_t s, hipStreamCaptureMode m) { return hipcuda_rt(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)m)); }
HIPCUDA hipError_t hipStreamEndCapture(hipStream_t s, hipGraph_t* g) { return hipcuda_rt(cudaStreamEndCapture(s, g)); }
#endif
