// Package knowledge holds no code: its subpackages are the GPU knowledge that
// more than one check uses, on top of the engine's core (internal/flow), the
// way staticcheck keeps analysis/facts/*. Each is named for what it knows
// (stream and event ordering, status checks), imports the core and never the
// reverse.
//
// The rule, enforced by TestBoundary: every exported name of a knowledge
// package has at least two distinct checks (analyzers/<name>, runtimecheck)
// among its callers. Knowledge that one analyzer uses lives in that
// analyzer. The core is exempt, but its exported names are pinned
// (testdata/core.txt: a new one is added on purpose, with -update), each
// function, variable and constant of them is used outside the core, and the
// number that fewer than two checks use (maxSingle) may only come down.
//
// One knowledge package exists: status (graphfree, memcpysync), the calls
// whose status a variable holds and the branches on which they failed. Of
// the core's other exported names that two or more checks use, nearly all
// know Go (Index, Table, Summaries, Locator); the GPU knowledge still in
// the core (stream queues, kernel argument arrays, status branches) serves
// one analyzer each (docs/architecture.md, "Knowledge packages, as built").
package knowledge
