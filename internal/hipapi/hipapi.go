// Package hipapi is hiplint's model of the GPU runtime APIs: one table of the HIP
// runtime, CUDA runtime and CUDA driver functions that the checks reason about,
// each with its role and the positions of the arguments that role needs.
//
// The table is data, not code paths: twins (hipMemcpyPeer, cudaMemcpyPeer,
// cuMemcpyPeer) are separate rows with the same role, and adding an API is one
// row. Analyzers look calls up by the C function name only, so hand-written
// prototypes in a cgo preamble are recognized like the real headers.
package hipapi

import (
	"sort"
	"strings"
)

// Family is the API family a function belongs to.
type Family uint8

const (
	HIP         Family = iota + 1 // HIP runtime (hip*)
	CUDARuntime                   // CUDA runtime (cuda*)
	CUDADriver                    // CUDA driver (cu*)
)

func (f Family) String() string {
	switch f {
	case HIP:
		return "HIP runtime"
	case CUDARuntime:
		return "CUDA runtime"
	case CUDADriver:
		return "CUDA driver"
	}
	return "unknown family"
}

// Role is what a runtime function does, as far as the checks care.
type Role uint8

const (
	Other             Role = iota
	Init                   // runtime initialization (hipInit, cuInit)
	Alloc                  // allocates memory into the Out argument
	Free                   // frees Ptr
	Copy                   // copies Size bytes from Src to Dst
	Memset                 // writes Dst
	DeviceSync             // waits for all work of the current device
	StreamSync             // waits for all work of Stream
	EventSync              // waits for Event
	EventRecord            // records Event on Stream
	StreamWaitEvent        // makes Stream wait for Event
	StreamCreate           // creates a stream into Out (Flags may make it non-blocking)
	StreamDestroy          // destroys Stream
	EventCreate            // creates an event into Out
	SetDevice              // makes Device current
	ModuleLoad             // loads a module into Out
	ModuleUnload           // unloads Module
	ModuleGetFunction      // borrows a function from Module into Out
	ModuleGetGlobal        // borrows a global from Module into Out
	Launch                 // launches Function on Stream with KernelArgs
	GraphAllocNode         // adds a graph mem-alloc node; Params.dptr receives the address
	GraphFreeNode          // adds a graph mem-free node freeing Ptr
	GraphKernelNode        // adds a kernel node (Params holds kernel arguments)
	GraphCopyNode          // adds a memcpy node
	GraphMemsetNode        // adds a memset node
	GraphDependencies      // adds edges between existing nodes
	CaptureBegin           // starts capturing Stream into a graph
	CaptureEnd             // ends capture of Stream into Out
	DeviceAttribute        // reads a device attribute into Out
	DeviceProperties       // reads device properties into Out
	MemAdvise              // advises on managed/system memory at Ptr
	MemPrefetch            // prefetches managed/system memory at Ptr on Stream
	StreamQuery            // polls Stream (never waits)
	EventQuery             // polls Event (never waits)
)

var roleNames = [...]string{
	Other: "other", Init: "init", Alloc: "alloc", Free: "free", Copy: "copy", Memset: "memset",
	DeviceSync: "device sync", StreamSync: "stream sync", EventSync: "event sync",
	EventRecord: "event record", StreamWaitEvent: "stream wait event", StreamCreate: "stream create",
	StreamDestroy: "stream destroy", EventCreate: "event create", SetDevice: "set device",
	ModuleLoad: "module load", ModuleUnload: "module unload", ModuleGetFunction: "module get function",
	ModuleGetGlobal: "module get global", Launch: "launch", GraphAllocNode: "graph alloc node",
	GraphFreeNode: "graph free node", GraphKernelNode: "graph kernel node", GraphCopyNode: "graph copy node",
	GraphMemsetNode: "graph memset node", GraphDependencies: "graph dependencies",
	CaptureBegin: "capture begin", CaptureEnd: "capture end", DeviceAttribute: "device attribute",
	DeviceProperties: "device properties", MemAdvise: "mem advise", MemPrefetch: "mem prefetch",
	StreamQuery: "stream query", EventQuery: "event query",
}

func (r Role) String() string {
	if int(r) < len(roleNames) && roleNames[r] != "" {
		return roleNames[r]
	}
	return "unknown role"
}

// AllocKind says what kind of memory an allocation returns.
type AllocKind uint8

const (
	NoAlloc       AllocKind = iota
	Device                  // device memory (hipMalloc)
	Managed                 // managed/unified memory (hipMallocManaged)
	HostPinned              // page-locked host memory (hipHostMalloc)
	StreamOrdered           // stream-ordered device memory (hipMallocAsync)
	Pool                    // stream-ordered memory from an explicit pool
	Graph                   // graph allocation (hipGraphAddMemAllocNode)
)

func (k AllocKind) String() string {
	switch k {
	case Device:
		return "device"
	case Managed:
		return "managed"
	case HostPinned:
		return "pinned host"
	case StreamOrdered:
		return "stream-ordered"
	case Pool:
		return "pool"
	case Graph:
		return "graph"
	}
	return "none"
}

