package devpool

// The library's own flows: what its higher-level operations do with the
// pieces above.

// Snapshot copies b into a pooled buffer on the copy stream and downloads
// it; the blocking download runs on the null stream, which does not wait
// for the non-blocking copy stream.
func (d *Device) Snapshot(b *Buffer) ([]float32, error) { // want Snapshot:`readsParams\[-1\.pool\.free\]`
	c, err := d.pool.Get(b.n)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	ev, err := d.CopyAsync(c, b)
	if err != nil {
		return nil, err
	}
	defer ev.Release()
	out := make([]float32, b.n)
	err = d.Download(out, c) // want `Download reads c(\.ptr)? `
	return out, err
}

// SnapshotWaited waits for the copy's event first.
func (d *Device) SnapshotWaited(b *Buffer) ([]float32, error) { // want SnapshotWaited:`readsParams\[-1\.pool\.free\]`
	c, err := d.pool.Get(b.n)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	ev, err := d.CopyAsync(c, b)
	if err != nil {
		return nil, err
	}
	defer ev.Release()
	if err := ev.Wait(); err != nil {
		return nil, err
	}
	out := make([]float32, b.n)
	return out, d.Download(out, c)
}

// SnapshotSynced synchronizes the copy stream first.
func (d *Device) SnapshotSynced(b *Buffer) ([]float32, error) { // want SnapshotSynced:`readsParams\[-1\.pool\.free\]`
	c, err := d.pool.Get(b.n)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	if _, err := d.CopyAsync(c, b); err != nil {
		return nil, err
	}
	if err := d.SyncCopies(); err != nil {
		return nil, err
	}
	out := make([]float32, b.n)
	return out, d.Download(out, c)
}

// ScaledClone clones b on the null stream and scales the clone on the
// copy stream, which does not wait for the null stream.
func (d *Device) ScaledClone(b *Buffer, alpha float32) (*Buffer, error) { // want ScaledClone:`copiesInto\(hipMemcpy dst=res0\.ptr\) readsParams\[-1\.pool\.free\]`
	c, err := d.Clone(b)
	if err != nil {
		return nil, err
	}
	return c, d.ScaleOnCopyStream(c, alpha) // want `ScaleOnCopyStream reads c(\.ptr)? `
}

// ScaledCloneCompute scales the clone on the blocking compute stream,
// which waits for the null stream's copy.
func (d *Device) ScaledCloneCompute(b *Buffer, alpha float32) (*Buffer, error) { // want ScaledCloneCompute:`copiesInto\(hipMemcpy dst=res0\.ptr\) readsParams\[-1\.pool\.free\]`
	c, err := d.Clone(b)
	if err != nil {
		return nil, err
	}
	return c, d.Scale(c, alpha)
}

// CloneToHost clones b and downloads the clone on the null stream,
// behind the copy.
func (d *Device) CloneToHost(b *Buffer) ([]float32, error) { // want CloneToHost:`readsParams\[-1\.pool\.free\]`
	c, err := d.Clone(b)
	if err != nil {
		return nil, err
	}
	defer c.Release()
	out := make([]float32, b.n)
	return out, d.Download(out, c)
}

// Checksum sums a clone of a managed buffer on the host while the clone
// may still be landing.
func (d *Device) Checksum(b *Buffer) (float32, error) { // want Checksum:`readsParams\[-1\.pool\.free\]`
	c, err := d.Clone(b)
	if err != nil {
		return 0, err
	}
	defer c.Release()
	var sum float32
	for _, v := range c.Host() { // want `reads c(\.ptr)? `
		sum += v
	}
	return sum, nil
}

// ChecksumSynced synchronizes the device before it reads.
func (d *Device) ChecksumSynced(b *Buffer) (float32, error) { // want ChecksumSynced:`readsParams\[-1\.pool\.free\]`
	c, err := d.Clone(b)
	if err != nil {
		return 0, err
	}
	defer c.Release()
	if err := d.Sync(); err != nil {
		return 0, err
	}
	var sum float32
	for _, v := range c.Host() {
		sum += v
	}
	return sum, nil
}

// Broadcast copies src into every buffer and scales them on the compute
// stream, without making it wait for the copies.
func (d *Device) Broadcast(src *Buffer, dsts []*Buffer, alpha float32) error { // want Broadcast:`readsParams\[1\]`
	for _, dst := range dsts {
		ev, err := d.CopyAsync(dst, src)
		if err != nil {
			return err
		}
		defer ev.Release()
	}
	for _, dst := range dsts {
		if err := d.Scale(dst, alpha); err != nil { // want `Scale reads dst(\.ptr)? `
			return err
		}
	}
	return nil
}

// BroadcastOrdered makes the compute stream wait for each copy's event.
func (d *Device) BroadcastOrdered(src *Buffer, dsts []*Buffer, alpha float32) error { // want BroadcastOrdered:`readsParams\[1\]`
	evs, err := mapBuffers(dsts, func(b *Buffer) (*Event, error) { return d.CopyAsync(b, src) })
	if err != nil {
		return err
	}
	defer func() {
		for _, e := range evs {
			e.Release()
		}
	}()
	for _, e := range evs {
		if err := d.ComputeAfter(e); err != nil {
			return err
		}
	}
	for _, dst := range dsts {
		if err := d.Scale(dst, alpha); err != nil {
			return err
		}
	}
	return nil
}

// mapBuffers applies f to every buffer.
func mapBuffers[T any](bs []*Buffer, f func(*Buffer) (T, error)) ([]T, error) {
	out := make([]T, 0, len(bs))
	for _, b := range bs {
		v, err := f(b)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Refresh copies src into every live buffer of the pool, waiting for each
// copy through a method value of its event, and reads them back.
func (d *Device) Refresh(src *Buffer, out []float32) error {
	for b := range d.pool.Live() {
		ev, err := d.CopyAsync(b, src)
		if err != nil {
			return err
		}
		wait := ev.Wait
		if err := wait(); err != nil {
			return err
		}
		if err := d.Download(out, b); err != nil {
			return err
		}
	}
	return nil
}

// RefreshUnwaited does the same without waiting.
func (d *Device) RefreshUnwaited(src *Buffer, out []float32) error {
	copyInto := d.CopyAsync
	for b := range d.pool.Live() {
		if _, err := copyInto(b, src); err != nil {
			return err
		}
		if err := d.Download(out, b); err != nil { // want `Download reads b(\.ptr)? `
			return err
		}
	}
	return nil
}

// Stage round-trips host data through the runtime's host-to-host copy:
// nothing is in flight.
func Stage(dst, src []float32) float32 {
	if err := HostCopy(dst, src); err != nil {
		return 0
	}
	return dst[0]
}
