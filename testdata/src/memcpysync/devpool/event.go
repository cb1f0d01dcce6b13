package devpool

// #include <hip/hip_runtime_api.h>
import "C"

// Event marks a point in a stream.
type Event struct {
	ev C.hipEvent_t
}

// record creates an event and records it on s.
func record(s C.hipStream_t) (*Event, error) {
	e := &Event{}
	if err := status("hipEventCreateWithFlags", C.hipEventCreateWithFlags(&e.ev, C.hipEventDisableTiming)); err != nil {
		return nil, err
	}
	if err := status("hipEventRecord", C.hipEventRecord(e.ev, s)); err != nil {
		return nil, err
	}
	return e, nil
}

// Wait blocks the host until the event has completed.
func (e *Event) Wait() error {
	return status("hipEventSynchronize", C.hipEventSynchronize(e.ev))
}

// Release destroys the event.
func (e *Event) Release() { C.hipEventDestroy(e.ev) }

// waitOn makes stream s wait for the event.
func (e *Event) waitOn(s C.hipStream_t) error {
	return status("hipStreamWaitEvent", C.hipStreamWaitEvent(s, e.ev, 0))
}

// ComputeAfter makes the device's compute stream wait for the event.
func (d *Device) ComputeAfter(e *Event) error { return e.waitOn(d.compute) }
