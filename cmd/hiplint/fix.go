package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/fixes"
	"golang.org/x/tools/go/packages"
)

// applyFixes applies the first suggested fix of each finding to the user's
// files, or with diffOnly prints the change as a unified diff and writes
// nothing. A fix is taken whole or not at all: it is skipped, with a warning,
// when one of its edits cannot be placed exactly (fixes.Sources.Place), its
// file no longer holds the bytes that were analyzed (analyzed: their
// hashes, by file), it touches a generated file or a file reached through a
// symbolic link that leaves the module, or it overlaps an edit already
// taken. A file that cannot be written, or that changes before it is
// (writeFileAtomic), keeps every finding whose fix it needed. Findings
// without an applied fix are printed as text (on stderr with diffOnly,
// whose stdout is the diff).
//
// It returns the number of findings still in the tree afterwards (all of
// them with diffOnly) and whether anything failed.
func (p *program) applyFixes(findings []*finding, analyzed map[string]driver.Digest, diffOnly bool) (remaining int, failed bool) {
	if p.hooks.analyzed != nil {
		p.hooks.analyzed()
	}
	src := fixes.NewSources()
	src.Expect(analyzed)
	taken := make(map[string][]fixes.Edit)
	targets := make(map[string]string)     // file -> the file to write: its symbolic links resolved
	refused := make(map[string]error)      // file -> why it may not be written
	filesOf := make(map[*finding][]string) // the files each taken fix edits
	var unfixed []*finding
	for _, f := range findings {
		if len(f.Diagnostic.SuggestedFixes) == 0 {
			unfixed = append(unfixed, f)
			continue
		}
		fix := f.Diagnostic.SuggestedFixes[0]
		edits, err := src.Map(f.Pkg, fix)
		if err == nil {
			err = src.RefuseGenerated(edits)
		}
		if err == nil {
			err = p.writeTargets(f.Pkg, edits, targets, refused)
		}
		if err == nil {
			err = fixes.Merge(taken, edits)
		}
		if err != nil {
			var changed *fixes.ChangedError
			if errors.As(err, &changed) {
				again := "-fix"
				if diffOnly {
					again = "-diff"
				}
				p.errorf("%s: fix %q skipped: %s changed since hiplint analyzed it; run hiplint %s again", p.position(f.Posn), fix.Message, p.displayName(changed.Name), again)
			} else {
				p.errorf("%s: fix %q skipped: %v", p.position(f.Posn), fix.Message, err)
			}
			unfixed = append(unfixed, f)
			continue
		}
		for file := range edits {
			filesOf[f] = append(filesOf[f], file)
		}
	}

	files := make([]string, 0, len(taken))
	for file := range taken {
		files = append(files, file)
	}
	sort.Strings(files)
	notWritten := make(map[string]bool)
	written := 0
	for _, file := range files {
		old, err := src.Read(file)
		if err != nil {
			p.errorf("%s: not fixed: %v", p.displayName(file), err)
			notWritten[file] = true
			continue
		}
		fixed := fixes.Result(old, taken[file])
		if diffOnly {
			fmt.Fprint(p.stdout, unifiedDiff(p.displayName(file), old, fixed))
			continue
		}
		if err := writeFileAtomic(targets[file], sha256.Sum256(old), fixed, p.hooks.writing); err != nil {
			p.errorf("%s: not fixed: %v", p.displayName(file), err)
			notWritten[file] = true
			continue
		}
		written++
	}

	// A fix counts as applied only when every file it edits was written.
	applied, fixable := 0, 0
	for _, f := range findings {
		edited, ok := filesOf[f]
		if !ok {
			if len(f.Diagnostic.SuggestedFixes) > 0 {
				fixable++
			}
			continue
		}
		fixable++
		if slices.ContainsFunc(edited, func(file string) bool { return notWritten[file] }) {
			unfixed = append(unfixed, f)
			continue
		}
		applied++
	}
	slices.SortStableFunc(unfixed, driver.CompareFindings)
	failed = len(notWritten) > 0

	if diffOnly {
		p.writeText(p.stderr, unfixed)
		return len(findings), failed
	}
	p.writeText(p.stdout, unfixed)
	if fixable > 0 {
		p.errorf("applied %d of %d suggested fixes to %s", applied, fixable, plural(written, "file"))
	}
	return len(unfixed), failed
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeTargets records in targets the file that -fix writes for each file
// that edits change: the file itself, or where its symbolic links lead when
// that is inside the package's module (or, outside module mode, its
// directory). A file whose links lead out of it is refused, so that -fix
// never writes beyond the code it was asked to lint.
func (p *program) writeTargets(pkg *packages.Package, edits map[string][]fixes.Edit, targets map[string]string, refused map[string]error) error {
	for file := range edits {
		if _, ok := targets[file]; ok {
			continue
		}
		if err, ok := refused[file]; ok {
			return err
		}
		target, err := writeTarget(pkg, file)
		if err != nil {
			refused[file] = err
			return err
		}
		targets[file] = target
	}
	return nil
}

func writeTarget(pkg *packages.Package, file string) (string, error) {
	resolved, err := filepath.EvalSymlinks(file)
	if err != nil {
		return "", err
	}
	root := filepath.Dir(file)
	if pkg.Module != nil && pkg.Module.Dir != "" {
		root = pkg.Module.Dir
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	if !within(realRoot, resolved) {
		return "", fmt.Errorf("%s is a symbolic link to %s, outside %s; hiplint does not write through it", file, resolved, root)
	}
	return resolved, nil
}

// within reports whether file is dir or below it; both are clean and absolute.
func within(dir, file string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
