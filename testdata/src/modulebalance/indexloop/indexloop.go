// Package indexloop unloads sets of modules with index loops, `for i :=
// range mods { C.hipModuleUnload(mods[i]) }`, which unload every element
// like `for _, m := range mods`.
package indexloop

// #cgo CFLAGS: -I${SRCDIR}/../../../include
// #include <hip/hip_runtime_api.h>
import "C"

func loadTwo(path *C.char) (a, b C.hipModule_t, ok bool) {
	if C.hipModuleLoad(&a, path) != C.hipSuccess {
		return a, b, false
	}
	if C.hipModuleLoad(&b, path) != C.hipSuccess {
		C.hipModuleUnload(a)
		return a, b, false
	}
	return a, b, true
}

// Hazard: b is looked up after the index loop unloaded it.
func lookupAfter(path, name *C.char) {
	a, b, ok := loadTwo(path)
	if !ok {
		return
	}
	mods := []C.hipModule_t{a, b}
	for i := range mods {
		C.hipModuleUnload(mods[i])
	}
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, b, name) // want `hipModuleGetFunction uses module b after it was unloaded`
}

// Twin: looked up before.
func lookupBefore(path, name *C.char) {
	a, b, ok := loadTwo(path)
	if !ok {
		return
	}
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, b, name)
	mods := []C.hipModule_t{a, b}
	for i := range mods {
		C.hipModuleUnload(mods[i])
	}
}

// Hazard: unloaded by the index loop, then again.
func unloadAgain(path *C.char) {
	a, b, ok := loadTwo(path)
	if !ok {
		return
	}
	mods := []C.hipModule_t{a, b}
	for i := range mods {
		C.hipModuleUnload(mods[i])
	}
	C.hipModuleUnload(a) // want `module a is unloaded twice`
}

// Twin: each module once.
func unloadOnce(path *C.char) {
	a, b, ok := loadTwo(path)
	if !ok {
		return
	}
	mods := []C.hipModule_t{a, b}
	for i := range mods {
		C.hipModuleUnload(mods[i])
	}
}

// Twin: the loop skips an element, so a stays loaded for the lookup.
func skipsOne(path, name *C.char) {
	a, b, ok := loadTwo(path)
	if !ok {
		return
	}
	mods := []C.hipModule_t{a, b}
	for i := range mods {
		if i == 0 {
			continue
		}
		C.hipModuleUnload(mods[i])
	}
	var f C.hipFunction_t
	C.hipModuleGetFunction(&f, a, name)
	C.hipModuleUnload(a)
}

// Twin: the loop loads into the elements and a second one unloads them.
func loadByIndex(paths []*C.char) {
	mods := make([]C.hipModule_t, len(paths))
	for i := range mods {
		C.hipModuleLoad(&mods[i], paths[i])
	}
	for i := range mods {
		C.hipModuleUnload(mods[i])
	}
}
