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

// Issue 16 item 14: go/packages cuts PkgPath at the first space of the ID,
// so the line about "example.com/sp/my pkg" said "example.com/sp/my".
func TestLabelKeepsASpaceInThePath(t *testing.T) {
	for _, tc := range []struct{ id, pkgPath, want string }{
		{"example.com/sp/my pkg", "example.com/sp/my", "example.com/sp/my pkg"},
		{"example.com/p [example.com/p.test]", "example.com/p", "example.com/p"},
		{"example.com/my pkg [example.com/my pkg.test]", "example.com/my", "example.com/my pkg"},
		{"example.com/p.test", "example.com/p.test", "example.com/p.test"},
		{"", "example.com/q", "example.com/q"},
	} {
		pkg := &packages.Package{ID: tc.id, PkgPath: tc.pkgPath, Errors: []packages.Error{{Pos: "-", Msg: "broken"}}}
		assert.Equal(t, tc.want, Label(pkg), tc.id)
		assert.Equal(t, []string{tc.want + ": broken"}, Lines([]*packages.Package{pkg}, nil), tc.id)
	}
}
