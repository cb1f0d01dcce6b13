// Package xnack checks that memory which needs XNACK is used only where XNACK
// is known to be on.
//
// # Analyzer xnack
//
// xnack: check that memory which needs XNACK is used only where XNACK is on
//
// XNACK lets an AMD GPU retry a faulting access after the page is brought in.
// Without it, a kernel that touches system memory (C.malloc, mmap, Go memory)
// aborts with "Memory access fault by GPU ... Page not present", and managed
// memory does not migrate: it acts as pinned host memory, and code that waits
// for the GPU to write it can hang. ROCR reads HSA_XNACK once, when the HIP
// runtime initializes.
//
// Checks:
//
//   - HL4001 (error): system memory reaches a kernel argument array, or
//     hipMemAdvise/hipMemPrefetchAsync, without an XNACK guard. Also for CUDA,
//     where cudaDevAttrPageableMemoryAccess is the analogue.
//   - HL4002 (warning): managed memory (hipMallocManaged, hipMemPrefetchAsync,
//     hipMemAdvise) used without a guard. HIP only: managed memory migrates on
//     NVIDIA without any such switch.
//   - HL4003 (error): os.Setenv("HSA_XNACK", ...) after a HIP call may already
//     have run on the same path (HIP only; CUDA calls do not read it).
//   - HL4004 (warning): a test, benchmark, example or fuzz target reaches
//     XNACK-dependent memory with no skip guard, and no TestMain (or init)
//     sets HSA_XNACK=1 in time or exits unless XNACK is on.
//   - HL4005 (error): the memory use is guarded by hipDeviceAttributeManagedMemory,
//     hipDeviceAttributeConcurrentManagedAccess or the matching hipDeviceProp_t
//     fields, which report HMM support, not XNACK.
//
// Guards: os.Setenv("HSA_XNACK", "1") before any HIP call on the path (in
// init, main or TestMain); a string test for "xnack+" (strings.Contains,
// HasSuffix, ==) such as on gcnArchName; hipDeviceAttributePageableMemoryAccess
// (or the pageableMemoryAccess property, or cudaDevAttrPageableMemoryAccess)
// compared so that only 1 passes. A guard covers the branch where it held,
// and what follows `if !ok { t.Skip(...) }`, a return, panic, os.Exit or
// t.Fatal. Guard wrappers are summarized: a function whose boolean result is
// a guard (or false) reports XNACK (Summary.Reports); a function that
// returns normally only with XNACK on guards its callers (Summary.Guards,
// for skip helpers); so is a variable assigned only guards. A function whose
// error result is nil only on paths that checked XNACK (at least one
// `return nil`, all of them guarded, every other return a new error or an
// error variable) guards its callers where that error is nil
// (Summary.ErrGuard): if err := requireXNACK(dev); err != nil { log.Fatal(err) }.
// Kernel argument arrays in C memory (C.malloc'd slots written with the
// arguments, or pointing to a second C buffer of argument values) pass what
// is written into them; slots pointing to constant offsets of one C block
// pass what is stored at exactly those offsets. A helper returning such an
// array (typed *unsafe.Pointer or []unsafe.Pointer) whose arguments include
// one of its parameters is summarized (Summary.Args): a launch with its
// result passes what the caller gave the helper. A launch whose kernelParams
// is a parameter passes the arguments of the caller's array
// (Summary.Params, args(i)).
//
// # Reachability
//
// The analysis is per package, bottom-up: each function is summarized by the
// XNACK-dependent uses it reaches without a guard of its own
// (Summary.Needs), whether it may call HIP (Runtime) and whether it sets
// HSA_XNACK (Env), in one Summary fact per function. Within a package the summaries are computed to a fixpoint
// over the call graph read from the AST (static calls of functions and
// concrete methods, and function literals, taken as called where they are
// written: t.Run, f.Fuzz, go, defer); calls into other packages use the facts
// those packages exported for their exported functions. A call through an
// interface method may reach any implementation known to the package (its
// own types and those of packages with facts, such as a Runtime with HIP and
// CUDA implementations): it needs what any of them needs, and guards (or
// reports XNACK) only if all of them do. Calls through function values are
// not followed, so uses behind them are not reported. Memory provenance is
// flow-insensitive per variable over the whole package; a struct field or
// the elements of a map or slice (shared by every value of the type, every
// key) are system memory only when everything stored in them anywhere in
// the package is. A parameter carries none where it is used, but a function
// whose parameter (receiver, or a field p.f of either, for a field that may
// hold system memory) reaches a kernel argument, hipMemPrefetchAsync or
// hipMemAdvise on a path it does not guard is summarized (Summary.Params,
// to a fixpoint through wrappers that pass it on, and across packages), and
// a call that passes system memory there is a use at the call ("C.malloc
// memory (p) passed to fill, which hands it to hipModuleLaunchKernel"). The
// message names the callee and the function making the runtime call, not
// the wrappers in between. A kernel argument array received as a parameter
// is not followed, nor is memory stored by one function and launched by
// another, nor a field two levels down.
// Attributes passed as local macros or numbers (prototypes declared by hand,
// #define ATTR_PAGEABLE 65) are recognized by value.
//
// Findings land at entry points only: main and init (package main), TestMain,
// and Test, Benchmark, Example and Fuzz functions of _test.go files, which
// the analysis walks in the order they run: package variable initializers,
// then init functions, then main or TestMain (guarded where every m.Run call
// is), then each test. A program entry gets at most one HL4001 and one HL4002,
// at the first call that reaches an unguarded use, with every use as a
// related position; a test gets one HL4004 instead (the fix is the skip).
// HL4003 and HL4005 are reported where they are written, in any function.
// Setting HSA_XNACK inside a test is no guard, since earlier tests may have
// initialized the runtime; a TestMain in the external test package does not
// guard the internal tests (another pass). The package's own TestMain does
// guard its external tests, which run in the same binary: it is summarized
// (fact GuardsTests), and the external test package reads the fact from the
// package under test it imports. Like every fact, it comes only from a
// package that calls the runtime or imports one that does (the fast path
// leaves the others, and the driver drops their syntax): a TestMain of a
// package with no GPU code of its own guards nothing for its external tests.
package xnack
