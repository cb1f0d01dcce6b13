package jitcache

// #include <hip/hip_runtime_api.h>
import "C"

import (
	"container/list"
	"sync"
	"unsafe"
)

// Kernel is a cached kernel's function handle. It is valid until its entry
// is evicted or the cache is closed.
type Kernel struct {
	fn   C.hipFunction_t
	name string
}

type entry struct {
	key  string
	mod  C.hipModule_t
	fn   C.hipFunction_t
	elem *list.Element
}

// Cache is an LRU cache of loaded modules.
type Cache struct {
	mu      sync.Mutex
	opts    Options
	lru     *list.List
	entries map[string]*entry
}

// New returns an empty cache.
func New(opts Options) *Cache {
	if opts.Capacity <= 0 {
		opts.Capacity = 16
	}
	return &Cache{opts: opts, lru: list.New(), entries: make(map[string]*entry)}
}

// Get returns the kernel name of src, compiling and loading it on a miss.
// Hazard: a failed lookup leaves the freshly loaded module behind.
func (c *Cache) Get(src, name string) (Kernel, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := src + "\x00" + name
	if e, ok := c.entries[key]; ok {
		c.lru.MoveToFront(e.elem)
		return Kernel{fn: e.fn, name: name}, nil
	}
	image, err := c.opts.Compiler.Compile(src)
	if err != nil {
		return Kernel{}, err
	}
	if c.opts.Validate {
		if err := validateAll(image, name); err != nil {
			return Kernel{}, err
		}
	}
	m, err := loadImage(image) // want `module m loaded by loadImage is not unloaded on this return`
	if err != nil {
		return Kernel{}, err
	}
	fn, err := lookup(m, name)
	if err != nil {
		return Kernel{}, err
	}
	c.insert(key, m, fn)
	return Kernel{fn: fn, name: name}, nil
}

// GetChecked is Get done right: the module is unloaded when its kernel is
// missing.
func (c *Cache) GetChecked(src, name string) (Kernel, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := src + "\x00" + name
	if e, ok := c.entries[key]; ok {
		c.lru.MoveToFront(e.elem)
		return Kernel{fn: e.fn, name: name}, nil
	}
	image, err := c.opts.Compiler.Compile(src)
	if err != nil {
		return Kernel{}, err
	}
	m, err := loadImage(image)
	if err != nil {
		return Kernel{}, err
	}
	fn, err := lookup(m, name)
	if err != nil {
		C.hipModuleUnload(m)
		return Kernel{}, err
	}
	c.insert(key, m, fn)
	return Kernel{fn: fn, name: name}, nil
}

// insert caches a module and evicts the least recently used entries over
// the capacity.
func (c *Cache) insert(key string, m C.hipModule_t, fn C.hipFunction_t) {
	e := &entry{key: key, mod: m, fn: fn}
	e.elem = c.lru.PushFront(e)
	c.entries[key] = e
	for c.lru.Len() > c.opts.Capacity {
		c.evictOldest()
	}
}

func (c *Cache) evictOldest() {
	back := c.lru.Back()
	if back == nil {
		return
	}
	e := back.Value.(*entry)
	c.lru.Remove(back)
	delete(c.entries, e.key)
	C.hipModuleUnload(e.mod)
}

// Close unloads every cached module.
func (c *Cache) Close() error { // want Close:"unloads\\[-1\\]"
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for key, e := range c.entries {
		if err := check("hipModuleUnload", C.hipModuleUnload(e.mod)); err != nil && first == nil {
			first = err
		}
		delete(c.entries, key)
	}
	c.lru.Init()
	return first
}

// Launch runs the kernel on a 1-D grid with the given arguments.
func (k Kernel) Launch(blocks, threads int, args ...unsafe.Pointer) error { // want Launch:"launches\\[-1\\]"
	var params *unsafe.Pointer
	if len(args) > 0 {
		params = &args[0]
	}
	return check("hipModuleLaunchKernel", C.hipModuleLaunchKernel(k.fn, C.uint(blocks), 1, 1, C.uint(threads), 1, 1, 0, nil, params, nil))
}
