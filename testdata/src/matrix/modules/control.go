package modules

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"context"
	"fmt"
	"iter"
)

//matrix:hazard defer-loop
func deferLoopCapturesLast(paths []*C.char) error {
	var md *Module
	for _, p := range paths {
		var err error
		md, err = Load(p) // want `on every iteration is never unloaded before the next load`
		if err != nil {
			return err
		}
		defer func() { md.Close() }()
	}
	return nil
}

//matrix:twin defer-loop
func deferLoopEach(paths []*C.char) error {
	for _, p := range paths {
		md, err := Load(p)
		if err != nil {
			return err
		}
		defer md.Close()
	}
	return nil
}

//matrix:hazard defer-cond
func deferCondLeak(path *C.char, cache bool) error {
	md, err := Load(path) // want `not unloaded on this return`
	if err != nil {
		return err
	}
	if !cache {
		defer md.Close()
	}
	return validate(md)
}

var kept []*Module

//matrix:twin defer-cond
func deferCondKept(path *C.char, cache bool) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	if !cache {
		defer md.Close()
	} else {
		kept = append(kept, md)
	}
	return validate(md)
}

// return nil, err sets md to nil before the deferred close reads it.
//
//matrix:hazard defer-named-result
func namedResultNilled(path *C.char) (md *Module, err error) {
	md, err = Load(path) // want `module md loaded by Load is not unloaded on this return, which sets md to nil before the deferred unload reads it`
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && md != nil {
			md.Close()
		}
	}()
	if err := validate(md); err != nil {
		return nil, err
	}
	return md, nil
}

//matrix:twin defer-named-result
func namedResultLocal(path *C.char) (_ *Module, err error) { // want namedResultLocal:"returnsModule\\(result=0, status=1\\)"
	md, err := Load(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			md.Close()
		}
	}()
	if err := validate(md); err != nil {
		return nil, err
	}
	return md, nil
}

func mustFunction(md *Module, name *C.char) C.hipFunction_t { // want mustFunction:"borrows\\[0\\] uses\\[0\\]"
	f, err := md.Function(name)
	if err != nil {
		panic(err)
	}
	return f
}

//matrix:hazard defer-recover
func recoverLeak(path, name *C.char) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("kernel: %v", r)
		}
	}()
	md, err := Load(path) // want `not unloaded when mustFunction panics and the deferred recover returns`
	if err != nil {
		return err
	}
	launch(mustFunction(md, name))
	return md.Close()
}

//matrix:twin defer-recover
func recoverBalanced(path, name *C.char) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("kernel: %v", r)
		}
	}()
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer md.Close()
	return launch(mustFunction(md, name))
}

//matrix:hazard early-return
func earlyReturnLeak(path, name *C.char) error {
	md, err := Load(path) // want `not unloaded on this return`
	if err != nil {
		return err
	}
	f, err := md.Function(name)
	if err != nil {
		return err
	}
	launch(f)
	return md.Close()
}

//matrix:twin early-return
func earlyReturnClosed(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	f, err := md.Function(name)
	if err != nil {
		md.Close()
		return err
	}
	launch(f)
	return md.Close()
}

//matrix:hazard goto
func gotoLeak(path, name *C.char) error {
	md, err := Load(path) // want `not unloaded on this return`
	if err != nil {
		return err
	}
	f, err := md.Function(name)
	if err != nil {
		goto fail
	}
	launch(f)
	return md.Close()
fail:
	return err
}

//matrix:twin goto
func gotoClosed(path, name *C.char) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	f, err := md.Function(name)
	if err != nil {
		goto fail
	}
	launch(f)
	return md.Close()
fail:
	md.Close()
	return err
}

//matrix:hazard labelled-break
func labelledBreakLeak(paths []*C.char, name *C.char) {
outer:
	for _, p := range paths {
		md, err := Load(p) // want `not unloaded at the end of the function`
		if err != nil {
			continue
		}
		for i := 0; i < 3; i++ {
			if _, err := md.Function(name); err != nil {
				break outer
			}
		}
		md.Close()
	}
}

//matrix:twin labelled-break
func labelledBreakClosed(paths []*C.char, name *C.char) {
outer:
	for _, p := range paths {
		md, err := Load(p)
		if err != nil {
			continue
		}
		for i := 0; i < 3; i++ {
			if _, err := md.Function(name); err != nil {
				md.Close()
				break outer
			}
		}
		md.Close()
	}
}

//matrix:hazard switch-fallthrough
func fallthroughTwice(path *C.char, mode int) {
	md, err := Load(path)
	if err != nil {
		return
	}
	switch mode {
	case 0:
		md.Close()
		fallthrough
	case 1:
		md.Close() // want `module md is unloaded twice`
	default:
		md.Close()
	}
}

// Case 0 unloads only on its early return, and falls through otherwise.
//
//matrix:twin switch-fallthrough
func fallthroughEarlyClose(path *C.char, mode int, early bool) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	switch mode {
	case 0:
		if early {
			return md.Close()
		}
		fallthrough
	case 1:
		md.Close()
	default:
		md.Close()
	}
	return nil
}

//matrix:twin switch-fallthrough
func fallthroughOnce(path *C.char, mode int) {
	md, err := Load(path)
	if err != nil {
		return
	}
	switch mode {
	case 0:
		fallthrough
	case 1:
		md.Close()
	default:
		md.Close()
	}
}

//matrix:hazard type-switch
func typeSwitchLeak(path *C.char, cfg any) error {
	md, err := Load(path) // want `not unloaded on this return`
	if err != nil {
		return err
	}
	switch v := cfg.(type) {
	case int:
		if v < 0 {
			return fmt.Errorf("bad size %d", v)
		}
	case string:
	}
	return md.Close()
}

