package modelreg

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"fmt"
	"sync"
)

// Source gives the code object of a model; modelfs reads them from disk.
type Source interface {
	Image(name string) ([]byte, error)
}

// Registry holds the current version of each model.
type Registry struct {
	mu       sync.RWMutex
	src      Source
	models   map[string]*Model
	maxBytes int
}

// Option configures a Registry.
type Option func(*Registry)

// WithMaxBytes limits a model's parameter block.
func WithMaxBytes(n int) Option { return func(r *Registry) { r.maxBytes = n } }

// New returns a registry that reads images from src.
func New(src Source, opts ...Option) *Registry {
	r := &Registry{src: src, models: map[string]*Model{}, maxBytes: 1 << 30}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Load loads the first version of a model.
func (r *Registry) Load(name string) error {
	image, err := r.src.Image(name)
	if err != nil {
		return fmt.Errorf("modelreg: image %s: %w", name, err)
	}
	md, err := newModel(name, 1, image, r.maxBytes)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.models[name]; ok {
		old.retire()
	}
	r.models[name] = md
	return nil
}

// Acquire returns the current model with a reference the caller releases.
func (r *Registry) Acquire(name string) (*Model, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	md, ok := r.models[name]
	if !ok {
		return nil, fmt.Errorf("modelreg: no model %q", name)
	}
	md.refs.Add(1)
	return md, nil
}

// Close retires every model; those still acquired are unloaded by their
// last Release.
func (r *Registry) Close() { // want Close:"unloads\\[-1\\]"
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, md := range r.models {
		md.retire()
		delete(r.models, name)
	}
}