// Direction is the direction a copy function implies.
type Direction uint8

const (
	NoDirection    Direction = iota
	FromKind                 // given by the Kind argument (hipMemcpy)
	HostToDevice             // hipMemcpyHtoD
	DeviceToHost             // hipMemcpyDtoH
	DeviceToDevice           // hipMemcpyDtoD
	Peer                     // between devices (hipMemcpyPeer): DstDevice, SrcDevice
	Unified                  // inferred from the pointers (cuMemcpy)
)

// Arg is the position of an argument: 0 means absent, n means index n-1.
// Use At to build one and Index or Of to read it.
type Arg uint8

// At returns the Arg for argument index i (0-based).
func At(i int) Arg { return Arg(i + 1) }

// Index returns the 0-based argument index and whether the argument exists.
func (a Arg) Index() (int, bool) { return int(a) - 1, a != 0 }

// Of returns the argument at a in args, or the zero value if absent or out of range.
func Of[T any](a Arg, args []T) (T, bool) {
	var zero T
	i, ok := a.Index()
	if !ok || i >= len(args) {
		return zero, false
	}
	return args[i], true
}

// Func describes one runtime function.
type Func struct {
	Name   string
	Family Family
	Role   Role

	Out        Arg // out parameter: allocated pointer, module, function, stream, event, node, graph, attribute value
	Ptr        Arg // pointer freed, advised, prefetched, or freed by a graph free node
	Dst, Src   Arg // copy/memset destination and source
	Size       Arg
	Kind       Arg // hipMemcpyKind argument
	Stream     Arg // stream the operation is queued on (absent: the null stream / synchronous)
	Event      Arg
	Flags      Arg // stream/event creation flags
	Device     Arg // device (SetDevice, attribute, prefetch target)
	DstDevice  Arg // peer copies: destination device (or context)
	SrcDevice  Arg // peer copies: source device (or context)
	Module     Arg // module handle argument (unload, get function)
	Function   Arg // function launched
	KernelArgs Arg // kernel argument array (void**)
	Params     Arg // node parameter struct
	Deps       Arg // dependency array of a graph node
	From, To   Arg // hipGraphAddDependencies: each node of To depends on the node of From at its index
	NumDeps    Arg
	Attr       Arg // device attribute selector

	Alloc     AllocKind
	Direction Direction
	// Async marks operations that return before the work is done even when
	// Stream is absent (hipMemcpyPeer, D2D hipMemcpy).
	Async bool
}

// Lookup finds a runtime function by its C name. Versioned and per-thread
// aliases (cuMemAlloc_v2, cudaMemcpy_ptds) resolve to their base row.
func Lookup(name string) (*Func, bool) {
	if f, ok := byName[name]; ok {
		return f, true
	}
	// Per-thread-stream aliases first (cuMemPrefetchAsync_v2_ptsz is the _v2
	// row), then versions (cuMemAlloc_v2 is cuMemAlloc).
	for _, suf := range []string{"_ptsz", "_ptds", "_spt"} {
		if base, ok := strings.CutSuffix(name, suf); ok {
			return Lookup(base)
		}
	}
	// ROCm 6's hip_runtime_api.h defines hipGetDeviceProperties (and
	// hipChooseDevice) as macros naming their R0600 versions, so cgo calls
	// those: they are the same rows.
	for _, suf := range []string{"_v2", "_v3", "R0600"} {
		if base, ok := strings.CutSuffix(name, suf); ok {
			f, ok := byName[base]
			return f, ok
		}
	}
	return nil, false
}

// All returns every row, sorted by name.
func All() []*Func {
	out := make([]*Func, 0, len(byName))
	for _, f := range byName {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FamilyOf returns the family a C name belongs to by its prefix.
func FamilyOf(name string) Family {
	switch {
	case strings.HasPrefix(name, "hip"):
		return HIP
	case strings.HasPrefix(name, "cuda"):
		return CUDARuntime
	case strings.HasPrefix(name, "cu"):
		return CUDADriver
	}
	return 0
}

// Unloader returns the name of the function that unloads what load loads,
// in the same family (hipModuleLoad → hipModuleUnload, cuLibraryLoadData →
// cuLibraryUnload).
func Unloader(load *Func) string {
	switch {
	case strings.HasPrefix(load.Name, "cuLibrary"):
		return "cuLibraryUnload"
	case strings.HasPrefix(load.Name, "cudaLibrary"):
		return "cudaLibraryUnload"
	case load.Family == CUDADriver:
		return "cuModuleUnload"
	}
	return "hipModuleUnload"
}

var byName = func() map[string]*Func {
	m := make(map[string]*Func, len(table))
	for i := range table {
		f := &table[i]
		if _, dup := m[f.Name]; dup {
			panic("hipapi: duplicate row " + f.Name)
		}
		f.Family = FamilyOf(f.Name)
		m[f.Name] = f
	}
	return m
}()
