package stagepipe

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// Pipeline connects a staging stage and a filter stage.
type Pipeline struct {
	stage, filter *Stage
	ring          []unsafe.Pointer
}

// stageInto copies the decoded frame into ring slot i on the staging
// stream and returns the staged frame.
func (p *Pipeline) stageInto(i int, src *Frame) *Frame { // want stageInto:`copiesInto\(hipMemcpyAsync dst=res0\.buf stream=r\.stage\.stream\) readsParams\[-1\.ring\]`
	dst := &Frame{buf: p.ring[i%len(p.ring)], bytes: src.bytes}
	C.hipMemcpyAsync(dst.buf, src.buf, C.size_t(src.bytes), C.hipMemcpyDeviceToDevice, p.stage.stream)
	return dst
}

// Run stages every decoded frame and filters it in a second goroutine:
// the filter's stream does not wait for the staging copy.
func (p *Pipeline) Run(decoded <-chan *Frame) <-chan error {
	staged := make(chan *Frame, len(p.ring))
	errs := make(chan error, 1)
	go func() {
		defer close(staged)
		i := 0
		for f := range decoded {
			staged <- p.stageInto(i, f)
			i++
		}
	}()
	go func() {
		defer close(errs)
		for f := range staged {
			if err := p.filter.run(f); err != nil { // MISSED: a copy pending on a frame sent over a channel from another goroutine (no wait joins the two) is not carried to the receiving goroutine's frame
				errs <- err
				return
			}
		}
	}()
	return errs
}

// RunOrdered records an event after each staging copy and makes the
// filter's stream wait for it.
func (p *Pipeline) RunOrdered(decoded <-chan *Frame) <-chan error {
	staged := make(chan *Frame, len(p.ring))
	errs := make(chan error, 1)
	go func() {
		defer close(staged)
		i := 0
		for f := range decoded {
			out := p.stageInto(i, f)
			C.hipEventCreateWithFlags(&out.ready, C.hipEventDisableTiming)
			C.hipEventRecord(out.ready, p.stage.stream)
			staged <- out
			i++
		}
	}()
	go func() {
		defer close(errs)
		for f := range staged {
			C.hipStreamWaitEvent(p.filter.stream, f.ready, 0)
			if err := p.filter.run(f); err != nil {
				errs <- err
				return
			}
		}
	}()
	return errs
}

// RunSynced synchronizes the staging stream before handing a frame on.
func (p *Pipeline) RunSynced(decoded <-chan *Frame) <-chan error {
	staged := make(chan *Frame, len(p.ring))
	errs := make(chan error, 1)
	go func() {
		defer close(staged)
		i := 0
		for f := range decoded {
			out := p.stageInto(i, f)
			C.hipStreamSynchronize(p.stage.stream)
			staged <- out
			i++
		}
	}()
	go func() {
		defer close(errs)
		for f := range staged {
			if err := p.filter.run(f); err != nil {
				errs <- err
				return
			}
		}
	}()
	return errs
}

// Step stages one frame and filters it in the same goroutine, without
// ordering the filter's stream after the staging copy.
func (p *Pipeline) Step(i int, src *Frame) error { // want Step:`readsParams\[-1\.ring\]`
	f := p.stageInto(i, src)
	return p.filter.run(f) // want `run reads f.buf `
}

// StepOnStage filters on the staging stage's own stream, behind the copy.
func (p *Pipeline) StepOnStage(i int, src *Frame) error { // want StepOnStage:`readsParams\[-1\.ring\]`
	f := p.stageInto(i, src)
	return p.stage.run(f)
}

// Preview downloads the staged frame with a blocking copy after
// synchronizing the staging stream.
func (p *Pipeline) Preview(i int, src *Frame, out []byte) { // want Preview:`synchronizes\(null, r\.stage\.stream\) readsParams\[-1\.ring\]`
	f := p.stageInto(i, src)
	C.hipStreamSynchronize(p.stage.stream)
	C.hipMemcpy(unsafe.Pointer(&out[0]), f.buf, C.size_t(len(out)), C.hipMemcpyDeviceToHost)
}
