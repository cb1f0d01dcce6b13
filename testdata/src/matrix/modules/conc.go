package modules

// #include <hip/hip_runtime_api.h>
import "C"

import "sync"

//matrix:hazard conc-waitgroup
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
	md.Close() // want `module md is unloaded while the goroutine started at line \d+ may still use it`
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

//matrix:hazard conc-chan-join
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
	md.Close() // want `module md is unloaded while the goroutine started at line \d+ may still use it`
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

// waitAll waits for the workers (a helper that wraps wg.Wait).
func waitAll(wg *sync.WaitGroup) { wg.Wait() }

//matrix:twin conc-waitgroup
func waitGroupHelperThenClose(path *C.char, names []*C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			md.Function(name)
		}()
	}
	waitAll(&wg)
	return md.Close()
}

//matrix:twin conc-chan-join
func resultsRangedThenClose(path *C.char, names []*C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	results := make(chan error)
	go func() {
		defer close(results)
		for _, name := range names {
			_, err := md.Function(name)
			results <- err
		}
	}()
	for err := range results {
		if err != nil {
			defer md.Close()
			return err
		}
	}
	return md.Close()
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

//matrix:hazard conc-errgroup
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
	md.Close() // want `module md is unloaded while the goroutine started at line \d+ may still use it`
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

// The kernels the package starts with; reloadKernels swaps in others.
func init() {
	if err := check(C.hipModuleLoad(&kernelMod, C.CString("kernels.hsaco"))); err != nil {
		panic(err)
	}
}

//matrix:hazard conc-pkg-handles
func reloadKernelsLeaky(path *C.char) error {
	kernelMu.Lock()
	defer kernelMu.Unlock()
	return check(C.hipModuleLoad(&kernelMod, path)) // want `hipModuleLoad loads a module into kernelMod, which still holds the module an init function in conc.go loaded into it: that module is never unloaded`
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

// ensureKernels loads the kernels when nothing holds them (after a failed
// reload).
//
//matrix:twin conc-pkg-handles
func ensureKernels(path *C.char) error {
	kernelMu.Lock()
	defer kernelMu.Unlock()
	if kernelMod != nil {
		return nil
	}
	return check(C.hipModuleLoad(&kernelMod, path))
}

// unloadKernels unloads the kernels, if any.
func unloadKernels() {
	if kernelMod != nil {
		C.hipModuleUnload(kernelMod)
		kernelMod = nil
	}
}

//matrix:twin conc-pkg-handles
func swapKernels(path *C.char) error {
	kernelMu.Lock()
	defer kernelMu.Unlock()
	unloadKernels()
	return check(C.hipModuleLoad(&kernelMod, path))
}

//matrix:na rt-blocking-stream: a module's balance is about its handle's lifetime on the host; streams do not order loads and unloads
//matrix:na rt-legacy-stream: a module's balance is about its handle's lifetime on the host; streams do not order loads and unloads
//matrix:na rt-event-wrapper: events order device work, not module loads and unloads
//matrix:na rt-runtime-kind: copy kinds belong to copy sync; no module call takes one
//matrix:na rt-capture-free: graph free nodes free memory; a module is not a graph allocation
