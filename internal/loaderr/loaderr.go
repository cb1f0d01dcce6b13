// Package loaderr formats the errors go/packages reports, for
// internal/driver's error lines (one per package that failed to load, parse
// or type-check), under every front end.
package loaderr

import (
	"strings"

	"golang.org/x/tools/go/packages"
)

// Label names pkg in an error line: its package path, which go/packages
// cuts at the first space of the ID (to drop a test variant's
// " [p.test]"), so a path with a space in it ("example.com/my pkg", which
// go list reports as malformed) is taken from the ID instead.
func Label(pkg *packages.Package) string {
	id := pkg.ID
	if id == "" {
		return pkg.PkgPath
	}
	if i := strings.LastIndex(id, " ["); i >= 0 && strings.HasSuffix(id, "]") {
		id = id[:i]
	}
	return id
}

// Message formats one error with its position, the position's Go file name
// passed through rel when rel is not nil.
func Message(e packages.Error, rel func(file string) string) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	pos := e.Pos
	if i := strings.Index(pos, ".go:"); i >= 0 && rel != nil {
		pos = rel(pos[:i+3]) + pos[i+3:]
	}
	return pos + ": " + e.Msg
}
