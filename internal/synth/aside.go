package synth

import (
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"golang.org/x/tools/go/packages"
)

// A package one of whose Go imports cannot be found (a GOPATH-era
// dependency the module proxy does not serve, a module not yet fetched)
// gets no cgo step from go list, so it would be analyzed without its C
// types, although they do not depend on its Go imports. Synthesis sets
// such imports aside: in the overlay, each one's path is replaced in place
// by "unsafe" (padded with spaces, so that no column after it moves), go
// list then runs cgo, and the rescan (internal/driver) puts the original
// paths back into the syntax of cgo's output before type-checking it, so
// the imports stay missing there and the code that uses them is analyzed as
// with any import not found.

// aside is the path every import set aside is replaced with: always found,
// and no import cycle can go through it.
const aside = "unsafe"

// notRun returns the imports of p that were not found, when go list ran
// no cgo step for p because of them: p imports "C", go/packages
// type-checked it from its raw files, and there is no cgo output.
func notRun(p *packages.Package) []string {
	if p.Types == nil || !cgocall.Unprocessed(p.Types) {
		return nil
	}
	for _, e := range p.Errors {
		if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
			return nil // cgo ran, and failed
		}
	}
	var missing []string
	for path, imp := range p.Imports {
		if path != "C" && notFound(imp) {
			missing = append(missing, path)
		}
	}
	sort.Strings(missing)
	return missing
}

// notFound reports whether imp stands for an import that could not be
// found: no files, and only errors of go list.
func notFound(imp *packages.Package) bool {
	if len(imp.GoFiles) > 0 || len(imp.CompiledGoFiles) > 0 || len(imp.Errors) == 0 {
		return false
	}
	for _, e := range imp.Errors {
		if e.Kind != packages.ListError {
			return false
		}
	}
	return true
}

// setAside sets the imports paths aside in every Go file of p that imports
// them. It reports whether any was new.
func (s *Synth) setAside(p *packages.Package, paths []string) bool {
	want := map[string]bool{}
	for _, path := range paths {
		want[path] = true
	}
	progress := false
	for _, g := range p.GoFiles {
		src, err := s.read(g)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), g, src, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil || !want[path] {
				continue
			}
			fx := s.fix(p, g)
			if fx.aside == nil {
				fx.aside = map[string]bool{}
			}
			if !fx.aside[path] {
				fx.aside[path] = true
				progress = true
			}
		}
	}
	return progress
}

// rewriteAside returns src with the path of every import of the set
// replaced by aside, in place.
func rewriteAside(src []byte, set map[string]bool) []byte {
	if len(set) == 0 {
		return src
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly)
	if err != nil {
		return src
	}
	out := append([]byte(nil), src...)
	// From the last, so that an earlier replacement's length does not
	// move a later one's offset.
	for i := len(f.Imports) - 1; i >= 0; i-- {
		spec := f.Imports[i]
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil || !set[path] {
			continue
		}
		start := fset.Position(spec.Path.Pos()).Offset
		end := start + len(spec.Path.Value)
		repl := strconv.Quote(aside)
		if n := end - start; n > len(repl) {
			repl += strings.Repeat(" ", n-len(repl))
		}
		out = append(out[:start:start], append([]byte(repl), out[end:]...)...)
	}
	return out
}
