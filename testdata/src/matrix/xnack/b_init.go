package xnack

//matrix:twin order-init
func init() { Launch(DeviceBuf(64)) }

// A library init that launches on host memory only when XNACK is on.
//
//matrix:twin order-init
func init() {
	if XNACKEnabled() {
		Launch(HostBuf(64))
	}
}
