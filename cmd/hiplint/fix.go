package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"sort"
)

// applyFixes applies the first suggested fix of each finding to the user's
// files, or with diffOnly prints the change as a unified diff and writes
// nothing. A fix is taken whole or not at all: it is skipped, with a warning,
// when one of its edits cannot be placed exactly, touches a generated file,
// or overlaps an edit already taken. Findings without an applied fix are
// printed as text (on stderr with diffOnly, whose stdout is the diff).
//
// It returns the number of findings still in the tree afterwards (all of
// them with diffOnly) and whether anything failed.
func (p *program) applyFixes(findings []*finding, diffOnly bool) (remaining int, failed bool) {
	src := newSourceFiles()
	taken := make(map[string][]edit)
	var unfixed []*finding
	applied := 0
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			unfixed = append(unfixed, f)
			continue
		}
		fix := f.diag.SuggestedFixes[0]
		edits, err := src.mapFix(f.pkg, fix)
		if err == nil {
			err = refuseGenerated(src, edits)
		}
		if err == nil {
			err = merge(taken, edits)
		}
		if err != nil {
			p.errorf("%s: fix %q skipped: %v", p.position(f.posn), fix.Message, err)
			unfixed = append(unfixed, f)
			continue
		}
		applied++
	}

	files := make([]string, 0, len(taken))
	for file := range taken {
		files = append(files, file)
	}
	sort.Strings(files)
	for _, file := range files {
		old, err := src.read(file)
		if err != nil {
			p.errorf("%v", err)
			failed = true
			continue
		}
		fixed := formatLike(old, applyEdits(old, taken[file]))
		if diffOnly {
			fmt.Fprint(p.stdout, unifiedDiff(p.relative(file), old, fixed))
			continue
		}
		if err := writeFileKeepMode(file, fixed); err != nil {
			p.errorf("%v", err)
			failed = true
		}
	}

	if diffOnly {
		p.writeText(p.stderr, unfixed)
		return len(findings), failed
	}
	p.writeText(p.stdout, unfixed)
	if applied > 0 {
		p.errorf("applied %d of %d suggested fixes to %s", applied, applied+countFixable(unfixed), plural(len(files), "file"))
	}
	return len(unfixed), failed
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func countFixable(findings []*finding) int {
	n := 0
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) > 0 {
			n++
		}
	}
	return n
}

// refuseGenerated fails when an edit touches a file marked as generated:
// the next generation would undo it.
func refuseGenerated(src *sourceFiles, edits map[string][]edit) error {
	for file := range edits {
		data, err := src.read(file)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, data, parser.PackageClauseOnly|parser.ParseComments)
		if err == nil && ast.IsGenerated(f) {
			return fmt.Errorf("%s is generated", file)
		}
	}
	return nil
}

// merge adds edits to taken if none overlaps an edit already taken. An edit
// identical to a taken one is the same fix reached twice and is dropped.
func merge(taken, edits map[string][]edit) error {
	fresh := make(map[string][]edit)
	for file, list := range edits {
		for _, e := range list {
			if slices.Contains(taken[file], e) || slices.Contains(fresh[file], e) {
				continue
			}
			for _, t := range append(slices.Clip(taken[file]), fresh[file]...) {
				if overlap(e, t) {
					return fmt.Errorf("it conflicts with another fix in %s", file)
				}
			}
			fresh[file] = append(fresh[file], e)
		}
	}
	for file, list := range fresh {
		taken[file] = append(taken[file], list...)
	}
	return nil
}

// overlap reports whether two edits touch the same bytes, or insert
// different text at the same place (whose order would be arbitrary).
func overlap(a, b edit) bool {
	if a.start == a.end && b.start == b.end {
		return a.start == b.start
	}
	return a.start < b.end && b.start < a.end
}

// applyEdits returns data with the non-overlapping edits applied.
func applyEdits(data []byte, edits []edit) []byte {
	sorted := slices.Clone(edits)
	// Insertions before replacements that start at the same place.
	slices.SortStableFunc(sorted, func(a, b edit) int { return cmp.Or(a.start-b.start, a.end-b.end) })
	var out bytes.Buffer
	last := 0
	for _, e := range sorted {
		out.Write(data[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(data[last:])
	return out.Bytes()
}

// formatLike gofmts fixed when old was gofmt-clean, so that fixes need not
// get indentation right, but an unformatted file is not reformatted whole.
func formatLike(old, fixed []byte) []byte {
	if formatted, err := format.Source(old); err != nil || !bytes.Equal(formatted, old) {
		return fixed
	}
	if formatted, err := format.Source(fixed); err == nil {
		return formatted
	}
	return fixed
}

func writeFileKeepMode(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	return os.WriteFile(name, data, info.Mode().Perm())
}
