// Package realapp uses realhip and realshapes without cgo of its own: the
// shapes of issue 19 reach it through facts (LoadsInto, idempotent unloads,
// newtype constructors).
package realapp

import (
	"errors"
	"unsafe"

	"modulebalance/realhip"
	"modulebalance/realshapes"
)

// Hazard: a method loads into the caller's variable, which never unloads it
// on the early return.
func methodLoadLeak(path string, busy bool) error {
	var m realhip.Module
	if err := m.Load(path); err != nil { // want `module m loaded by Load is not unloaded on this return`
		return err
	}
	if busy {
		return errors.New("busy")
	}
	return m.Unload()
}

// Safe twin: deferred unload.
func methodLoadDeferred(path string, busy bool) error {
	var m realhip.Module
	if err := m.Load(path); err != nil {
		return err
	}
	defer m.Unload()
	if busy {
		return errors.New("busy")
	}
	return nil
}

// Safe: the imported Close is idempotent, deferred and called.
func idempotentAcrossPackages(path string) error {
	fm, err := realhip.OpenFlagFile(path)
	if err != nil {
		return err
	}
	defer fm.Close()
	fm.Close()
	return nil
}

// Hazard: the imported constructor's module is dropped.
func discardedAcrossPackages(img unsafe.Pointer) {
	realshapes.LoadData(img) // want `the module LoadData returns is discarded`
}

// Safe twin: kept and unloaded.
func keptAcrossPackages(img unsafe.Pointer) error {
	mod, err := realshapes.LoadData(img)
	if err != nil {
		return err
	}
	return mod.Unload()
}

// Safe: the chain ends in the unload.
func chainedUnloadAcrossPackages(img unsafe.Pointer) error {
	return realshapes.MustLoadData(img).Unload()
}
