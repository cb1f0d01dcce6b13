package devpool

// #include <hip/hip_runtime_api.h>
import "C"

// Event marks a point in a stream.
type Event struct {
	ev C.hipEvent_t
}

// record creates an event and records it on s.
func record(s C.hipStream_t) (*Event, error) { // want record:`eventOps\(record res0\.ev on p0\)`
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
func (e *Event) Wait() error { // want Wait:`eventOps\(sync r\.ev\)`
	return status("hipEventSynchronize", C.hipEventSynchronize(e.ev))
}

// Release destroys the event.
func (e *Event) Release() { C.hipEventDestroy(e.ev) } // want Release:`deviceReads\(r\.ev on unknown\)`

// waitOn makes stream s wait for the event.
func (e *Event) waitOn(s C.hipStream_t) error { // want waitOn:`eventOps\(wait r\.ev on p0\)`
	return status("hipStreamWaitEvent", C.hipStreamWaitEvent(s, e.ev, 0))
}

// ComputeAfter makes the device's compute stream wait for the event.
func (d *Device) ComputeAfter(e *Event) error { return e.waitOn(d.compute) } // want ComputeAfter:`eventOps\(wait p0\.ev on r\.compute\)`
