/* hiplint: the graph memory-node API that Debian's HIP 5.2.3 headers predate,
 * declared on top of the real <hip/hip_runtime_api.h> (which must come first).
 * Declarations only, written by us; layout as in HIP >= 5.3. */
#ifndef HIPLINT_HIP_GRAPH_MEM_H
#define HIPLINT_HIP_GRAPH_MEM_H
#include <hip/hip_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hipMemAllocNodeParams {
  hipMemPoolProps poolProps;
  const hipMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr;
} hipMemAllocNodeParams;

hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                   size_t numDependencies, hipMemAllocNodeParams* pNodeParams);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
                                  size_t numDependencies, void* dev_ptr);

#ifdef __cplusplus
}
#endif
#endif
