package main

import (
	"go/token"
	"sort"

	"github.com/hiplint/hiplint/internal/fixes"
	"golang.org/x/tools/go/packages"
)

// The -json output has the shape the go/analysis drivers (multichecker,
// go vet -json) print, so tools that read theirs read ours:
//
//	{"pkg ID": {"analyzer": [diagnostic, ...] or {"error": "..."}}}
//
// Positions are absolute, adjusted through //line directives to the user's
// files; an end is the exact end in the user's file, or the end of the
// line when cgo rewrote the text around it or there is no end (a related
// position), as SARIF's regions (see userSpan). Unlike the go/analysis drivers, the edits of suggested fixes are
// offsets in the user's files too, not in cgo's generated ones; a fix that
// cannot be placed there exactly is left out.

type jsonDiagnostic struct {
	Category       string        `json:"category,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated `json:"related,omitempty"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonError struct {
	Err string `json:"error"`
}

// jsonCTypes is the entry "hiplint:ctypes" of a package analyzed without its
// C types (tier 3): the note printed about it, and whether -strict-ctypes
// made it fail the run.
type jsonCTypes struct {
	Degraded string `json:"degraded"`
	Strict   bool   `json:"strict,omitempty"`
}

// jsonTree builds the -json output of res.
func (res *results) jsonTree(strict bool) map[string]map[string]any {
	tree := make(map[string]map[string]any)
	byAnalyzer := func(pkgID string) map[string]any {
		if tree[pkgID] == nil {
			tree[pkgID] = make(map[string]any)
		}
		return tree[pkgID]
	}
	for _, f := range res.out {
		d := jsonDiagnostic{
			Category:       f.Category,
			Posn:           f.Posn.String(),
			End:            f.End,
			Message:        f.Message,
			SuggestedFixes: f.Fixes,
		}
		for _, r := range f.Related {
			d.Related = append(d.Related, jsonRelated{Posn: r.Posn.String(), End: r.End, Message: r.Message})
		}
		m := byAnalyzer(f.PkgID)
		list, _ := m[f.Analyzer].([]jsonDiagnostic)
		m[f.Analyzer] = append(list, d)
	}
	for _, e := range res.errors {
		byAnalyzer(e.PkgID)[e.Analyzer] = jsonError{e.String()}
	}
	for path, note := range res.degraded {
		byAnalyzer(path)["hiplint:ctypes"] = jsonCTypes{Degraded: note, Strict: strict}
	}
	return tree
}

// jsonFixes maps the suggested fixes of f to edits of the user's files, as
// -json prints them; a fix that cannot be placed exactly is left out.
func jsonFixes(src *fixes.Sources, f *finding) []jsonFix {
	var out []jsonFix
	for _, fix := range f.Diagnostic.SuggestedFixes {
		edits, err := src.Map(f.Pkg, fix)
		if err != nil {
			continue
		}
		jf := jsonFix{Message: fix.Message, Edits: []jsonEdit{}}
		files := make([]string, 0, len(edits))
		for file := range edits {
			files = append(files, file)
		}
		sort.Strings(files)
		for _, file := range files {
			for _, e := range edits[file] {
				jf.Edits = append(jf.Edits, jsonEdit{file, e.Start, e.End, e.Text})
			}
		}
		out = append(out, jf)
	}
	return out
}

// jsonEnd is the end of [pos, end) in the user's file, as SARIF's region
// ends (sarifPhysical): exact; else the end of the start's line, where the
// file can be read (a related position has no end of its own, and cgo's
// columns are not the user's); else the start.
func jsonEnd(src *fixes.Sources, pkg *packages.Package, pos, end token.Pos) string {
	start, stop, exact := userSpan(src, pkg, pos, end)
	if !exact {
		stop = pkg.Fset.Position(pos) // as printed in posn
		if !stop.IsValid() {
			stop = start
		}
		if line, ok := sourceLine(src, pkg, start); ok && stop.Line == start.Line && stop.Column <= len(line)+1 {
			stop.Column = len(line) + 1
		}
	}
	stop.Offset = 0 // not part of the string
	return stop.String()
}
