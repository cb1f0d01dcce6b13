package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/hiplint/hiplint/internal/fixes"
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
	src := fixes.NewSources()
	taken := make(map[string][]fixes.Edit)
	var unfixed []*finding
	applied := 0
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			unfixed = append(unfixed, f)
			continue
		}
		fix := f.diag.SuggestedFixes[0]
		edits, err := src.Map(f.pkg, fix)
		if err == nil {
			err = src.RefuseGenerated(edits)
		}
		if err == nil {
			err = fixes.Merge(taken, edits)
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
		old, err := src.Read(file)
		if err != nil {
			p.errorf("%v", err)
			failed = true
			continue
		}
		fixed := fixes.Result(old, taken[file])
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

func writeFileKeepMode(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	return os.WriteFile(name, data, info.Mode().Perm())
}
