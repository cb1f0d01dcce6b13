// Package kernelsuse launches kernels of package kernels: the use after
// unload is found through kernels' facts.
package kernelsuse

import (
	"unsafe"

	"modulebalance/kernels"
)

// Evicted closes the kernel and launches it.
func Evicted(args *unsafe.Pointer) error {
	k, err := kernels.Load("k.co", "axpy")
	if err != nil {
		return err
	}
	k.Close()
	return k.Launch(args) // want `Launch uses module k after it was unloaded`
}

// Kept is its twin.
func Kept(args *unsafe.Pointer) error {
	k, err := kernels.Load("k.co", "axpy")
	if err != nil {
		return err
	}
	defer k.Close()
	return k.Launch(args)
}
