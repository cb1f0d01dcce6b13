// Package loaderr formats the errors go/packages reports, the same way for
// every driver (the command line and the language server): one line per
// package that failed to load, parse or type-check.
package loaderr

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Lines returns one line for each package among pkgs and their dependencies
// that has errors: its path, its first error and how many more there are.
// The lines are sorted and each appears once (a test variant repeats its
// package's errors). rel, when not nil, rewrites the file name of an error's
// position (for example to make it relative to the working directory).
func Lines(pkgs []*packages.Package, rel func(file string) string) []string {
	seen := map[string]bool{}
	var lines []string
	packages.Visit(pkgs, nil, func(pkg *packages.Package) {
		if len(pkg.Errors) == 0 {
			return
		}
		line := Label(pkg) + ": " + Message(pkg.Errors[0], rel)
		if n := len(pkg.Errors) - 1; n > 0 {
			line += fmt.Sprintf(" (and %d more errors)", n)
		}
		if !seen[line] {
			seen[line] = true
			lines = append(lines, line)
		}
	})
	sort.Strings(lines)
	return lines
}

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
