package main

import (
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hiplint/hiplint/internal/driver"
)

// A finding is one diagnostic of one analyzer, or one problem with a
// suppression directive (internal/driver collects them).
type finding = driver.Finding

// An actionError is an analyzer that failed on a package.
type actionError = driver.ActionError

// results are what one analysis run produced.
type results struct {
	findings []*finding               // deduplicated, sorted by position (nil when answered from the cache)
	out      []*outFinding            // the findings as printed (resolve), in the same order
	errors   []actionError            // root causes only, in graph order
	sources  map[string]driver.Digest // with -fix and -diff: what was analyzed (driver.Config.HashSources)
	// degraded are the packages analyzed without their C types (tier 3),
	// by package path, with the note printed about each.
	degraded map[string]string
	// moduleDir is the main module's directory, for SARIF's source root.
	moduleDir string
}

// printText prints findings as `file:line:col: message (ID)`, each related
// position below it, indented by a tab.
func (p *program) printText(findings []*outFinding) {
	p.writeOutText(p.stdout, findings)
}

func (p *program) writeText(w io.Writer, findings []*finding) {
	p.writeOutText(w, textOnly(findings))
}

func (p *program) writeOutText(w io.Writer, findings []*outFinding) {
	for _, f := range findings {
		msg := f.Message
		if f.Category != "" {
			msg += " (" + f.Category + ")"
		}
		fmt.Fprintf(w, "%s: %s\n", p.position(f.Posn), escapeControls(msg))
		for _, r := range f.Related {
			fmt.Fprintf(w, "\t%s: %s\n", p.position(r.Posn), escapeControls(r.Message))
		}
	}
}

// position formats posn as file:line:col with the file relative to the
// working directory when it is inside it.
func (p *program) position(posn token.Position) string {
	if !posn.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.displayName(posn.Filename), posn.Line, posn.Column)
}

// displayName is file as position prints it: relative to the working
// directory when it is inside it, and quoted as a Go string when it holds
// a control character or is not UTF-8. A //line directive can name any
// file, with escape sequences that would drive the terminal.
func (p *program) displayName(file string) string {
	name := p.relative(file)
	if needsQuoting(name) {
		return strconv.Quote(name)
	}
	return name
}

func needsQuoting(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return true
		}
	}
	return false
}

// escapeControls escapes the control characters of s other than newline
// and tab, which the lines hiplint prints hold on purpose, the way
// strconv.Quote would.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, isEscaped) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isEscaped(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isEscaped(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029')
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
