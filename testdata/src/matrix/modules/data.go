package modules

// #include <hip/hip_runtime_api.h>
import "C"

//matrix:hazard data-local
func localLeak(path *C.char) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil { // want `not unloaded on this return`
		return err
	}
	return nil
}

//matrix:twin data-local
func localBalanced(path *C.char) error {
	var m C.hipModule_t
	if err := check(C.hipModuleLoad(&m, path)); err != nil {
		return err
	}
	return check(C.hipModuleUnload(m))
}

type pair struct {
	m    C.hipModule_t
	name string
}

//matrix:hazard data-field-local
func fieldLocalLeak(path *C.char) error {
	var p pair
	if err := check(C.hipModuleLoad(&p.m, path)); err != nil { // want `not unloaded on this return`
		return err
	}
	if p.name == "" {
		return errBad
	}
	return check(C.hipModuleUnload(p.m))
}

//matrix:twin data-field-local
func fieldLocalBalanced(path *C.char) error {
	var p pair
	if err := check(C.hipModuleLoad(&p.m, path)); err != nil {
		return err
	}
	defer C.hipModuleUnload(p.m)
	if p.name == "" {
		return errBad
	}
	return nil
}

// Runner keeps the module it launches from.
type Runner struct {
	m  C.hipModule_t
	fn C.hipFunction_t
}

//matrix:hazard data-field-receiver
func (r *Runner) LoadFallback(path, fallback, name *C.char) error { // want LoadFallback:"loadsInto\\[\\-1\\]\\(status=0\\)"
	if err := check(C.hipModuleLoad(&r.m, path)); err != nil { // want `module r.m loaded by hipModuleLoad is still loaded when its handle is loaded again; unload it before loading another module into r.m`
		return err
	}
	if check(C.hipModuleGetFunction(&r.fn, r.m, name)) == nil {
		return nil
	}
	if err := check(C.hipModuleLoad(&r.m, fallback)); err != nil {
		return err
	}
	return check(C.hipModuleGetFunction(&r.fn, r.m, name))
}

//matrix:twin data-field-receiver
func (r *Runner) LoadFallbackClosing(path, fallback, name *C.char) error { // want LoadFallbackClosing:"borrows\\[\\-1\\] uses\\[\\-1\\]"
	if err := check(C.hipModuleLoad(&r.m, path)); err != nil {
		return err
	}
	if check(C.hipModuleGetFunction(&r.fn, r.m, name)) == nil {
		return nil
	}
	if err := check(C.hipModuleUnload(r.m)); err != nil {
		return err
	}
	if err := check(C.hipModuleLoad(&r.m, fallback)); err != nil {
		return err
	}
	return check(C.hipModuleGetFunction(&r.fn, r.m, name))
}

// Reload replaces the runner's module, unloading the one it holds: a load
// into a receiver field that may already hold a module is no leak found in
// the method alone (its callers see a second load, LoadsInto).
func (r *Runner) Reload(path *C.char) error { // want Reload:"borrows\\[\\-1\\]"
	if r.m != nil {
		if err := check(C.hipModuleUnload(r.m)); err != nil {
			return err
		}
		r.m = nil
	}
	return check(C.hipModuleLoad(&r.m, path))
}

var global struct {
	m  C.hipModule_t
	ok bool
}

//matrix:hazard data-field-pkg
func shutdownTwice() {
	C.hipModuleUnload(global.m)
	C.hipModuleUnload(global.m) // want `is unloaded twice`
}

//matrix:twin data-field-pkg
func shutdownOnce() {
	if global.ok {
		C.hipModuleUnload(global.m)
		global.ok = false
	}
}

var defaultMod *Module

// Default returns the process-wide module.
func Default() *Module { return defaultMod }

//matrix:hazard data-pkgvar-wrapper
func defaultUseAfterClose(name *C.char) error {
	Default().Close()
	_, err := Default().Function(name) // want `Function uses module defaultMod after it was unloaded`
	return err
}

//matrix:twin data-pkgvar-wrapper
func defaultUseThenClose(name *C.char) error {
	_, err := Default().Function(name)
	Default().Close()
	return err
}

//matrix:hazard data-append-loop
func appendLoopLeak(paths []*C.char) error {
	var mods []*Module
	for _, p := range paths {
		md, err := Load(p) // want `modules kept in mods \(loaded by Load\) are not unloaded on this return`
		if err != nil {
			return err
		}
		mods = append(mods, md)
	}
	for _, md := range mods {
		md.Close()
	}
	return nil
}

//matrix:twin data-append-loop
func appendLoopClosed(paths []*C.char) (err error) {
	var mods []*Module
	defer func() {
		for _, md := range mods {
			md.Close()
		}
	}()
	for _, p := range paths {
		md, err := Load(p)
		if err != nil {
			return err
		}
		mods = append(mods, md)
	}
	return nil
}

// got is md, received back from the function's own channel.
//
//matrix:hazard data-chan
func chanUseAfter(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	ch := make(chan *Module, 1)
	ch <- md
	got := <-ch
	md.Close()
	_, err = got.Function(name) // want `Function uses module md after it was unloaded`
	return err
}

//matrix:twin data-chan
func chanUseThenClose(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	ch := make(chan *Module, 1)
	ch <- md
	got := <-ch
	_, err = got.Function(name)
	md.Close()
	return err
}

// Loaded is a module with the kernel looked up in it.
type Loaded struct {
	Mod *Module
	Fn  C.hipFunction_t
}

func loadStruct(path, name *C.char) (Loaded, error) { // want loadStruct:"returnsModule\\(result=0, status=1\\)"
	md, err := Load(path)
	if err != nil {
		return Loaded{}, err
	}
	f, err := md.Function(name)
	if err != nil {
		md.Close()
		return Loaded{}, err
	}
	return Loaded{Mod: md, Fn: f}, nil
}

//matrix:hazard data-return-struct
func returnStructLeak(path, name *C.char) error {
	l, err := loadStruct(path, name) // want `not unloaded on this return`
	if err != nil {
		return err
	}
	return launch(l.Fn)
}

//matrix:twin data-return-struct
func returnStructClosed(path, name *C.char) error {
	l, err := loadStruct(path, name)
	if err != nil {
		return err
	}
	defer l.Mod.Close()
	return launch(l.Fn)
}

func loadTuple(path, name *C.char) (*Module, C.hipFunction_t, error) { // want loadTuple:"returnsModule\\(result=0, status=2\\)"
	md, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := md.Function(name)
	if err != nil {
		md.Close()
		return nil, nil, err
	}
	return md, f, nil
}

//matrix:hazard data-return-tuple
func returnTupleDiscarded(path, name *C.char) error {
	_, f, err := loadTuple(path, name) // want `the module loadTuple returns is discarded`
	if err != nil {
		return err
	}
	return launch(f)
}

//matrix:twin data-return-tuple
func returnTupleKept(path, name *C.char) error {
	md, f, err := loadTuple(path, name)
	if err != nil {
		return err
	}
	defer md.Close()
	return launch(f)
}
