package cgocall

// systemAllocs are the C functions (as CName names them) that return new
// system memory: the C heap, and mappings.
var systemAllocs = map[string]bool{
	"malloc": true, "calloc": true, "realloc": true, "aligned_alloc": true, "valloc": true,
	"memalign": true, "mmap": true, "CBytes": true, "CString": true,
}

// IsSystemAlloc reports whether the C function name (CName's) returns new
// system memory: C.malloc and its relatives, C.mmap, C.CBytes and
// C.CString. IsCHeapAlloc is the narrower set that C.free frees.
func IsSystemAlloc(name string) bool { return systemAllocs[name] }
