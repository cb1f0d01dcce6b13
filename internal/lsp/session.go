package lsp

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/fixes"
)

// Edits in memory (docs/editors.md, "Edits in memory"). A full analysis of
// a directory keeps its loaded package graph (driver.Session): the
// directory's packages and their dependencies with their types, the
// dependencies' facts, cgo's output as it was loaded. An edit of a Go file
// of the directory is then analyzed without the go command: the edited
// files are parsed, the packages that hold them (and the packages of the
// graph that import those: test variants) are type-checked again against
// the dependencies' types, and the analyzers run with the dependencies'
// facts replayed. No go list, no go env, no cgo, no C header scan.
//
// The graph is used only while it still describes the code: every file it
// read outside GOROOT (and each package's directory, go.mod, go.sum) has
// the size and modification time it had, the directory has the same Go
// files, the unsaved buffers of other directories are the ones it was
// loaded with, and the edit changes no package clause, import, build
// constraint or cgo file (driver.Session.Rerun). Otherwise the directory
// is loaded again, as before, and that load is the new graph.

// A dirSession is the graph of a directory's last full analysis, with what
// tells whether it still holds.
type dirSession struct {
	s *driver.Session
	// sums are the contents the graph has of the directory's Go files,
	// by name (every *.go of the directory, in a package or not).
	sums map[string][32]byte
	// others are the unsaved buffers of other directories it was
	// loaded with.
	others map[string][32]byte
	// stamps are the files and directories the graph read, with their
	// size and modification time.
	stamps map[string]stamp
}

type stamp struct {
	size int64
	mod  time.Time
	dir  bool
}

func stampOf(name string) (stamp, bool) {
	fi, err := os.Stat(name)
	if err != nil {
		return stamp{}, false
	}
	return stamp{fi.Size(), fi.ModTime(), fi.IsDir()}, true
}

// newDirSession keeps the graph of a full analysis of dir with overlay.
// stamps were taken before the load (a file changed while it ran makes the
// session out of date at once).
func newDirSession(dir string, sess *driver.Session, overlay map[string][]byte, stamps map[string]stamp) *dirSession {
	for name, st := range stamps {
		if now, ok := stampOf(name); !ok || now.size != st.size || !now.mod.Equal(st.mod) {
			return nil // changed while it loaded: which contents it has is unknown
		}
	}
	ds := &dirSession{s: sess, sums: map[string][32]byte{}, others: map[string][32]byte{}, stamps: stamps}
	for name, text := range overlay {
		if dirOf(name) != dir {
			ds.others[name] = sha256.Sum256(text)
		}
	}
	for _, name := range goFilesIn(dir) {
		text, ok := overlay[name]
		if !ok {
			var err error
			if text, err = fixes.ReadBounded(name, fixes.MaxFileSize); err != nil {
				continue
			}
		}
		ds.sums[name] = sha256.Sum256(text)
	}
	// Files the graph read that the stamps taken before the load could
	// not know: a dependency's files. Taken now, after the load.
	for _, name := range append(sess.Files(), sess.Dirs()...) {
		if _, ok := ds.stamps[name]; !ok {
			if st, ok := stampOf(name); ok {
				ds.stamps[name] = st
			}
		}
	}
	for _, p := range sess.Packages() {
		if p.Module != nil && p.Module.GoMod != "" {
			sum := filepath.Join(filepath.Dir(p.Module.GoMod), "go.sum")
			if _, ok := ds.stamps[sum]; !ok {
				st, _ := stampOf(sum) // missing: the zero stamp, which must stay missing
				ds.stamps[sum] = st
			}
		}
	}
	return ds
}

// stampDir takes the stamps of dir's own files and the directory itself,
// before a load.
func stampDir(dir string) map[string]stamp {
	out := map[string]stamp{}
	if st, ok := stampOf(dir); ok {
		out[dir] = st
	}
	for _, name := range goFilesIn(dir) {
		if st, ok := stampOf(name); ok {
			out[name] = st
		}
	}
	return out
}

