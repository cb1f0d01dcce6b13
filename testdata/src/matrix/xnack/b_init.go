package xnack

//matrix:twin order-init
func init() { Launch(DeviceBuf(64)) }
