// Package tensorapp uses package tensor the way training code does: clones
// and snapshots read on the host or handed to another stream.
package tensorapp

import (
	"fmt"

	"memcpysync/tensor"
)

// evalClone reads a clone before it landed.
func evalClone(w *tensor.Tensor) (float32, error) { // want evalClone:`readsParams\[0\.shape\]`
	c, err := w.Clone()
	if err != nil {
		return 0, err
	}
	defer c.Free()
	return c.Data()[0], nil // want `this index expression reads c\.ptr on the host before the device-to-device copy into it by Clone \(C\.hipMemcpy\) is ordered`
}

// evalCloneSynced synchronizes before reading the clone.
func evalCloneSynced(w *tensor.Tensor) (float32, error) { // want evalCloneSynced:`readsParams\[0\.shape\]`
	c, err := w.Clone()
	if err != nil {
		return 0, err
	}
	defer c.Free()
	if err := tensor.Synchronize(); err != nil {
		return 0, err
	}
	return c.Data()[0], nil
}

// evalCloneSync reads a clone that CloneSync waited for.
func evalCloneSync(w *tensor.Tensor) (float32, error) { // want evalCloneSync:`readsParams\[0\.shape\]`
	c, err := w.CloneSync()
	if err != nil {
		return 0, err
	}
	return c.Data()[0], nil
}

// logSnapshot prints the head of a snapshot before it landed.
func logSnapshot(m *tensor.Model) error { // want logSnapshot:`readsParams\[0\.Weights\.shape\]`
	s, err := m.Snapshot()
	if err != nil {
		return err
	}
	fmt.Println(s.Step, s.Weights.Data()[0]) // want `this index expression reads s\.Weights\.ptr on the host before the device-to-device copy into it by Snapshot \(C\.hipMemcpy\) is ordered`
	return nil
}

// logCheckpoint prints the head of a checkpoint, which has landed.
func logCheckpoint(m *tensor.Model) error { // want logCheckpoint:`readsParams\[0\.Weights\.shape\]`
	s, err := m.Checkpoint()
	if err != nil {
		return err
	}
	fmt.Println(s.Step, s.Weights.Data()[0])
	return nil
}

// downloadClone hands a clone to a non-blocking stream, which does not wait
// for the null stream's copy.
func downloadClone(st *tensor.Stream, w *tensor.Tensor, out []float32) error { // want downloadClone:`readsParams\[1\.shape\]`
	c, err := w.Clone()
	if err != nil {
		return err
	}
	return st.Download(out, c) // want `Download reads c\.ptr on a non-blocking stream \(it does not wait for other streams\) before the device-to-device copy into it by Clone \(C\.hipMemcpy\) is ordered`
}

// downloadCloneSynced waits for the clone first.
func downloadCloneSynced(st *tensor.Stream, w *tensor.Tensor, out []float32) error { // want downloadCloneSynced:`readsParams\[1\.shape\]`
	c, err := w.Clone()
	if err != nil {
		return err
	}
	if err := tensor.Synchronize(); err != nil {
		return err
	}
	return st.Download(out, c)
}

// replicate copies src into a new tensor per replica, appending each before
// the copy into it, and reads the first replica before any copy landed.
func replicate(src *tensor.Tensor, n int) ([]*tensor.Tensor, float32, error) { // want replicate:`readsParams\[0\.shape 1\]`
	var reps []*tensor.Tensor
	for range n {
		r, err := tensor.New(src.Shape()...)
		if err != nil {
			return nil, 0, err
		}
		reps = append(reps, r)
		if err := src.CopyTo(r); err != nil {
			return nil, 0, err
		}
	}
	return reps, reps[0].Data()[0], nil // want `this index expression reads reps\[0\]\.ptr on the host before the device-to-device copy into it by CopyTo \(C\.hipMemcpyDtoD\) is ordered`
}

// replicateSynced synchronizes after the loop.
func replicateSynced(src *tensor.Tensor, n int) ([]*tensor.Tensor, float32, error) { // want replicateSynced:`readsParams\[0\.shape 1\]`
	var reps []*tensor.Tensor
	for range n {
		r, err := tensor.New(src.Shape()...)
		if err != nil {
			return nil, 0, err
		}
		reps = append(reps, r)
		if err := src.CopyTo(r); err != nil {
			return nil, 0, err
		}
	}
	if err := tensor.Synchronize(); err != nil {
		return nil, 0, err
	}
	return reps, reps[0].Data()[0], nil
}

// sumReplicas ranges over replicas cloned in a loop before they landed.
func sumReplicas(src *tensor.Tensor, n int) (float32, error) { // want sumReplicas:`readsParams\[0\.shape 1\]`
	reps := make([]*tensor.Tensor, 0, n)
	for range n {
		c, err := src.Clone()
		if err != nil {
			return 0, err
		}
		reps = append(reps, c)
	}
	var sum float32
	for _, r := range reps {
		sum += r.Data()[0] // want `this index expression reads r\.ptr on the host before the device-to-device copy into it by Clone \(C\.hipMemcpy\) is ordered`
	}
	return sum, nil
}

// sumReplicasSynced synchronizes before the range loop.
func sumReplicasSynced(src *tensor.Tensor, n int) (float32, error) { // want sumReplicasSynced:`readsParams\[0\.shape 1\]`
	reps := make([]*tensor.Tensor, 0, n)
	for range n {
		c, err := src.Clone()
		if err != nil {
			return 0, err
		}
		reps = append(reps, c)
	}
	if err := tensor.Synchronize(); err != nil {
		return 0, err
	}
	var sum float32
	for _, r := range reps {
		sum += r.Data()[0]
	}
	return sum, nil
}

// headOnPeer reads a peer clone before it landed.
func headOnPeer(w *tensor.Tensor) (float32, error) { // want headOnPeer:`readsParams\[0\.shape\]`
	c, err := w.CloneTo(1, 0)
	if err != nil {
		return 0, err
	}
	return c.Data()[0], nil // want `this index expression reads c\.ptr on the host before the device-to-device copy into it by CloneTo \(C\.hipMemcpyPeer\) is ordered`
}

// headOnPeerSynced synchronizes the copying device first.
func headOnPeerSynced(w *tensor.Tensor) (float32, error) { // want headOnPeerSynced:`readsParams\[0\.shape\]`
	c, err := w.CloneTo(1, 0)
	if err != nil {
		return 0, err
	}
	if err := tensor.Synchronize(); err != nil {
		return 0, err
	}
	return c.Data()[0], nil
}

// evalUpload reads a tensor Upload made from host data: its summary names
// no pending copy (Upload copies device to device on one branch only), so
// the read is silent.
func evalUpload(w *tensor.Tensor, host []float32) (float32, error) { // want evalUpload:`readsParams\[0\.shape\]`
	u, err := w.Upload(false, host)
	if err != nil {
		return 0, err
	}
	return u.Data()[0], nil
}
