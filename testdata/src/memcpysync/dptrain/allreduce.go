package dptrain

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"sync"
	"unsafe"
)

// Trainer holds the replicas and, on the root device, one gradient slot
// per replica.
type Trainer struct {
	root  *Replica
	reps  []*Replica
	slots []unsafe.Pointer
	sum   C.hipFunction_t
}

// New builds a trainer over the replicas; the first is the root.
func New(reps []*Replica, sum C.hipFunction_t) (*Trainer, error) { // want New:`readsParams\[0\]`
	t := &Trainer{root: reps[0], reps: reps, sum: sum}
	if err := check(C.hipSetDevice(C.int(t.root.dev))); err != nil {
		return nil, err
	}
	for range reps {
		var p unsafe.Pointer
		if err := check(C.hipMalloc(&p, C.size_t(4*t.root.n))); err != nil {
			return nil, err
		}
		t.slots = append(t.slots, p)
	}
	return t, nil
}

// Gather copies every replica's gradients into its root slot, each on the
// replica's stream, and sums the slots on the root's stream. The group
// joins the goroutines, not the copies.
func (t *Trainer) Gather() error { // want Gather:`copiesInto\(hipMemcpyPeerAsync dst=r\.slots\[i\] stream=private peer=\?\) readsParams\[-1\.reps -1\.slots\] deviceReads\(r\.root\.n on r\.root\.stream\)`
	var g group
	for i, r := range t.reps {
		g.Go(func() error {
			return check(C.hipMemcpyPeerAsync(t.slots[i], C.int(t.root.dev), r.grads, C.int(r.dev), C.size_t(4*r.n), r.stream))
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, s := range t.slots {
		if err := t.root.launch(t.sum, t.root.stream, s); err != nil { // MISSED: the copies go into t.slots[i] in goroutines started by a loop over t.reps (a parallel slice, through an errgroup-style helper's closure); the loop over t.slots is not known to read what they wrote
			return err
		}
	}
	return nil
}

// GatherSynced synchronizes each replica's stream in its goroutine.
func (t *Trainer) GatherSynced() error { // want GatherSynced:`readsParams\[-1\.reps -1\.slots\] deviceReads\(r\.root\.n on r\.root\.stream\)`
	var g group
	for i, r := range t.reps {
		g.Go(func() error {
			if err := check(C.hipMemcpyPeerAsync(t.slots[i], C.int(t.root.dev), r.grads, C.int(r.dev), C.size_t(4*r.n), r.stream)); err != nil {
				return err
			}
			return check(C.hipStreamSynchronize(r.stream))
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, s := range t.slots {
		if err := t.root.launch(t.sum, t.root.stream, s); err != nil {
			return err
		}
	}
	return nil
}

// GatherEvents records an event after each copy and makes the root's
// stream wait for all of them.
func (t *Trainer) GatherEvents() error { // want GatherEvents:`copiesInto\(hipMemcpyPeerAsync dst=r\.slots\[i\] stream=private peer=\?\) readsParams\[-1\.reps -1\.slots\] deviceReads\(r\.root\.n on r\.root\.stream\)`
	evs := make([]C.hipEvent_t, len(t.reps))
	var g group
	for i, r := range t.reps {
		g.Go(func() error {
			if err := check(C.hipEventCreateWithFlags(&evs[i], C.hipEventDisableTiming)); err != nil {
				return err
			}
			if err := check(C.hipMemcpyPeerAsync(t.slots[i], C.int(t.root.dev), r.grads, C.int(r.dev), C.size_t(4*r.n), r.stream)); err != nil {
				return err
			}
			return check(C.hipEventRecord(evs[i], r.stream))
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, ev := range evs {
		if err := check(C.hipStreamWaitEvent(t.root.stream, ev, 0)); err != nil {
			return err
		}
	}
	for _, s := range t.slots {
		if err := t.root.launch(t.sum, t.root.stream, s); err != nil {
			return err
		}
	}
	return nil
}

// Broadcast copies the root's weights to every replica with peer copies,
// which return before the data lands, and runs each replica's forward
// pass on its non-blocking stream, which does not wait for them.
func (t *Trainer) Broadcast() error { // want Broadcast:`readsParams\[-1\.reps\]`
	var wg sync.WaitGroup
	for _, r := range t.reps[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			C.hipMemcpyPeer(r.weights, C.int(r.dev), t.root.weights, C.int(t.root.dev), C.size_t(4*r.n))
		}()
	}
	wg.Wait()
	for _, r := range t.reps[1:] {
		if err := r.Forward(); err != nil { // want `Forward reads r.weights `
			return err
		}
	}
	return nil
}

// BroadcastNull runs the forward passes on each destination device's
// null stream, which the peer copy into it is ordered before.
func (t *Trainer) BroadcastNull() error { // want BroadcastNull:`readsParams\[-1\.reps\]`
	var wg sync.WaitGroup
	for _, r := range t.reps[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			C.hipMemcpyPeer(r.weights, C.int(r.dev), t.root.weights, C.int(t.root.dev), C.size_t(4*r.n))
		}()
	}
	wg.Wait()
	for _, r := range t.reps[1:] {
		if err := r.ForwardNull(); err != nil {
			return err
		}
	}
	return nil
}

// BroadcastInOrder copies on each replica's own stream and runs the
// forward pass behind it on the same stream.
func (t *Trainer) BroadcastInOrder() error { // want BroadcastInOrder:`readsParams\[-1\.reps\]`
	var g group
	for _, r := range t.reps[1:] {
		g.Go(func() error {
			if err := check(C.hipMemcpyPeerAsync(r.weights, C.int(r.dev), t.root.weights, C.int(t.root.dev), C.size_t(4*r.n), r.stream)); err != nil {
				return err
			}
			return r.Forward()
		})
	}
	return g.Wait()
}
