package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/lsp"
	"github.com/hiplint/hiplint/internal/resultcache"
)

// The standalone command's use of the result cache (docs/cache.md):
// driver.PlanCache keys each initial package path (with its test variants)
// without type-checking anything; the paths whose entries are in the cache
// are printed from them, the others are analyzed in one driver run, which
// stores their entries. Every run prints outFindings, so a path answered
// from the cache prints what it printed when it was analyzed.

// cacheEntry is what the cache keeps of one path: what analyze prints of
// it. Notes and error lines about a dependency are kept by every path
// whose packages depend on it; the merge prints each once.
type cacheEntry struct {
	Findings []*outFinding
	Notes    []string          `json:",omitempty"`
	Errors   []string          `json:",omitempty"`
	Budget   []string          `json:",omitempty"`
	Degraded map[string]string `json:",omitempty"`
}

// cacheBypass says why this run does not use the cache ("": it does).
func cacheBypass(o *options) string {
	switch {
	case o.cache == "off":
		return "-cache=off"
	case o.fix || o.diff:
		// -fix writes files from the positions and bytes of this
		// run's analysis (driver.Config.HashSources): never from an
		// entry.
		return "-fix and -diff analyze everything"
	case os.Getenv("HIPLINT_LOADREPORT") != "":
		return "HIPLINT_LOADREPORT reports the load"
	case os.Getenv("HIPLINT_SYNTH_DEBUG") != "":
		return "HIPLINT_SYNTH_DEBUG prints the repairs"
	}
	return ""
}

// cacheStats is what HIPLINT_CACHE_STATS receives: the paths answered from
// the cache and the ones analyzed, for tests and benchmarks.
type cacheStats struct {
	Off      string   `json:",omitempty"` // why the cache was not used
	Hits     []string `json:",omitempty"`
	Analyzed []string `json:",omitempty"`
	Stored   int      // entries written
	// Replayed: the dependencies the analysis loaded from export data,
	// their facts from the cache (the language server's misses).
	Replayed []string `json:",omitempty"`
}

func (p *program) cacheStats(s cacheStats) {
	name := os.Getenv("HIPLINT_CACHE_STATS")
	if name == "" {
		return
	}
	data, _ := json.Marshal(s)
	if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
		p.errorf("HIPLINT_CACHE_STATS: %v", err)
	}
}

// cacheIdentity is what every key of this run shares besides what the
// driver adds: hiplint's build and the working directory (notes and error
// lines name files relative to it).
func (p *program) cacheIdentity(c *resultcache.Cache) ([]byte, error) {
	exe, err := driver.ExecutableHash(c)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "hiplint %s exe %x dir %q\n", version(), exe, p.dir)
	return h.Sum(nil), nil
}

