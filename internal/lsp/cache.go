package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/resultcache"
)

// The language server's use of the result cache (docs/cache.md): a
// directory's result is kept under the keys driver.PlanCache gives its
// packages, with the buffers the editor has unsaved as their contents, so
// a directory whose files, dependencies, headers and settings are as they
// were is published from the cache without loading or type-checking it:
// after the server restarts, or when a save elsewhere made it re-analyze a
// directory that does not depend on what changed.

// cachedDir is what the cache keeps of one directory's analysis.
type cachedDir struct {
	Findings    map[string][]cachedFinding
	Problems    []string       `json:",omitempty"`
	HeadersUsed []string       `json:",omitempty"`
	Withheld    map[string]int `json:",omitempty"`
}

type cachedFinding struct {
	Diag  diagnostic
	Fixes []cachedFix `json:",omitempty"`
}

type cachedFix struct {
	Title string
	Edits map[string][]textEdit
}

// analyzeDirCached is analyzeDir through the result cache, when the server
// has one.
//
// With lookup false the directory's entry is not read: the directory is
// loaded (its dependencies' facts still from the cache), for the graph
// that its edits are analyzed from (session.go).
func (s *Server) analyzeDirCached(ctx context.Context, dir string, overlay map[string][]byte, lookup bool) *pkgResult {
	if s.opts.Cache == nil {
		return s.analyzeDir(ctx, dir, overlay)
	}
	plan, err := driver.PlanCache(s.driverConfig(ctx, dir, overlay), s.opts.Cache, s.opts.CacheIdentity, ".")
	if err != nil || plan.Uncacheable != "" || ctx.Err() != nil {
		return s.analyzeDir(ctx, dir, overlay)
	}
	key, cacheable := s.dirKey(plan)
	if cacheable && lookup {
		if data, ok := s.opts.Cache.Get("l", key); ok {
			var c cachedDir
			if json.Unmarshal(data, &c) == nil {
				s.cacheStats(dir, true, nil)
				res := restoreDir(dir, plan, overlay, &c)
				res.fromCache = true
				return res
			}
		}
	}
	// The dependencies whose facts the cache holds are loaded from export
	// data, their facts replayed (docs/cache.md, "Facts").
	res := s.analyzeDirFacts(ctx, dir, overlay, plan.CachedFacts())
	s.cacheStats(dir, false, res.replayed)
	if !res.noCache && ctx.Err() == nil && plan.Unchanged() {
		plan.Store(s.opts.Cache, plan.Groups, res.facts)
		if key, cacheable := s.dirKey(plan); cacheable {
			if data, err := json.Marshal(storeDir(res)); err == nil {
				s.opts.Cache.Put("l", key, data)
			}
		}
		s.opts.Cache.MaybeTrim()
	}
	return res
}

// dirKey is the key of a directory's entry: its groups' keys. cacheable
// is false when one is not known or an input could not be read.
func (s *Server) dirKey(plan *driver.CachePlan) (resultcache.Key, bool) {
	h := sha256.New()
	fmt.Fprintf(h, "lsp v1 maxfix %d\n", s.maxFixFileSize())
	cacheable := true
	for _, g := range plan.Groups {
		fmt.Fprintf(h, "%q %x\n", g.Path, g.Key)
		cacheable = cacheable && g.Cacheable && g.Resolved
	}
	var key resultcache.Key
	h.Sum(key[:0])
	return key, cacheable
}

func (s *Server) cacheStats(dir string, hit bool, replayed []string) {
	if s.opts.CacheStats != nil {
		s.opts.CacheStats(dir, hit, replayed)
	}
}

// storeDir is what the cache keeps of res.
func storeDir(res *pkgResult) *cachedDir {
	c := &cachedDir{
		Findings:    map[string][]cachedFinding{},
		Problems:    res.problems,
		HeadersUsed: res.headersUsed,
		Withheld:    res.withheld,
	}
	for file, list := range res.findings {
		for _, f := range list {
			cf := cachedFinding{Diag: f.diag}
			for _, q := range f.fixes {
				cf.Fixes = append(cf.Fixes, cachedFix{Title: q.title, Edits: q.edits})
			}
			c.Findings[file] = append(c.Findings[file], cf)
		}
	}
	return c
}

// restoreDir is the result c keeps, for the packages plan lists: what
// analyzeDir would return, its files' modification times taken now.
func restoreDir(dir string, plan *driver.CachePlan, overlay map[string][]byte, c *cachedDir) *pkgResult {
	res := newResult(dir)
	res.withheld, res.problems, res.headersUsed = c.Withheld, c.Problems, c.HeadersUsed
	if res.withheld == nil {
		res.withheld = map[string]int{}
	}
	for _, g := range plan.Groups {
		for _, path := range g.PkgPaths {
			res.pkgPaths[path] = true
		}
		for _, f := range g.GoFiles {
			if info, err := os.Stat(f); err == nil {
				res.modTimes[f] = info.ModTime()
			}
			if text, ok := overlay[f]; ok {
				res.overlaid[f] = sha256.Sum256(text)
			}
		}
	}
	for _, g := range plan.Groups {
		for path := range g.Closure {
			if !res.pkgPaths[path] {
				res.deps[path] = true
			}
		}
	}
	for file, list := range c.Findings {
		for _, cf := range list {
			f := &finding{diag: cf.Diag}
			for _, q := range cf.Fixes {
				f.fixes = append(f.fixes, quickFix{title: q.Title, edits: q.Edits})
			}
			res.findings[file] = append(res.findings[file], f)
		}
	}
	return res
}
