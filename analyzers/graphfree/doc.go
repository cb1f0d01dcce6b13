// Package graphfree checks graph mem-free nodes (hipGraphAddMemFreeNode,
// cudaGraphAddMemFreeNode, cuGraphAddMemFreeNode): the pointer must be a graph
// allocation, the free node must come after every node that uses the memory,
// and the allocation must be freed once.
//
// # Analyzer graphfree
//
// graphfree: check that graph free nodes free graph allocations, after their last user, once
//
// A free node may only free a graph allocation: params.dptr of an alloc node
// (hipGraphAddMemAllocNode), or memory that hipMallocAsync allocated while its
// stream was being captured. CUDA documents, and current HIP enforces, that
// anything else is rejected with hipErrorInvalidValue; ROCm before 5.6.1
// crashed, and 5.6.x accepted any HIP allocation.
//
// The analyzer follows pointers through assignments, conversions (uintptr,
// hipDeviceptr_t, CUdeviceptr, unsafe.Pointer), struct fields, slices and maps
// of buffers, params.dptr of an alloc node, stream-capture regions, and
// functions: a function that returns memory of a known kind, returns a field of
// its receiver, or adds a free node for one of its parameters exports that as
// a fact, so wrappers work across packages (so does a function that frees a
// parameter's memory with hipFree on every path, for double frees). Closures
// that run in place (ctx.Do(func() error {...})) are part of their caller,
// calls through interface methods do what every known implementation does,
// and an allocation whose status says it failed holds no memory on that
// branch. An unexported field that, everywhere in the package, only ever holds
// one kind of plain allocation is that memory in every method (a type that
// allocates into p.ptr in one method and adds the free node in another).
// Memory of unknown origin (a parameter of an exported function, a value from
// an unknown call) is never reported.
//
// Checks: HL3001 free node on memory that is not a graph allocation, HL3002
// free node on stream-ordered memory allocated outside capture, HL3003 free
// node that does not depend on every node using the memory, HL3004 graph
// allocation freed twice.
package graphfree
