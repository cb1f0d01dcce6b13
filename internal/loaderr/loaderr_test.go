package loaderr

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"golang.org/x/tools/go/packages"
)

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
	}
}

func TestMessage(t *testing.T) {
	e := packages.Error{Pos: "/src/bad/bad.go:3:1", Msg: "undefined: x"}
	assert.Equal(t, "/src/bad/bad.go:3:1: undefined: x", Message(e, nil))
	assert.Equal(t, "bad/bad.go:3:1: undefined: x", Message(e, func(f string) string { return f[len("/src/"):] }))
	assert.Equal(t, "no Go files", Message(packages.Error{Pos: "-", Msg: "no Go files"}, nil))
}
