// Package registryuse caches registry modules under a key in a generic
// entry of its own: the double unload through the entry is found through
// registry's facts.
package registryuse

import "modulebalance/registry"

type entry[K comparable] struct {
	key K
	mod *registry.Module
}

func (e *entry[K]) drop() { e.mod.Close() } // want drop:"unloads\\[\\-1\\]"

// Evict drops the entry and closes its module again.
func Evict(path string) error {
	md, err := registry.Load(path)
	if err != nil {
		return err
	}
	e := &entry[string]{key: path, mod: md}
	e.drop()
	return md.Close() // want `module md is unloaded twice`
}

// EvictOnce is its twin.
func EvictOnce(path string) error {
	md, err := registry.Load(path)
	if err != nil {
		return err
	}
	e := &entry[string]{key: path}
	e.mod = md
	e.drop()
	return nil
}

// Reload loads registry.Default again after registry.Reset unloaded it: a
// package variable of another package is its package's, not a field the
// caller was given, and a function of that package may unload it between
// two loads (as Reset does), so the second load is no leak here.
func Reload(a, b, generic, name string) error {
	if err := registry.Default.Load(a, generic, name); err != nil {
		return err
	}
	registry.Reset()
	return registry.Default.Load(b, generic, name)
}
