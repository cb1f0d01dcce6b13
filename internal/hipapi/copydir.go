package hipapi

// CopyDirections says what a copy by f does, given the copy kinds its Kind
// argument may hold (kinds: bit k for kind k; known false when they are not
// known) and whether its destination and source are host memory:
//   - d2d: it may copy device to device without the host waiting (ROCm skips
//     the host synchronization only when both sides are device memory; a
//     kind picked at run time counts when one of the kinds it may be is
//     device-to-device or the default);
//   - d2h: it surely copies device to host, so that a blocking form returns
//     after the work ordered before it.
func (f *Func) CopyDirections(kinds uint8, known, dstHost, srcHost bool) (d2d, d2h bool) {
	only := func(k int) bool { return known && kinds == 1<<k }
	switch f.Direction {
	case DeviceToHost:
		return false, true
	case DeviceToDevice, Peer:
		return !dstHost && !srcHost, false
	case Unified:
		return !dstHost && !srcHost, dstHost && !srcHost
	case FromKind:
		d2d = known && kinds&(1<<KindDeviceToDevice|1<<KindDefault) != 0 && !dstHost && !srcHost
		return d2d, only(KindDeviceToHost) || only(KindDefault) && dstHost && !srcHost
	}
	return false, false
}
