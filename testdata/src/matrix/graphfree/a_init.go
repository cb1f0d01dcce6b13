package graphfree

import "unsafe"

var initBuf unsafe.Pointer

func init() { initBuf = deviceAlloc() }
