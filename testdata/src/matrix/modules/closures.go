package modules

// #include <hip/hip_runtime_api.h>
import "C"

import "sync"

//matrix:hazard closure-in-place
func inPlaceTwice(path *C.char) {
	md, err := Load(path)
	if err != nil {
		return
	}
	func() { md.Close() }()
	md.Close() // want `module md is unloaded twice`
}

//matrix:twin closure-in-place
func inPlaceOnce(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	return func() error { return md.Close() }()
}

//matrix:hazard closure-stored
func storedSkipped(path *C.char) error {
	md, err := Load(path) // want `module md loaded by Load is not unloaded on this return`
	if err != nil {
		return err
	}
	cleanup := func() { md.Close() }
	if err := validate(md); err != nil {
		return err
	}
	cleanup()
	return nil
}

// The closure is called on every path.
//
//matrix:twin closure-stored
func storedCalledOnEveryPath(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	cleanup := func() { md.Close() }
	if err := validate(md); err != nil {
		cleanup()
		return err
	}
	cleanup()
	return nil
}

//matrix:twin closure-stored
func storedDeferred(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	cleanup := func() { md.Close() }
	defer cleanup()
	return validate(md)
}

//matrix:hazard closure-deferred
func deferredAndExplicit(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer func() { md.Close() }()
	return md.Close() // want `unloaded here and again by a deferred unload`
}

//matrix:twin closure-deferred
func deferredOnly(path *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer func() { md.Close() }()
	return validate(md)
}

//matrix:hazard closure-go
func goUnloadThenUse(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	go func() { md.Close() }()
	_, err = md.Function(name) // want `Function uses module md, which the goroutine started at line \d+ may have unloaded already`
	return err
}

//matrix:twin closure-go
func goJoinedThenUnload(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer md.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		md.Function(name)
	}()
	wg.Wait()
	return nil
}

func withModule(path *C.char, f func(*Module) error) error { // want withModule:"lends\\[1:0\\]"
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer md.Close()
	return f(md)
}

// withModule unloads the module it lends when the closure returns.
//
//matrix:hazard closure-helper
func helperClosesToo(path *C.char) error {
	return withModule(path, func(md *Module) error {
		return md.Close() // want `module md is unloaded here and again by withModule`
	})
}

//matrix:twin closure-helper
func helperOwns(path, name *C.char) error {
	return withModule(path, func(md *Module) error {
		_, err := md.Function(name)
		return err
	})
}
