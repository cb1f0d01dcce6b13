// Package jitcacheapp uses jitcache the way a service does: one cache for
// the process, kernels fetched per request.
package jitcacheapp

import (
	"sync"
	"unsafe"

	"libs/modulebalance/jitcache"
)

type nvrtcLike struct{ arch string }

func (c nvrtcLike) Compile(src string) ([]byte, error) { return []byte(c.arch + src), nil }

// Saxpy fetches and launches one kernel; the cache outlives the call.
func Saxpy(c *jitcache.Cache, x, y unsafe.Pointer) error {
	k, err := c.GetChecked("saxpy.hip", "saxpy")
	if err != nil {
		return err
	}
	return k.Launch(64, 256, unsafe.Pointer(&x), unsafe.Pointer(&y))
}

// Batch runs a kernel from several goroutines and closes the cache only
// after every goroutine is done.
func Batch(srcs []string) error {
	c := jitcache.New(jitcache.Options{Capacity: 4, Compiler: nvrtcLike{"gfx90a"}})
	closeCache := c.Close
	defer closeCache()
	var wg sync.WaitGroup
	errs := make([]error, len(srcs))
	for i, src := range srcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := c.GetChecked(src, "main")
			if err != nil {
				errs[i] = err
				return
			}
			errs[i] = k.Launch(1, 64)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Shutdown closes the cache, then launches a kernel fetched before.
// Hazard: Close unloaded the kernel's module.
func Shutdown(src string) error {
	c := jitcache.New(jitcache.Options{Compiler: nvrtcLike{"gfx942"}})
	k, err := c.GetChecked(src, "flush")
	if err != nil {
		c.Close()
		return err
	}
	if err := c.Close(); err != nil {
		return err
	}
	return k.Launch(1, 1) // MISSED: GetChecked returns a handle of a module it keeps in the receiver's map; no summary ties the handle to the receiver, whose Close unloads it
}

// ShutdownOrdered is its twin: the last launch runs before Close.
func ShutdownOrdered(src string) error {
	c := jitcache.New(jitcache.Options{Compiler: nvrtcLike{"gfx942"}})
	defer c.Close()
	k, err := c.GetChecked(src, "flush")
	if err != nil {
		return err
	}
	return k.Launch(1, 1)
}
