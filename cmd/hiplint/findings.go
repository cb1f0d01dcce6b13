package main

import (
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"strings"

	"github.com/hiplint/hiplint/internal/driver"
)

// A finding is one diagnostic of one analyzer, or one problem with a
// suppression directive (internal/driver collects them).
type finding = driver.Finding

// An actionError is an analyzer that failed on a package.
type actionError = driver.ActionError

// results are what one analysis run produced.
type results struct {
	findings []*finding    // deduplicated, sorted by position
	errors   []actionError // root causes only, in graph order
	// degraded are the packages analyzed without their C types (tier 3),
	// by package path, with the note printed about each.
	degraded map[string]string
}

// printText prints findings as `file:line:col: message (ID)`, each related
// position below it, indented by a tab.
func (p *program) printText(findings []*finding) {
	p.writeText(p.stdout, findings)
}

func (p *program) writeText(w io.Writer, findings []*finding) {
	for _, f := range findings {
		msg := f.Diagnostic.Message
		if f.Diagnostic.Category != "" {
			msg += " (" + f.Diagnostic.Category + ")"
		}
		fmt.Fprintf(w, "%s: %s\n", p.position(f.Posn), msg)
		for _, r := range f.Diagnostic.Related {
			fmt.Fprintf(w, "\t%s: %s\n", p.position(f.Pkg.Fset.Position(r.Pos)), r.Message)
		}
	}
}

// position formats posn as file:line:col with the file relative to the
// working directory when it is inside it.
func (p *program) position(posn token.Position) string {
	if !posn.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.relative(posn.Filename), posn.Line, posn.Column)
}

// relative returns file relative to the working directory when file is
// inside it, otherwise file unchanged.
func (p *program) relative(file string) string {
	if !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(p.dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}
