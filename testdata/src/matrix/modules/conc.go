package modules

// #include <hip/hip_runtime_api.h>
import "C"

import "sync"

//matrix:gap conc-waitgroup: an unload before wg.Wait() races with the goroutines' uses; goroutines are not modelled as concurrent
func waitGroupCloseEarly(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			md.Function(name)
		}()
	}
	md.Close()
	wg.Wait()
	return nil
}

//matrix:twin conc-waitgroup
func waitGroupCloseAfter(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			md.Function(name)
		}()
	}
	wg.Wait()
	return md.Close()
}

//matrix:gap conc-chan-join: an unload before the done channel is received races with the goroutine's use
func chanJoinCloseEarly(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	done := make(chan error)
	go func() {
		_, err := md.Function(name)
		done <- err
	}()
	md.Close()
	return <-done
}

//matrix:twin conc-chan-join
func chanJoinCloseAfter(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	done := make(chan error)
	go func() {
		_, err := md.Function(name)
		done <- err
	}()
	err = <-done
	md.Close()
	return err
}

// Group runs functions in goroutines and waits for them (errgroup's shape).
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

// Go runs f in a goroutine.
func (g *Group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

// Wait waits for every f and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

//matrix:gap conc-errgroup: an unload before g.Wait() races with the group's uses
func groupCloseEarly(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	var g Group
	g.Go(func() error {
		_, err := md.Function(name)
		return err
	})
	md.Close()
	return g.Wait()
}

//matrix:twin conc-errgroup
func groupCloseAfter(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer md.Close()
	var g Group
	g.Go(func() error {
		_, err := md.Function(name)
		return err
	})
	return g.Wait()
}

var (
	kernelMod C.hipModule_t
	kernelMu  sync.Mutex
)

//matrix:gap conc-pkg-handles: a package variable loaded again without unloading the previous module is not seen
func reloadKernelsLeaky(path *C.char) error {
	kernelMu.Lock()
	defer kernelMu.Unlock()
	return check(C.hipModuleLoad(&kernelMod, path))
}

//matrix:twin conc-pkg-handles
func reloadKernels(path *C.char) error {
	kernelMu.Lock()
	defer kernelMu.Unlock()
	if kernelMod != nil {
		C.hipModuleUnload(kernelMod)
		kernelMod = nil
	}
	return check(C.hipModuleLoad(&kernelMod, path))
}

//matrix:na rt-blocking-stream: a module's balance is about its handle's lifetime on the host; streams do not order loads and unloads
//matrix:na rt-legacy-stream: a module's balance is about its handle's lifetime on the host; streams do not order loads and unloads
//matrix:na rt-event-wrapper: events order device work, not module loads and unloads
//matrix:na rt-runtime-kind: copy kinds belong to copy sync; no module call takes one
//matrix:na rt-capture-free: graph free nodes free memory; a module is not a graph allocation
