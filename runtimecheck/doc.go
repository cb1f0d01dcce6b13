// Package runtimecheck implements `hiplint confirm`: it runs hiplint's
// analyzers, then confirms or refutes each finding on a GPU.
//
// For each finding it plans (the tests, benchmarks and examples whose call
// graph reaches the flagged function), instruments (go test -overlay: runtime
// calls C.hipX(...) in the flagged package become calls of generated C
// wrappers C.hiplint_hipX(C.int(site), ...) that append one JSON line per
// call to the trace file named by HIPLINT_TRACE), runs each planned test in
// its own process group under a time limit, and judges the finding from the
// trace with the judge of its check family. The user's tree is never written:
// every rewritten or added file lives in a temporary directory that the
// overlay points at.
//
// Verdicts: confirmed, refuted, not exercised, inconclusive; each carries the
// evidence it rests on. A crash signal, a timeout or an out-of-memory kill of
// the test process is evidence, not a failure of the tool.
package runtimecheck