// analyzeCached is analyzeAll through the result cache. A cache that
// cannot be opened or keyed leaves the run to analyzeAll.
//
// newExe says that the cache holds nothing of this executable
// (driver.ExecutableKnown): the run is cold, and the packages are listed
// for the keys while the analysis runs (analyzeListing).
func (p *program) analyzeCached(o *options, cfg driver.Config, newExe bool) (*runOutput, error) {
	dir, err := resultcache.Dir()
	var c *resultcache.Cache
	if err == nil {
		c, err = resultcache.Open(dir, resultcache.Limit())
	}
	if err == nil && newExe {
		// The state of the module's files before anything reads them,
		// for analyzeListing's Prestat: in a module of at most 20000
		// files and directories.
		if root := moduleRoot(p.dir); root != "" {
			if tree := driver.StatTree(root, 20000); tree != nil {
				return p.analyzeListing(o, cfg, c, tree)
			}
		}
	}
	var plan *driver.CachePlan
	if err == nil {
		var id []byte
		if id, err = p.cacheIdentity(c); err == nil {
			plan, err = driver.ListCache(cfg, c, id, o.patterns...)
		}
	}
	switch {
	case err != nil:
		p.cacheStats(cacheStats{Off: err.Error()})
		return p.analyzeAll(cfg, o.patterns)
	case plan.Uncacheable != "":
		p.cacheStats(cacheStats{Off: plan.Uncacheable})
		return p.analyzeAll(cfg, o.patterns)
	}

	var stats cacheStats
	cfg.ExportFacts = true
	// keyed waits for the keys (plan.Key); cold: they are computed while
	// the one analysis runs, which replays no facts then.
	keyed, cold := func() {}, false
	// analyze runs the driver on groups (all: on the patterns), with the
	// facts of their dependencies that the cache holds, and stores what
	// it learned: the facts, then each group's entry under its key.
	analyze := func(groups []*driver.CacheGroup, all bool) (*runOutput, error) {
		paths := o.patterns
		if !all {
			paths = make([]string, len(groups))
			for i, g := range groups {
				paths[i] = g.Path
			}
		}
		for _, g := range groups {
			stats.Analyzed = append(stats.Analyzed, g.Path)
		}
		run := cfg
		if !cold {
			run.CachedFacts = plan.CachedFacts()
		}
		ro, err := p.analyzeAll(run, paths)
		keyed()
		if err == nil {
			stats.Replayed = append(stats.Replayed, ro.replayed...)
		}
		if err == nil && len(ro.errors) == 0 && ro.hint == "" && plan.Unchanged() {
			plan.Store(c, groups, ro.facts)
			stats.Stored += p.storeEntries(c, plan, groups, ro)
		}
		return ro, err
	}
	if !anySeen(c, plan) {
		// A cold cache for this run: no group was ever stored with
		// these settings, so no lookup can hit, and the keys (the C
		// header scans, the files' hashes) are needed only to store
		// what the run learns. They are computed while it runs, from
		// the state of the files before it started (Prestat), and no
		// facts are replayed (a dependency's, stored by a run on other
		// patterns, would need its key first).
		plan.Prestat()
		done := make(chan struct{})
		go func() {
			defer close(done)
			plan.Key()
		}()
		keyed, cold = func() { <-done }, true
		ro, err := analyze(plan.Groups, true)
		p.cacheStats(stats)
		return ro, err
	}
	plan.Key()

	var hits []*cacheEntry
	lookup := func(g *driver.CacheGroup) bool {
		if !g.Cacheable || !g.Resolved {
			return false
		}
		data, ok := c.Get("r", g.Key)
		if !ok {
			return false
		}
		var e cacheEntry
		if json.Unmarshal(data, &e) != nil {
			return false
		}
		hits = append(hits, &e)
		stats.Hits = append(stats.Hits, g.Path)
		return true
	}
	var missed []*driver.CacheGroup
	for _, g := range plan.Groups {
		if !lookup(g) {
			missed = append(missed, g)
		}
	}
	// Early cutoff: the groups whose keys are known but that miss (an
	// edited package) are analyzed first; the groups that depend on them
	// then have keys, and only those whose dependencies' API or facts
	// changed miss. That takes two runs where one would do when the
	// unresolved groups were never analyzed with these settings (a cold
	// cache): then all are analyzed at once.
	var known, unresolved []*driver.CacheGroup
	for _, g := range missed {
		if g.Resolved || !g.Cacheable {
			known = append(known, g)
		} else {
			unresolved = append(unresolved, g)
		}
	}
	cutoff := len(known) > 0 && len(unresolved) > 0 && seenAll(c, plan, unresolved)
	if len(missed) == len(plan.Groups) && !cutoff {
		// Nothing to merge: the run is the uncached one, plus the
		// entries it leaves.
		ro, err := analyze(missed, true)
		p.cacheStats(stats)
		return ro, err
	}
	ro := &runOutput{headersUsed: plan.HeadersUsed, moduleDir: plan.ModuleDir, degraded: map[string]string{}}
	var runs []*runOutput
	if cutoff {
		fresh, err := analyze(known, false)
		if err != nil {
			p.cacheStats(stats)
			return nil, err
		}
		runs = append(runs, fresh)
		missed = missed[:0]
		for _, g := range unresolved {
			if !lookup(g) {
				missed = append(missed, g)
			}
		}
	}
	if len(missed) > 0 {
		fresh, err := analyze(missed, false)
		if err != nil {
			p.cacheStats(stats)
			return nil, err
		}
		runs = append(runs, fresh)
	}
	p.cacheStats(stats)
	for _, fresh := range runs {
		ro.findings = append(ro.findings, fresh.findings...) // not printed: -fix never gets here
		ro.errors = append(ro.errors, fresh.errors...)
		ro.hint = cmp.Or(ro.hint, fresh.hint)
		hits = append(hits, entryOf(fresh))
	}
	for _, e := range hits {
		ro.out = append(ro.out, e.Findings...)
		ro.notes = append(ro.notes, e.Notes...)
		ro.errLines = append(ro.errLines, e.Errors...)
		ro.budget = append(ro.budget, e.Budget...)
		maps.Copy(ro.degraded, e.Degraded)
	}
	ro.out = mergeFindings(ro.out)
	ro.notes = slices.Compact(slices.Sorted(slices.Values(ro.notes)))
	ro.errLines = slices.Compact(slices.Sorted(slices.Values(ro.errLines)))
	ro.budget = slices.Compact(slices.Sorted(slices.Values(ro.budget)))
	return ro, nil
}

