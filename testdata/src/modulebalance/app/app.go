// Package app uses hipwrap without cgo of its own: the module-balance rules
// reach it through facts.
package app

import (
	"errors"

	"modulebalance/hipwrap"
)

func leakOnError(path string) error {
	m, err := hipwrap.Load(path) // want `module m loaded by Load is not unloaded on this return`
	if err != nil {
		return err
	}
	if _, err := m.Function("saxpy"); err != nil {
		return err
	}
	return m.Unload()
}

func neverUnloaded(path string) {
	m, err := hipwrap.Load(path) // want `module m loaded by Load is not unloaded at the end of the function`
	if err != nil {
		return
	}
	m.Function("saxpy")
}

func balanced(path string) error {
	m, err := hipwrap.Load(path)
	if err != nil {
		return err
	}
	defer m.Unload()
	if _, err := m.Function("saxpy"); err != nil {
		return err
	}
	return nil
}

func returned(path string) (*hipwrap.Module, error) { // want returned:"returnsModule\\(result=0, status=1\\)"
	m, err := hipwrap.Load(path)
	if err != nil {
		return nil, errors.New("load: " + err.Error())
	}
	return m, nil
}

func doubleUnload(path string) {
	m, err := hipwrap.Load(path)
	if err != nil {
		return
	}
	m.Unload()
	m.Unload() // want `module m is unloaded twice`
}

// Hazard: the set made here is dropped when a later path fails to load.
func loadSetLeak(paths []string) error {
	s := &hipwrap.Set{}
	for _, p := range paths {
		if err := s.Add(p); err != nil { // want `modules kept in s \(loaded by Add\) are not unloaded on this return`
			return err
		}
	}
	s.Close()
	return nil
}

// Safe twin: the set's Close is deferred as soon as it exists.
func loadSet(paths []string) error {
	s := &hipwrap.Set{}
	defer s.Close()
	for _, p := range paths {
		if err := s.Add(p); err != nil {
			return err
		}
	}
	return nil
}