// goFilesIn lists the *.go files of dir.
func goFilesIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// changes returns the Go files of dir whose contents, with overlay, differ
// from the session's, with their contents; why is not "" when the session
// no longer describes the code.
func (ds *dirSession) changes(dir string, overlay map[string][]byte) (changed map[string][]byte, why string) {
	for name, st := range ds.stamps {
		if name == dir {
			// A save by rename changes it; its Go files are compared
			// below.
			continue
		}
		now, ok := stampOf(name)
		if st == (stamp{}) {
			if ok {
				return nil, name + " appeared"
			}
			continue
		}
		if !ok || now.size != st.size && !now.dir || !now.mod.Equal(st.mod) {
			if _, over := overlay[name]; over && dirOf(name) == dir {
				continue // its buffer is compared below
			}
			if dirOf(name) == dir && !now.dir && ok {
				continue // saved from the editor: compared below
			}
			return nil, name + " changed on disk"
		}
	}
	others := 0
	for name, text := range overlay {
		if dirOf(name) == dir {
			continue
		}
		others++
		if sum, ok := ds.others[name]; !ok || sum != sha256.Sum256(text) {
			return nil, "the unsaved buffer of " + name + " changed"
		}
	}
	if others != len(ds.others) {
		return nil, "a buffer of another directory was saved or closed"
	}
	names := goFilesIn(dir)
	if len(names) != len(ds.sums) {
		return nil, "the directory's Go files changed"
	}
	changed = map[string][]byte{}
	for _, name := range names {
		old, ok := ds.sums[name]
		if !ok {
			return nil, "the directory's Go files changed"
		}
		text, over := overlay[name]
		if !over {
			var err error
			if text, err = fixes.ReadBounded(name, fixes.MaxFileSize); err != nil {
				return nil, fmt.Sprintf("reading %s: %v", name, err)
			}
		}
		if sha256.Sum256(text) != old {
			changed[name] = text
		}
	}
	return changed, ""
}

// rerun analyzes dir from its session, when it has one that still holds:
// the result, or nil (the caller loads the directory).
func (s *Server) rerun(ctx context.Context, dir string, overlay map[string][]byte) *pkgResult {
	s.mu.Lock()
	ds := s.sessions[dir]
	s.mu.Unlock()
	if ds == nil {
		return nil
	}
	start := time.Now()
	changed, why := ds.changes(dir, overlay)
	if why == "" {
		res, stats, reason := s.rerunSession(ctx, dir, ds, changed, overlay)
		if res != nil {
			s.logger.Printf("%s: edit analyzed in memory in %v (%d files parsed, %d packages type-checked: check %v, analysis %v; no go command)",
				dir, time.Since(start).Round(time.Millisecond), stats.Parsed, stats.Checked,
				stats.Check.Round(time.Millisecond), stats.Rest.Round(time.Millisecond))
			if s.opts.RerunStats != nil {
				s.opts.RerunStats(dir, stats)
			}
			return res
		}
		why = reason
	}
	s.logger.Printf("%s: loaded again: %s", dir, why)
	s.mu.Lock()
	s.dropSession(dir)
	s.mu.Unlock()
	return nil
}

// rerunSession runs ds's session with changed; res is nil with the reason
// when it refuses.
func (s *Server) rerunSession(ctx context.Context, dir string, ds *dirSession, changed, overlay map[string][]byte) (res *pkgResult, stats driver.RerunStats, why string) {
	res = newResult(dir)
	defer func() {
		if r := recover(); r != nil {
			// The graph may be half updated: the session goes.
			res, why = nil, fmt.Sprintf("internal error: %v", r)
		}
	}()
	var r *driver.Result
	var err error
	// Labelled for -cpuprofile: `go tool pprof -tagfocus hiplint=edit`.
	pprof.Do(ctx, pprof.Labels("hiplint", "edit"), func(ctx context.Context) {
		r, stats, why, err = ds.s.Rerun(s.driverConfig(ctx, dir, overlay), changed)
	})
	if why != "" {
		return nil, stats, why
	}
	if err != nil {
		// Cancelled, or a failure in the middle: the graph may be half
		// updated, and the session goes.
		return nil, stats, "the analysis in memory failed: " + err.Error()
	}
	for name, text := range changed {
		ds.sums[name] = sha256.Sum256(text)
	}
	// The findings' positions are in cgo's output as Rerun rewrote it.
	sources := maps.Clone(overlay)
	maps.Copy(sources, ds.s.Compiled())
	s.fill(res, r, sources)
	return res, stats, ""
}
