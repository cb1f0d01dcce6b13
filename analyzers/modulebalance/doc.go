// Package modulebalance checks that every module a HIP or CUDA program loads
// (hipModuleLoad, hipModuleLoadData, hipModuleLoadDataEx, cuModuleLoad*,
// cuLibraryLoad*) is unloaded exactly once on every path, and that nothing from
// a module is used after its unload.
//
// # Analyzer modulebalance
//
// modulebalance: check that GPU modules are unloaded once on every path
//
// Each successful module load must reach exactly one unload on every path out
// of the function, unless ownership moves to something that outlives it: the
// caller (the module is returned), a package-level variable or map, a field of
// a type whose method or finalizer unloads it, or a function that unloads its
// argument. ROCm before 5.6.1 never unmapped a loaded code object, and every
// runtime keeps the module's memory until hipModuleUnload: long-running loaders
// that leak modules grow without bound.
//
// Checks: HL2001 module leak, HL2002 double unload, HL2003 use after unload,
// HL2004 unload of a failed or unchecked load.
package modulebalance