// analyzeListing is analyzeCached's cold path when nothing of this
// executable can be in the cache: no lookup can hit, so the analysis
// starts at once, and the packages are listed and keyed beside it (one
// go list and the keys' reading, where the general cold path waits for the
// list). The state of the keys' files before the analysis read them comes
// from tree, the module's files stat'ed first; the few others (a
// hiplint.toml above the module, another module of a workspace) are
// stat'ed after the list, when the analysis may already have read them:
// it stores only when they were last modified before it started, with a
// margin for coarse modification times, and when every file is unchanged
// since (Unchanged).
func (p *program) analyzeListing(o *options, cfg driver.Config, c *resultcache.Cache, tree *driver.TreeStat) (*runOutput, error) {
	const margin = 2 * time.Second
	start := time.Now()
	type listed struct {
		plan *driver.CachePlan
		err  error
	}
	ch := make(chan listed, 1)
	listCfg := cfg // the list's own copy: the analysis' is changed below
	go func() {
		id, err := p.cacheIdentity(c)
		if err != nil {
			ch <- listed{nil, err}
			return
		}
		plan, err := driver.ListCache(listCfg, c, id, o.patterns...)
		if err == nil && plan.Uncacheable == "" {
			plan.PrestatFrom(tree)
			plan.Key()
		}
		ch <- listed{plan, err}
	}()
	cfg.ExportFacts = true
	ro, err := p.analyzeAll(cfg, o.patterns)
	l := <-ch
	var stats cacheStats
	switch {
	case l.err != nil:
		stats.Off = l.err.Error()
	case l.plan.Uncacheable != "":
		stats.Off = l.plan.Uncacheable
	default:
		plan := l.plan
		for _, g := range plan.Groups {
			stats.Analyzed = append(stats.Analyzed, g.Path)
		}
		if err == nil && len(ro.errors) == 0 && ro.hint == "" && plan.Unchanged() && plan.SettledBefore(start.Add(-margin)) {
			plan.Store(c, plan.Groups, ro.facts)
			stats.Stored += p.storeEntries(c, plan, plan.Groups, ro)
		}
	}
	p.cacheStats(stats)
	return ro, err
}

