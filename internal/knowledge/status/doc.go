// Package status knows what a runtime call's status says on the paths after
// it: which variables hold the status of which calls (Statuses, through
// err := check(C.hipMalloc(&p, n)) and v, err := NewBuffer(n)), and on which
// branch such a call failed (hipSuccess is 0, a nil error is success), so
// that an analyzer drops there what a failed call would have done: a copy
// that returned an error is not in flight (memcpysync), an allocation that
// failed holds no memory (graphfree).
//
// It is GPU knowledge two checks share, on top of the engine's core
// (internal/flow, whose ZeroComparison is the Go half: a value compared
// with nil or 0); knowledge/TestBoundary keeps it that way.
package status
