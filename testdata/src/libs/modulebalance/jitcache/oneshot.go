package jitcache

// #include <hip/hip_runtime_api.h>
import "C"

import "unsafe"

// RunOnce loads an image, runs one kernel and unloads the module, whatever
// happens: the deferred closure also records the unload's error.
func RunOnce(image []byte, name string, args ...unsafe.Pointer) (err error) {
	m, err := loadImage(image)
	if err != nil {
		return err
	}
	defer func() {
		if uerr := check("hipModuleUnload", C.hipModuleUnload(m)); uerr != nil && err == nil {
			err = uerr
		}
	}()
	fn, err := lookup(m, name)
	if err != nil {
		return err
	}
	return Kernel{fn: fn, name: name}.Launch(1, 64, args...)
}

// RunAsync launches in a goroutine and returns at once. Hazard: the
// deferred unload runs when RunAsync returns, while the goroutine may not
// have launched yet.
func RunAsync(image []byte, name string) <-chan error {
	done := make(chan error, 1)
	m, err := loadImage(image)
	if err != nil {
		done <- err
		return done
	}
	defer C.hipModuleUnload(m)
	fn, err := lookup(m, name)
	if err != nil {
		done <- err
		return done
	}
	go func() {
		done <- Kernel{fn: fn, name: name}.Launch(1, 64) // MISSED: the goroutine sends on a channel the function returns, so flow.Goroutines calls it Opaque (join unknown), though the deferred unload runs before any caller can receive
	}()
	return done
}

// RunAwait is its twin: it waits for the goroutine before the deferred
// unload runs.
func RunAwait(image []byte, name string) error {
	m, err := loadImage(image)
	if err != nil {
		return err
	}
	defer C.hipModuleUnload(m)
	fn, err := lookup(m, name)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		done <- Kernel{fn: fn, name: name}.Launch(1, 64)
	}()
	return <-done
}