// moduleRoot is the directory of the go.mod at or above dir ("": none).
func moduleRoot(dir string) string {
	for d := filepath.Clean(dir); ; {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && fi.Mode().IsRegular() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// anySeen reports whether some group of plan has had an entry stored with
// this run's settings (seenKey), under any key.
func anySeen(c *resultcache.Cache, plan *driver.CachePlan) bool {
	for _, g := range plan.Groups {
		if _, ok := c.Get("s", plan.SeenKey(g)); ok {
			return true
		}
	}
	return false
}

// seenAll reports whether every group of groups has had an entry stored
// with this run's settings (seenKey), under any key.
func seenAll(c *resultcache.Cache, plan *driver.CachePlan, groups []*driver.CacheGroup) bool {
	for _, g := range groups {
		if _, ok := c.Get("s", plan.SeenKey(g)); !ok {
			return false
		}
	}
	return true
}

// entryOf is the whole of a run's output as one entry.
func entryOf(ro *runOutput) *cacheEntry {
	return &cacheEntry{Findings: ro.out, Notes: ro.notes, Errors: ro.errLines, Budget: ro.budget, Degraded: ro.degraded}
}

// mergeFindings sorts the findings of several entries as the driver sorts
// a run's (driver.CompareFindings) and drops the repeats it drops.
func mergeFindings(out []*outFinding) []*outFinding {
	slices.SortStableFunc(out, func(a, b *outFinding) int {
		return cmp.Or(
			cmp.Compare(a.Posn.Filename, b.Posn.Filename),
			cmp.Compare(a.Posn.Line, b.Posn.Line),
			cmp.Compare(a.Posn.Column, b.Posn.Column),
			cmp.Compare(a.Category, b.Category),
			cmp.Compare(a.Message, b.Message),
		)
	})
	type key struct {
		file                        string
		line, col                   int
		analyzer, message, category string
	}
	seen := map[key]bool{}
	kept := out[:0]
	for _, f := range out {
		k := key{f.Posn.Filename, f.Posn.Line, f.Posn.Column, f.Analyzer, f.Message, f.Category}
		if !seen[k] {
			seen[k] = true
			kept = append(kept, f)
		}
	}
	return kept
}

// storeEntries splits a run over groups into one entry per group and
// stores them. Every line of the run must belong to some group (by the
// package path it starts with); when one does not, or the run had an
// analyzer failure or a hint, or a file changed while it ran, nothing is stored: those runs are not
// answered from the cache. It returns the number of entries written.
func (p *program) storeEntries(c *resultcache.Cache, plan *driver.CachePlan, groups []*driver.CacheGroup, ro *runOutput) int {
	if len(ro.errors) > 0 || ro.hint != "" || !plan.Unchanged() {
		return 0
	}
	entries := make(map[*driver.CacheGroup]*cacheEntry, len(groups))
	byPath := map[string]*driver.CacheGroup{}
	for _, g := range groups {
		entries[g] = &cacheEntry{Findings: []*outFinding{}}
		byPath[g.Path] = g
	}
	for _, f := range ro.out {
		g := byPath[f.Group]
		if g == nil {
			return 0
		}
		entries[g].Findings = append(entries[g].Findings, f)
	}
	// attribute adds line to the entry of every group whose packages
	// include the one it is about.
	attribute := func(line string, add func(e *cacheEntry)) bool {
		path := linePackage(line)
		found := false
		for _, g := range groups {
			if g.Closure[path] {
				add(entries[g])
				found = true
			}
		}
		return found
	}
	for _, line := range ro.notes {
		if !attribute(line, func(e *cacheEntry) { e.Notes = append(e.Notes, line) }) {
			return 0
		}
	}
	for _, line := range ro.errLines {
		if !attribute(line, func(e *cacheEntry) { e.Errors = append(e.Errors, line) }) {
			return 0
		}
	}
	for _, line := range ro.budget {
		if !attribute(line, func(e *cacheEntry) { e.Budget = append(e.Budget, line) }) {
			return 0
		}
	}
	for path, note := range ro.degraded {
		if !attribute(path+": ", func(e *cacheEntry) {
			if e.Degraded == nil {
				e.Degraded = map[string]string{}
			}
			e.Degraded[path] = note
		}) {
			return 0
		}
	}
	n := 0
	for _, g := range groups {
		if !g.Cacheable || !g.Resolved {
			continue
		}
		data, err := json.Marshal(entries[g])
		if err == nil && c.Put("r", g.Key, data) == nil {
			n++
			c.Put("s", plan.SeenKey(g), []byte{1})
		}
	}
	c.MaybeTrim()
	return n
}

// linePackage is the package path a note or an error line starts with:
// "PATH: ..." or "PATH [VARIANT]: ...".
func linePackage(line string) string {
	head, _, _ := strings.Cut(line, ": ")
	head, _, _ = strings.Cut(head, " [")
	return head
}

// lspCache gives the language server the result cache, when it opens; a
// cache that does not open leaves the server without one.
func (p *program) lspCache(opts *lsp.Options) {
	dir, err := resultcache.Dir()
	if err != nil {
		return
	}
	c, err := resultcache.Open(dir, resultcache.Limit())
	if err != nil {
		return
	}
	id, err := p.cacheIdentity(c)
	if err != nil {
		return
	}
	opts.Cache, opts.CacheIdentity = c, id
	if name := os.Getenv("HIPLINT_CACHE_STATS"); name != "" {
		var mu sync.Mutex
		opts.CacheStats = func(dir string, hit bool, replayed []string) {
			mu.Lock()
			defer mu.Unlock()
			s := cacheStats{Analyzed: []string{dir}, Replayed: replayed}
			if hit {
				s = cacheStats{Hits: []string{dir}}
			}
			data, _ := json.Marshal(s)
			if f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Write(append(data, '\n'))
				f.Close()
			}
		}
	}
}
