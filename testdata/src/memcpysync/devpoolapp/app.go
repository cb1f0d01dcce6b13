// Package devpoolapp uses devpool the way an application does.
package devpoolapp

import (
	"errors"

	"memcpysync/devpool"
)

// Predict copies the input into a scratch buffer and reads it back
// without waiting for the copy's event.
func Predict(dev *devpool.Device, in *devpool.Buffer) ([]float32, error) { // want Predict:`readsParams\[0\.pool\.free\]`
	scratch, err := dev.Pool().Get(in.Len())
	if err != nil {
		return nil, err
	}
	defer scratch.Release()
	if _, err := dev.CopyAsync(scratch, in); err != nil {
		return nil, err
	}
	out := make([]float32, in.Len())
	return out, dev.Download(out, scratch) // want `Download reads scratch(\.ptr)? `
}

// PredictWaited waits for the event.
func PredictWaited(dev *devpool.Device, in *devpool.Buffer) ([]float32, error) { // want PredictWaited:`readsParams\[0\.pool\.free\]`
	scratch, err := dev.Pool().Get(in.Len())
	if err != nil {
		return nil, err
	}
	defer scratch.Release()
	ev, err := dev.CopyAsync(scratch, in)
	if err != nil {
		return nil, err
	}
	defer ev.Release()
	if err := ev.Wait(); err != nil {
		return nil, err
	}
	out := make([]float32, in.Len())
	return out, dev.Download(out, scratch)
}

// Max reads a clone on the host while it may still be landing.
func Max(dev *devpool.Device, in *devpool.Buffer) (float32, error) { // want Max:`readsParams\[0\.pool\.free\]`
	c, err := dev.Clone(in)
	if err != nil {
		return 0, err
	}
	defer c.Release()
	h := c.Host()
	m := h[0]                 // want `reads h `
	for _, v := range h[1:] { // want `reads h `
		m = max(m, v)
	}
	return m, nil
}

// MaxSynced synchronizes first.
func MaxSynced(dev *devpool.Device, in *devpool.Buffer) (float32, error) { // want MaxSynced:`readsParams\[0\.pool\.free\]`
	c, err := dev.Clone(in)
	if err != nil {
		return 0, err
	}
	defer c.Release()
	if err := dev.Sync(); err != nil {
		return 0, err
	}
	h := c.Host()
	m := h[0]
	for _, v := range h[1:] {
		m = max(m, v)
	}
	return m, nil
}

// Normalize scales a clone on the compute stream and downloads it: the
// compute stream is blocking and the download is on the null stream,
// both behind the null-stream copy.
func Normalize(dev *devpool.Device, in *devpool.Buffer, out []float32) error { // want Normalize:`readsParams\[0\.pool\.free\]`
	c, err := dev.Clone(in)
	if err != nil {
		return err
	}
	defer c.Release()
	if err := dev.Scale(c, 0.5); err != nil {
		return err
	}
	return dev.Download(out, c)
}

// Rescale makes the compute stream wait for the copy's event.
func Rescale(dev *devpool.Device, dst, src *devpool.Buffer) error { // want Rescale:`copiesInto\(hipMemcpyAsync dst=p1\.ptr stream=p0\.copy\) deviceReads\(p1\.n on p0\.compute; p1\.ptr on p0\.compute\)`
	ev, err := dev.CopyAsync(dst, src)
	if err != nil {
		var he *devpool.Error
		if errors.As(err, &he) {
			return he
		}
		return err
	}
	defer ev.Release()
	if err := dev.ComputeAfter(ev); err != nil {
		return err
	}
	return dev.Scale(dst, 2)
}

// RescaleUnordered does not.
func RescaleUnordered(dev *devpool.Device, dst, src *devpool.Buffer) error { // want RescaleUnordered:`copiesInto\(hipMemcpyAsync dst=p1\.ptr stream=p0\.copy\) deviceReads\(p1\.n on p0\.compute; p1\.ptr on p0\.compute\)`
	ev, err := dev.CopyAsync(dst, src)
	if err != nil {
		return err
	}
	defer ev.Release()
	return dev.Scale(dst, 2) // want `Scale reads dst(\.ptr)? `
}
