package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
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
// when one of its edits cannot be placed exactly, touches a generated file
// or a file reached through a symbolic link that leaves the module, or
// overlaps an edit already taken. A file that cannot be written keeps every
// finding whose fix it needed. Findings without an applied fix are printed
// as text (on stderr with diffOnly, whose stdout is the diff).
//
// It returns the number of findings still in the tree afterwards (all of
// them with diffOnly) and whether anything failed.
func (p *program) applyFixes(findings []*finding, diffOnly bool) (remaining int, failed bool) {
	src := fixes.NewSources()
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
			p.errorf("%s: fix %q skipped: %v", p.position(f.Posn), fix.Message, err)
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
			p.errorf("%s: not fixed: %v", p.relative(file), err)
			notWritten[file] = true
			continue
		}
		fixed := fixes.Result(old, taken[file])
		if diffOnly {
			fmt.Fprint(p.stdout, unifiedDiff(p.relative(file), old, fixed))
			continue
		}
		if err := writeFileAtomic(targets[file], fixed); err != nil {
			p.errorf("%s: not fixed: %v", p.relative(file), err)
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

// writeData writes the new content into the temporary file; tests replace
// it to fail half way.
var writeData = func(w io.Writer, data []byte) error {
	_, err := w.Write(data)
	return err
}

// writeFileAtomic replaces the content of name, a regular file, with data
// and keeps its mode. The data goes to a temporary file beside it, which
// is synced and then renamed over name: a full disk or a crash leaves
// either the old file or the new one, never a truncated one. A file
// without write permission is not replaced, although its directory would
// allow the rename.
func writeFileAtomic(name string, data []byte) (err error) {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", name)
	case info.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s is read-only (mode %v)", name, info.Mode().Perm())
	}
	if f, err := os.OpenFile(name, os.O_WRONLY, 0); err != nil { // the permission as the system sees it
		return err
	} else {
		f.Close()
	}

	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".hiplint-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeData(tmp, data); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	// Make the rename itself durable; a directory that cannot be synced
	// has the new file all the same.
	if dir, err := os.Open(filepath.Dir(name)); err == nil {
		_ = dir.Sync()
		dir.Close()
	}
	return nil
}
