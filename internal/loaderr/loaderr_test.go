package loaderr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/packages"
)

func TestLines(t *testing.T) {
	bad := &packages.Package{PkgPath: "example.com/bad", Errors: []packages.Error{
		{Pos: "/src/bad/bad.go:3:1", Msg: "undefined: x"}, {Pos: "/src/bad/bad.go:4:1", Msg: "undefined: y"}}}
	// The test variant repeats the package's errors, and imports a package
	// with an error of its own without a position.
	dep := &packages.Package{PkgPath: "example.com/dep", Errors: []packages.Error{{Pos: "-", Msg: "no Go files"}}}
	variant := &packages.Package{PkgPath: "example.com/bad", Errors: bad.Errors,
		Imports: map[string]*packages.Package{"example.com/dep": dep}}
	good := &packages.Package{PkgPath: "example.com/good"}
	rel := func(file string) string { return strings.TrimPrefix(file, "/src/") }

	assert.Equal(t, []string{
		"example.com/bad: bad/bad.go:3:1: undefined: x (and 1 more errors)",
		"example.com/dep: no Go files",
	}, Lines([]*packages.Package{good, bad, variant}, rel))
	assert.Equal(t, "/src/bad/bad.go:3:1: undefined: x", Message(bad.Errors[0], nil))
	assert.Empty(t, Lines([]*packages.Package{good}, nil))
}