//matrix:twin type-switch
func typeSwitchClosed(path *C.char, cfg any) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer md.Close()
	switch v := cfg.(type) {
	case int:
		if v < 0 {
			return fmt.Errorf("bad size %d", v)
		}
	case string:
	}
	return nil
}

//matrix:hazard select-branch
func selectLeak(ctx context.Context, path *C.char, ready <-chan struct{}) error {
	md, err := Load(path) // want `not unloaded on this return`
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-ready:
		return md.Close()
	}
}

//matrix:twin select-branch
func selectClosed(ctx context.Context, path *C.char, ready <-chan struct{}) error {
	md, err := Load(path)
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		md.Close()
		return ctx.Err()
	case <-ready:
		return md.Close()
	}
}

//matrix:hazard panic-path
func panicLeak(path *C.char, n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	md, err := Load(path) // want `module md loaded by Load is not unloaded when this panic is recovered and the deferred recover returns`
	if err != nil {
		return err
	}
	if n < 0 {
		panic("negative size")
	}
	return md.Close()
}

//matrix:twin panic-path
func panicClosed(path *C.char, n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	md, err := Load(path)
	if err != nil {
		return err
	}
	defer md.Close()
	if n < 0 {
		panic("negative size")
	}
	return nil
}

//matrix:hazard range-slice
func rangeSliceLeak(paths []*C.char) ([]*Module, error) {
	var mods []*Module
	for _, p := range paths {
		md, err := Load(p) // want `modules kept in mods \(loaded by Load\) are not unloaded on this return`
		if err != nil {
			return nil, err
		}
		mods = append(mods, md)
	}
	return mods, nil
}

//matrix:twin range-slice
func rangeSliceClosed(paths []*C.char) ([]*Module, error) {
	var mods []*Module
	for _, p := range paths {
		md, err := Load(p)
		if err != nil {
			for _, m := range mods {
				m.Close()
			}
			return nil, err
		}
		mods = append(mods, md)
	}
	return mods, nil
}

//matrix:hazard range-map
func rangeMapUseAfter(cache map[string]*Module, name *C.char) error { // want rangeMapUseAfter:"unloads\\[0\\]"
	for _, md := range cache {
		md.Close()
	}
	_, err := cache["main"].Function(name) // want `Function uses module cache\["main"\] after it was unloaded`
	return err
}

//matrix:twin range-map
func rangeMapCleared(cache map[string]*Module, name *C.char) error { // want rangeMapCleared:"unloads\\[0\\]"
	if md, ok := cache["main"]; ok {
		if _, err := md.Function(name); err != nil {
			return err
		}
	}
	for k, md := range cache {
		md.Close()
		delete(cache, k)
	}
	return nil
}

//matrix:hazard range-chan
func rangeChanLeak(paths <-chan *C.char, name *C.char) {
	for p := range paths {
		md, err := Load(p) // want `on every iteration is never unloaded before the next load`
		if err != nil {
			continue
		}
		if _, err := md.Function(name); err != nil {
			continue
		}
		md.Close()
	}
}

//matrix:twin range-chan
func rangeChanClosed(paths <-chan *C.char, name *C.char) {
	for p := range paths {
		md, err := Load(p)
		if err != nil {
			continue
		}
		md.Function(name)
		md.Close()
	}
}

//matrix:hazard range-int
func rangeIntReload(path *C.char) {
	var m C.hipModule_t
	for range 3 {
		C.hipModuleLoad(&m, path) // want `on every iteration is never unloaded before the next load`
	}
	C.hipModuleUnload(m)
}

//matrix:twin range-int
func rangeIntBalanced(path *C.char) {
	var m C.hipModule_t
	for range 3 {
		if C.hipModuleLoad(&m, path) != C.hipSuccess {
			return
		}
		C.hipModuleUnload(m)
	}
}

// ModulesLeaky yields a loaded module per path; when the loop body stops
// early, the module it was handed stays loaded.
//
//matrix:hazard range-func
func ModulesLeaky(paths []*C.char) iter.Seq[*Module] {
	return func(yield func(*Module) bool) {
		for _, p := range paths {
			md, err := Load(p) // want `not unloaded on this return`
			if err != nil {
				return
			}
			if !yield(md) {
				return
			}
			md.Close()
		}
	}
}

func rangeFuncBody(paths []*C.char, name *C.char) {
	for md := range ModulesLeaky(paths) {
		if _, err := md.Function(name); err != nil {
			break
		}
	}
}

// Modules yields a loaded module per path and unloads it after the body.
//
//matrix:twin range-func
func Modules(paths []*C.char) iter.Seq[*Module] {
	return func(yield func(*Module) bool) {
		for _, p := range paths {
			md, err := Load(p)
			if err != nil {
				return
			}
			ok := yield(md)
			md.Close()
			if !ok {
				return
			}
		}
	}
}

func rangeFuncBalanced(paths []*C.char, name *C.char) {
	for md := range Modules(paths) {
		if _, err := md.Function(name); err != nil {
			break
		}
	}
}

//matrix:hazard two-loops
func twoLoopsTwice(mods []*Module, name *C.char) { // want twoLoopsTwice:"unloads\\[0\\]"
	for _, md := range mods {
		md.Close()
	}
	for _, md := range mods {
		md.Close() // want `module md is unloaded twice`
	}
}

//matrix:twin two-loops
func twoLoopsUseThenClose(mods []*Module, name *C.char) { // want twoLoopsUseThenClose:"unloads\\[0\\]"
	for _, md := range mods {
		md.Function(name)
	}
	for _, md := range mods {
		md.Close()
	}
}
