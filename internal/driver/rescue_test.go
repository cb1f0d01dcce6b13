package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/cgocall"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/packages"
)

// TestRescueInPlace: synthesis costs the failing packages only. The
// patterns are loaded once whole; the repairs' rounds list again only the
// packages at tier 3 (lib, whose header is missing, and mid, on which go
// list ran no cgo because lib failed); the packages that import them are
// type-checked again once, so that no package's types import a version of
// a package the graph no longer holds. (Before, each round loaded every
// package again: 3 whole loads here, 2.5-3x the memory on the corpus.)
func TestRescueInPlace(t *testing.T) {
	const libSrc = `package lib

// #include <no_such_lib.h>
import "C"

import "errors"

type H struct{ h C.libHandle_t }

func Open() (*H, error) {
	h := &H{}
	if C.libOpen(&h.h) != C.LIB_OK {
		return nil, errors.New("open")
	}
	return h, nil
}
`
	const moreSrc = `package lib

// #include <no_such_lib.h>
import "C"

func (h *H) Close() { C.libClose(h.h) }
`
	const midSrc = `package mid

// #include <stdlib.h>
import "C"

import "example.com/m/lib"

func Use() *lib.H {
	h, _ := lib.Open()
	C.free(nil)
	return h
}
`
	const topSrc = `package top

import (
	"example.com/m/lib"
	"example.com/m/mid"
)

func F() *lib.H { h := mid.Use(); h.Close(); return h }
`
	dir := writeModule(t, map[string]map[string]string{
		"lib":   {"lib.go": libSrc, "more.go": moreSrc},
		"mid":   {"mid.go": midSrc},
		"top":   {"top.go": topSrc},
		"other": {"other.go": "package other\n\nfunc G() int { return 1 }\n"},
	})
	var whole, listed int
	defer func(old func(*packages.Config, ...string) ([]*packages.Package, error)) { loadPackages = old }(loadPackages)
	loadPackages = func(cfg *packages.Config, patterns ...string) ([]*packages.Package, error) {
		if cfg.Mode&packages.NeedTypes != 0 {
			whole++
		} else {
			listed++
		}
		return packages.Load(cfg, patterns...)
	}
	cfg := &Config{Dir: dir, Env: append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=1")}
	pkgs, rescued, cleanup, err := load(cfg, []string{"./..."}, nil)
	defer cleanup()
	require.NoError(t, err)
	assert.Equal(t, 1, whole, "one whole load")
	assert.Positive(t, listed)
	require.Len(t, rescued, 1)
	assert.Equal(t, "example.com/m/lib", rescued[0].Path)
	assert.Equal(t, []string{"no_such_lib.h"}, rescued[0].Stubbed)

	byPath := map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		byPath[p.PkgPath] = p
	})
	for _, path := range []string{"example.com/m/lib", "example.com/m/mid"} {
		p := byPath[path]
		require.NotNil(t, p, path)
		assert.False(t, cgocall.Unprocessed(p.Types), "%s: analyzed through cgo's output", path)
		assert.Empty(t, p.Errors, path)
		for _, f := range p.CompiledGoFiles {
			assert.NotEqual(t, dir, filepath.Dir(filepath.Dir(f)), "%s: %s is cgo's output", path, f)
		}
	}
	assert.Empty(t, byPath["example.com/m/top"].Errors)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, imp := range p.Types.Imports() {
			if q := byPath[imp.Path()]; q != nil && imp.Path() != "unsafe" {
				assert.Same(t, q.Types, imp, "%s imports the graph's %s", p.ID, imp.Path())
			}
		}
	})
}

// writeModule writes a module example.com/m with one package per entry of
// pkgs (directory → files) and returns its directory.
func writeModule(t *testing.T, pkgs map[string]map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644))
	for pkg, files := range pkgs {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, pkg), 0o755))
		for name, src := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, pkg, name), []byte(src), 0o644))
		}
	}
	return dir
}
