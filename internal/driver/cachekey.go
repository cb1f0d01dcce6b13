package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/resultcache"
	"github.com/hiplint/hiplint/internal/synth"
	"golang.org/x/tools/go/packages"
)

// The result cache's keys (docs/cache.md). PlanCache lists the packages the
// patterns name, without type-checking anything or running cgo (go list
// without -compiled), and gives each initial package path a key in the way
// go vet keys its runs: the package's own inputs (the contents of its files,
// the C headers its cgo preambles include, its module, the hiplint.toml
// files above it), the keys of its dependencies, transitively, and what the
// whole run shares (hiplint's build, the build configuration as go env
// reports it, the analyzers, their flags and the front end's settings).
// What an analysis of a group prints depends on nothing else, so two runs
// with one key print the same for it.

// A CachePlan is the result cache's view of one run.
type CachePlan struct {
	// Groups are the initial packages by the path that loads them: a
	// package with its test variant, its external test package and its
	// test main.
	Groups []*CacheGroup
	// HeadersUsed are the Config.MissingHeaders that some package's cgo
	// preamble includes (Result.HeadersUsed, read without loading).
	HeadersUsed []string
	// ModuleDir is the main module's directory, as the first initial
	// package in it says ("": none).
	ModuleDir string
	// Uncacheable, when not "", says why the run cannot use the cache at
	// all (a package that does not list, a file named on the command
	// line): the caller runs without it.
	Uncacheable string

	// stats are the files hashed from disk, as they were before.
	stats map[string]fileStat

	k     *keyer
	roots []*packages.Package
	// ifaces are, by package, what an importer's key hashes of it, as the
	// last Resolve found them (unknown: absent); facts the cached facts
	// that a run may replay, by package ID.
	ifaces map[*packages.Package][32]byte
	facts  map[string]*PackageFacts
}

type fileStat struct {
	size int64
	mod  int64
}

// Unchanged reports whether every file the keys read from disk still has
// the size and modification time it had before it was read: a file edited
// while the analysis ran may have been analyzed with other contents than
// the key's, and the caller stores no entry then.
func (p *CachePlan) Unchanged() bool {
	for name, st := range p.stats {
		fi, err := os.Stat(name)
		if st.mod == 0 && err != nil {
			continue // missing then, missing now
		}
		if err != nil || fi.Size() != st.size || fi.ModTime().UnixNano() != st.mod {
			return false
		}
	}
	return true
}

// A CacheGroup is the initial packages of one path.
type CacheGroup struct {
	// Path is the package path that loads them, as a pattern.
	Path string
	// Key is the group's key; Cacheable is false when one of its inputs
	// could not be read (a C header scan that failed): never served
	// from the cache, never stored.
	Key       resultcache.Key
	Cacheable bool
	// Closure holds the package paths of the group's packages and of
	// all their dependencies: the lines of a run (notes, error lines)
	// about one of them belong to the group's output.
	Closure map[string]bool
	// PkgPaths are the package paths of the group's own packages, and
	// GoFiles their Go files.
	PkgPaths []string
	GoFiles  []string
	// Resolved is false when the key depends on a dependency that has
	// not been analyzed with these inputs yet (its facts are not in the
	// cache): the group must be analyzed, and its key is known after
	// (CachePlan.Store).
	Resolved bool

	members []*packages.Package
}

// planMode is the metadata go list gives without compiling anything.
const planMode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps |
	packages.NeedModule | packages.NeedEmbedFiles

// PlanCache keys the packages that patterns name under cfg. identity is
// what the caller adds to every key: hiplint's build and the front end's
// settings that change its output. cache holds the manifests of the C
// header scans.
func PlanCache(cfg Config, cache *resultcache.Cache, identity []byte, patterns ...string) (*CachePlan, error) {
	return planCache(cfg, cache, identity, false, patterns...)
}

func planCache(cfg Config, cache *resultcache.Cache, identity []byte, deferKeys bool, patterns ...string) (*CachePlan, error) {
	for _, p := range patterns {
		if strings.HasSuffix(p, ".go") {
			return &CachePlan{Uncacheable: "files named on the command line"}, nil
		}
	}
	// go env and go list, at once.
	var env map[string]string
	envDone := make(chan error, 1)
	go func() {
		var err error
		env, err = goEnv(&cfg)
		envDone <- err
	}()
	lc := loadConfig(&cfg, planMode)
	pkgs, err := packages.Load(lc, patterns...)
	if envErr := <-envDone; envErr != nil {
		return nil, envErr
	}
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return &CachePlan{Uncacheable: "no packages"}, nil
	}
	k := &keyer{
		cfg:      &cfg,
		env:      env,
		cache:    cache,
		files:    map[string][32]byte{},
		tomls:    map[string][]byte{},
		keys:     map[*packages.Package]pkgKey{},
		stats:    map[string]fileStat{},
		headers:  map[string][32]byte{},
		manifest: map[string]headerScan{},
	}
	k.global = k.globalKey(identity)
	plan := &CachePlan{stats: k.stats}
	uncacheable := ""
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 && uncacheable == "" {
			uncacheable = "package " + p.ID + " does not list"
		}
	})
	if uncacheable != "" {
		return &CachePlan{Uncacheable: uncacheable}, nil
	}
	byPath := map[string]*CacheGroup{}
	members := map[string][]*packages.Package{}
	for _, p := range pkgs {
		base := groupPath(p)
		if base == "command-line-arguments" {
			return &CachePlan{Uncacheable: "a package outside any module path"}, nil
		}
		if byPath[base] == nil {
			g := &CacheGroup{Path: base, Closure: map[string]bool{}}
			byPath[base] = g
			plan.Groups = append(plan.Groups, g)
		}
		members[base] = append(members[base], p)
		if plan.ModuleDir == "" && p.Module != nil && p.Module.Main {
			plan.ModuleDir = p.Module.Dir
		}
	}
	for _, g := range plan.Groups {
		ps := members[g.Path]
		slices.SortFunc(ps, func(a, b *packages.Package) int { return strings.Compare(a.ID, b.ID) })
		g.members = ps
		for _, p := range ps {
			if !slices.Contains(g.PkgPaths, p.PkgPath) {
				g.PkgPaths = append(g.PkgPaths, p.PkgPath)
			}
			for _, f := range p.GoFiles {
				if !slices.Contains(g.GoFiles, f) {
					g.GoFiles = append(g.GoFiles, f)
				}
			}
		}
		packages.Visit(ps, nil, func(p *packages.Package) { g.Closure[p.PkgPath] = true })
	}
	plan.k, plan.roots = k, pkgs
	if !deferKeys {
		plan.Key()
	}
	return plan, nil
}

// ListCache is PlanCache without the keys: the groups, ready for SeenKey,
// whose keys Key computes. A caller that finds no group seen (a cold
// cache, where no lookup can hit) computes them while it analyzes, after
// Prestat.
func ListCache(cfg Config, cache *resultcache.Cache, identity []byte, patterns ...string) (*CachePlan, error) {
	return planCache(cfg, cache, identity, true, patterns...)
}

// Key computes the groups' keys: the C header scans that no manifest
// answers (at once, prefetchScans), then Resolve.
func (p *CachePlan) Key() {
	p.k.prefetchScans(p.roots)
	p.Resolve(nil)
	p.HeadersUsed = p.k.headersUsed()
}

// Prestat records the size and modification time of every file the keys
// will read of the plan's packages (their Go, other and embedded files,
// and the hiplint.toml files above them) and reads those configuration
// files now. Key run after, while the analysis reads the same files, then
// keys what Unchanged checks against the state before the analysis
// started: a file edited in between fails Unchanged, and nothing is
// stored.
func (p *CachePlan) Prestat() {
	k := p.k
	packages.Visit(p.roots, nil, func(q *packages.Package) {
		if m := q.Module; m != nil && m.GoMod != "" && !k.immutable(m.GoMod) {
			k.stat(m.GoMod)
		}
		for _, list := range [][]string{q.GoFiles, q.OtherFiles, q.EmbedFiles} {
			for _, f := range list {
				if !k.immutable(f) {
					k.stat(f)
				}
			}
		}
		if len(q.GoFiles) > 0 && !k.immutable(q.GoFiles[0]) {
			k.configChain(filepath.Dir(q.GoFiles[0]))
		}
	})
}

// groupPath is the path of the package p is a variant of: "p" for "p",
// "p [p.test]", "p_test [p.test]" and the test main "p.test".
func groupPath(p *packages.Package) string {
	if i := strings.Index(p.ID, " ["); i >= 0 && strings.HasSuffix(p.ID, "]") {
		return strings.TrimSuffix(p.ID[i+2:len(p.ID)-1], ".test")
	}
	if p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") {
		return strings.TrimSuffix(p.PkgPath, ".test")
	}
	return p.PkgPath
}

// GroupPath is groupPath for the caller's packages: the CacheGroup.Path
// of an initial package.
func GroupPath(p *packages.Package) string { return groupPath(p) }

// goEnvVars are the go command's settings that change what is loaded or
// how cgo and the type checker see it. GOGCCFLAGS is left out: it holds a
// temporary directory.
var goEnvVars = []string{
	"GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOAMD64", "GOARM", "GOARM64", "GO386", "GOMIPS", "GOMIPS64",
	"GOPPC64", "GORISCV64", "GOWASM", "GOEXPERIMENT", "GOFLAGS", "GO111MODULE", "GOWORK", "GOMOD",
	"GOPATH", "GOMODCACHE", "GOPROXY", "GONOSUMDB", "GOINSECURE", "GOPRIVATE", "GOTOOLCHAIN",
	"CGO_ENABLED", "CC", "CXX", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "PKG_CONFIG", "AR",
}

// ccEnvVars are the environment variables that change where the C compiler
// (GCC, Clang) and pkg-config find headers, which go env does not report.
var ccEnvVars = []string{
	"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "GCC_EXEC_PREFIX",
	"COMPILER_PATH", "SDKROOT", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR",
}

// compiler returns the C compiler's command line (CC, gcc when unset), its
// program found as the go command finds it: a name without a slash in the
// run's PATH.
func (k *keyer) compiler() []string {
	cc := splitQuoted(k.env["CC"])
	if len(cc) == 0 {
		cc = []string{"gcc"}
	}
	if k.ccPath == "" {
		k.ccPath = cc[0]
		if !strings.Contains(cc[0], "/") {
			path := ""
			for _, kv := range LocalToolchain(k.cfg.Env) {
				if v, ok := strings.CutPrefix(kv, "PATH="); ok {
					path = v // the last one wins, as in the go command
				}
			}
			for d := range strings.SplitSeq(path, string(filepath.ListSeparator)) {
				if d == "" || !filepath.IsAbs(d) {
					continue
				}
				if fi, err := os.Stat(filepath.Join(d, cc[0])); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
					k.ccPath = filepath.Join(d, cc[0])
					break
				}
			}
		}
	}
	return append([]string{k.ccPath}, cc[1:]...)
}

// scanEnv is what decides where the C compiler finds headers besides its
// arguments: the compiler cgo and the header scan run (CC names it, the
// run's PATH finds it, and another compiler, an upgrade or another PATH,
// has other system include directories) and the environment variables it
// and pkg-config read. Every key and every header manifest hashes it.
func (k *keyer) scanEnv() string {
	if k.scanEnvID == "" {
		var b strings.Builder
		fmt.Fprintf(&b, "compiler %s\n", k.compilerID())
		for _, kv := range LocalToolchain(k.cfg.Env) {
			if name, _, _ := strings.Cut(kv, "="); slices.Contains(ccEnvVars, name) {
				fmt.Fprintf(&b, "ccenv %q\n", kv)
			}
		}
		k.scanEnvID = b.String()
	}
	return k.scanEnvID
}

// compilerID identifies the C compiler's program by its path, size and
// modification time (after symbolic links: /usr/bin/cc is a link).
func (k *keyer) compilerID() string {
	cc := k.compiler()[0]
	real, err := filepath.EvalSymlinks(cc)
	if err != nil {
		return fmt.Sprintf("%q missing", cc)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return fmt.Sprintf("%q missing", cc)
	}
	return fmt.Sprintf("%q %q %d %d", cc, real, fi.Size(), fi.ModTime().UnixNano())
}

// goEnv runs go env for cfg.
func goEnv(cfg *Config) (map[string]string, error) {
	// GOCACHE too, not keyed (globalKey hashes goEnvVars): where the go
	// command writes the files it generates (SettledBefore).
	cmd := exec.Command("go", append([]string{"env", "-json", "GOCACHE"}, goEnvVars...)...)
	cmd.Dir = cfg.Dir
	cmd.Env = LocalToolchain(cfg.Env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	env := map[string]string{}
	if err := json.Unmarshal(out, &env); err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	return env, nil
}

// A keyer computes the keys of one run's packages.
type keyer struct {
	cfg    *Config
	env    map[string]string
	cache  *resultcache.Cache
	global [32]byte

	files     map[string][32]byte // contents of the files read, by name
	stats     map[string]fileStat // the files read from disk, before reading
	tomls     map[string][]byte   // the hiplint.toml chain of a directory, hashed
	keys      map[*packages.Package]pkgKey
	headers   map[string][32]byte        // C headers' contents, by path; zero: missing
	manifest  map[string]headerScan      // header scans by their inputs
	gpuHdrs   map[string]bool            // Config.MissingHeaders included by some preamble
	dirs      map[string]map[string]bool // a package directory's entries (nil: unreadable)
	ccPath    string                     // the C compiler's program (compiler)
	scanEnvID string                     // scanEnv, once
	// tree is the state of a directory's files before the analysis
	// (PrestatFrom), late the files stat'ed after it started.
	tree *TreeStat
	late map[string]bool
	// cgo and requests are cgoFiles and scanRequest by package, once
	// each: prefetchScans and own both ask, and each reads the files.
	cgo      map[*packages.Package][]string
	requests map[*packages.Package]scanRequest
	// The resolver's (cincludes.go): its scans by request, the headers
	// it read, the names it looked up, the compiler's defaults.
	resolved map[string]headerScan
	texts    map[string]headerText
	lookups  map[string]bool
	defaults *ccDefaults
}

type pkgKey struct {
	sum [32]byte
	ok  bool
}

// globalKey hashes what every package of the run shares.
func (k *keyer) globalKey(identity []byte) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "hiplint result cache v1\n")
	h.Write(identity)
	for _, v := range goEnvVars {
		fmt.Fprintf(h, "env %s=%q\n", v, k.env[v])
	}
	// hiplint's own switches in the environment, the cache's own aside.
	for _, kv := range LocalToolchain(k.cfg.Env) {
		if strings.HasPrefix(kv, "HIPLINT_") && !strings.HasPrefix(kv, "HIPLINT_CACHE") {
			fmt.Fprintf(h, "hipenv %q\n", kv)
		}
	}
	h.Write([]byte(k.scanEnv()))
	c := k.cfg
	fmt.Fprintf(h, "tags %q tests %v notier3 %v forcetier3 %v directives %v keep %v\n",
		c.Tags, c.Tests, c.NoTier3, c.ForceTier3, c.Directives, c.KeepSuppressed)
	fmt.Fprintf(h, "missing %q\n", c.MissingHeaders)
	for _, a := range c.Analyzers {
		fmt.Fprintf(h, "analyzer %s\n", a.Name)
		a.Flags.VisitAll(func(f *flag.Flag) { fmt.Fprintf(h, "  flag %s=%q\n", f.Name, f.Value.String()) })
	}
	for _, ch := range c.Checks {
		fmt.Fprintf(h, "check %s %s %v\n", ch.ID, ch.Analyzer, ch.Severity)
	}
	if o := c.Override; o != nil {
		fmt.Fprintf(h, "override checks %q\n", o.Checks)
		keys := make([]string, 0, len(o.Flags))
		for name := range o.Flags {
			keys = append(keys, name)
		}
		slices.Sort(keys)
		for _, name := range keys {
			fmt.Fprintf(h, "override flag %s=%q\n", name, o.Flags[name])
		}
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// own hashes p's own inputs: everything of its key but its imports.
func (k *keyer) own(p *packages.Package) pkgKey {
	if pk, ok := k.keys[p]; ok {
		return pk
	}
	h := sha256.New()
	ok := true
	fmt.Fprintf(h, "package %q %q %q\n", p.ID, p.PkgPath, p.Name)
	if m := p.Module; m != nil {
		fmt.Fprintf(h, "module %q %q %q %q main=%v\n", m.Path, m.Version, m.Dir, m.GoVersion, m.Main)
		if m.Replace != nil {
			fmt.Fprintf(h, "replace %q %q %q\n", m.Replace.Path, m.Replace.Version, m.Replace.Dir)
		}
		if m.GoMod != "" && !k.immutable(m.GoMod) {
			fmt.Fprintf(h, "go.mod %x\n", k.file(m.GoMod))
		}
	}
	own := false // a file outside GOROOT and the module cache
	for _, list := range [][]string{p.GoFiles, p.OtherFiles, p.EmbedFiles} {
		for _, f := range list {
			if k.immutable(f) {
				fmt.Fprintf(h, "file %q\n", f)
				continue
			}
			own = true
			fmt.Fprintf(h, "file %q %x\n", f, k.file(f))
		}
	}
	cgoFiles := k.cgoFiles(p)
	if own && len(p.GoFiles) > 0 {
		fmt.Fprintf(h, "config %x\n", k.configChain(filepath.Dir(p.GoFiles[0])))
	}
	if len(cgoFiles) > 0 {
		sum, scanned := k.cHeaders(p, cgoFiles)
		fmt.Fprintf(h, "cheaders %x\n", sum)
		ok = ok && scanned
	}
	var pk pkgKey
	h.Sum(pk.sum[:0])
	pk.ok = ok
	k.keys[p] = pk
	return pk
}

// standard reports whether p is a package of the standard library: its
// files are in GOROOT (or it has none, as unsafe).
func (k *keyer) standard(p *packages.Package) bool {
	return p.Module == nil && !slices.ContainsFunc(p.GoFiles, func(f string) bool { return !k.inGOROOT(f) })
}

// A factEntry is what the cache keeps under a package's key (kind "f"):
// what its importers' keys hash of it (Iface) and, when Facts is not nil,
// its facts, which a run replays instead of analyzing the package. An
// entry without facts (a package with an error, at tier 3, or loaded from
// export data as one that has none) makes its importers hash the
// package's key itself.
type factEntry struct {
	Iface [32]byte
	Facts *PackageFacts `json:",omitempty"`
}

// Resolve computes the groups' keys with the facts the cache holds now
// (c: the cache; nil: the plan's own, when PlanCache was given one). A
// package's key hashes its own inputs (keyer.own) and, for each import,
// what the import's entry of kind "f" says an importer sees of it: the
// hash of its exported API and its facts, not its key, so that an edit
// which leaves both unchanged does not change its importers' keys (early
// cutoff). The standard library's packages are hashed by their keys (they
// have no facts), and so are test variants. An import without an entry leaves the key unknown: the
// group is not Resolved. Without a cache, every import is hashed by its
// key, transitively.
func (p *CachePlan) Resolve(c *resultcache.Cache) {
	if c == nil {
		c = p.k.cache
	}
	k := p.k
	p.ifaces = map[*packages.Package][32]byte{}
	p.facts = map[string]*PackageFacts{}
	known := map[*packages.Package]pkgKey{}
	packages.Visit(p.roots, nil, func(q *packages.Package) { // imports first
		pk, ok := p.ownKey(q, known)
		if !ok {
			return
		}
		known[q] = pk
		if c == nil || k.standard(q) || q.ID != q.PkgPath {
			// A test variant is imported only within its group, and
			// never replayed: hashed by its key.
			p.ifaces[q] = pk.sum
			return
		}
		if !pk.ok {
			return
		}
		if data, ok := c.Get("f", pk.sum); ok {
			var e factEntry
			if json.Unmarshal(data, &e) == nil {
				p.ifaces[q] = e.Iface
				if e.Facts != nil {
					p.facts[q.ID] = e.Facts
				}
			}
		}
	})
	for _, g := range p.Groups {
		h := sha256.New()
		h.Write(k.global[:])
		fmt.Fprintf(h, "group %q\n", g.Path)
		g.Cacheable, g.Resolved = true, true
		for _, q := range g.members {
			pk, ok := known[q]
			if !ok {
				g.Resolved = false
				pk = k.own(q)
			}
			fmt.Fprintf(h, "%q %x\n", q.ID, pk.sum)
			g.Cacheable = g.Cacheable && pk.ok
		}
		h.Sum(g.Key[:0])
	}
}

// ownKey is q's key, when every import's iface is known: its own inputs
// and its imports' ifaces. ok reports whether the key is known; pk.ok,
// whether every input could be read.
func (p *CachePlan) ownKey(q *packages.Package, known map[*packages.Package]pkgKey) (pkgKey, bool) {
	own := p.k.own(q)
	h := sha256.New()
	h.Write(p.k.global[:])
	fmt.Fprintf(h, "own %x\n", own.sum)
	ok := own.ok
	paths := make([]string, 0, len(q.Imports))
	for path := range q.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		imp := q.Imports[path]
		iface, found := p.ifaces[imp]
		if !found {
			return pkgKey{}, false
		}
		fmt.Fprintf(h, "import %q %x\n", path, iface)
		ok = ok && known[imp].ok
	}
	var pk pkgKey
	h.Sum(pk.sum[:0])
	pk.ok = ok
	return pk, true
}

// SeenKey is where the cache marks that g had an entry stored with this
// run's settings, under any key (kind "s"): a group that has one was
// analyzed before, and may still hit once its dependencies are analyzed
// (the two runs of an early cutoff are worth it).
func (p *CachePlan) SeenKey(g *CacheGroup) resultcache.Key {
	h := sha256.New()
	h.Write(p.k.global[:])
	fmt.Fprintf(h, "seen %q\n", g.Path)
	var k resultcache.Key
	h.Sum(k[:0])
	return k
}

// CachedFacts are the facts the last Resolve found, for Config.CachedFacts.
func (p *CachePlan) CachedFacts() map[string]*PackageFacts { return p.facts }

// Store records in c what a run that analyzed the packages of groups
// learned (res: its Facts and Replayed), then resolves the keys again: a
// group of groups is Resolved after unless an input of it could not be
// read. Every package the run loaded and the cache has no entry for gets
// one: its facts where the run exported them, else an entry that makes
// its importers hash its key.
func (p *CachePlan) Store(c *resultcache.Cache, groups []*CacheGroup, res map[string]*PackageFacts) {
	var members []*packages.Package
	for _, g := range groups {
		members = append(members, g.members...)
	}
	loaded := map[*packages.Package]bool{}
	packages.Visit(members, nil, func(q *packages.Package) { loaded[q] = true })
	k := p.k
	known := map[*packages.Package]pkgKey{}
	p.ifaces = map[*packages.Package][32]byte{}
	packages.Visit(p.roots, nil, func(q *packages.Package) {
		pk, ok := p.ownKey(q, known)
		if !ok {
			return
		}
		known[q] = pk
		if k.standard(q) || q.ID != q.PkgPath {
			p.ifaces[q] = pk.sum
			return
		}
		if !pk.ok {
			return
		}
		if data, ok := c.Get("f", pk.sum); ok {
			var e factEntry
			if json.Unmarshal(data, &e) == nil {
				p.ifaces[q] = e.Iface
				return
			}
		}
		if !loaded[q] {
			return
		}
		e := factEntry{Iface: pk.sum}
		if pf := res[q.ID]; pf != nil {
			e = factEntry{Iface: pf.Iface(), Facts: pf}
		}
		data, err := json.Marshal(e)
		if err == nil && c.Put("f", pk.sum, data) == nil {
			p.ifaces[q] = e.Iface
		}
	})
	p.Resolve(c)
}

// immutable reports whether the go command guarantees that file does not
// change while its name does not: GOROOT (the Go version is in the key)
// and the module cache (the module's version is).
func (k *keyer) immutable(file string) bool {
	return k.inGOROOT(file) || within(k.env["GOMODCACHE"], file)
}

func (k *keyer) inGOROOT(file string) bool { return within(k.env["GOROOT"], file) }

func within(dir, file string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// contents returns the text of file the go command sees: the overlay's,
// else the disk's (nil when unreadable).
func (k *keyer) contents(file string) []byte {
	if data, ok := k.cfg.Overlay[file]; ok {
		return data
	}
	k.stat(file)
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	return data
}

// stat records file's size and modification time before its first read,
// for Unchanged.
func (k *keyer) stat(file string) {
	if _, ok := k.stats[file]; ok {
		return
	}
	if t := k.tree; t != nil && within(t.root, file) {
		k.stats[file] = t.stats[file] // absent: missing then
		return
	}
	var st fileStat
	if fi, err := os.Stat(file); err == nil {
		st = fileStat{fi.Size(), fi.ModTime().UnixNano()}
	}
	k.stats[file] = st
	if k.tree != nil {
		k.late[file] = true
	}
}

// A TreeStat is the size and modification time of every file under a
// directory, taken before a run reads any of them (StatTree).
type TreeStat struct {
	root  string
	stats map[string]fileStat
}

// StatTree stats every regular file under root (.git left out), or returns
// nil past max entries.
func StatTree(root string, max int) *TreeStat {
	t := &TreeStat{root: filepath.Clean(root), stats: map[string]fileStat{}}
	n := 0
	err := filepath.WalkDir(t.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > max {
			return fs.SkipAll
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		fi, err := os.Stat(path) // a link's target, as the keys read it
		if err == nil && fi.Mode().IsRegular() {
			t.stats[path] = fileStat{fi.Size(), fi.ModTime().UnixNano()}
		}
		return nil
	})
	if err != nil || n > max {
		return nil
	}
	return t
}

// PrestatFrom is Prestat with the state of the files under tree's root
// taken from tree, which was taken before the analysis started; the
// other files are stat'ed now, late (SettledBefore).
func (p *CachePlan) PrestatFrom(tree *TreeStat) {
	p.k.tree, p.k.late = tree, map[string]bool{}
	p.Prestat()
}

// file returns the hash of file's contents ("missing" hashes apart).
func (k *keyer) file(file string) [32]byte {
	if sum, ok := k.files[file]; ok {
		return sum
	}
	data := k.contents(file)
	sum := sha256.Sum256(data)
	if data == nil {
		sum = sha256.Sum256([]byte("\x00missing"))
	}
	k.files[file] = sum
	return sum
}

// importsC reports whether the Go file imports "C".
func (k *keyer) importsC(file string) bool {
	data := k.contents(file)
	return bytes.Contains(data, []byte(`"C"`)) && len(synth.Preambles(data)) > 0
}

// configChain hashes the hiplint.toml files that apply in dir (internal/config
// reads every one from dir up to the root).
func (k *keyer) configChain(dir string) []byte {
	if sum, ok := k.tomls[dir]; ok {
		return sum
	}
	h := sha256.New()
	name := filepath.Join(dir, config.FileName)
	if fi, err := os.Stat(name); err == nil && !fi.IsDir() {
		fmt.Fprintf(h, "%q %x\n", name, k.file(name))
	}
	if parent := filepath.Dir(dir); parent != dir {
		h.Write(k.configChain(parent))
	}
	sum := h.Sum(nil)
	k.tomls[dir] = sum
	return sum
}

// headersUsed returns the Config.MissingHeaders that the cgo preambles of
// the packages keyed include, as includedHeaders does on loaded packages.
func (k *keyer) headersUsed() []string {
	var out []string
	for _, n := range k.cfg.MissingHeaders {
		if k.gpuHdrs[n] {
			out = append(out, n)
		}
	}
	return out
}

// A headerScan is the headers one preamble includes, with their contents'
// hashes.
type headerScan struct {
	sum  [32]byte
	ok   bool
	deps []string // the headers, as the manifest names them
}

// cHeaders hashes the contents of every C header that the cgo preambles of
// p's files include, directly or not, as the C compiler finds them with the
// package's flags (`cc -M -MG`): the go command's build cache does not key
// cgo's output on them, so an edited system header must change the key.
// The list of headers of a preamble is kept in the cache (a manifest) and
// used again while every header in it keeps its contents, as ccache's
// direct mode does; a preamble that includes a header the compiler does
// not find is scanned on every run. ok is false when the compiler could
// not be run.
func (k *keyer) cHeaders(p *packages.Package, files []string) ([32]byte, bool) {
	req := k.scanRequest(p, files)
	if s, ok := k.ownScan(req); ok {
		return s.sum, true
	}
	if req.dirFree {
		s := k.cachedScan(req.cc, req.args(false), "", req.preamble)
		if !s.ok || !k.shadowed(req.dir, s.deps) {
			return s.sum, s.ok
		}
	}
	s := k.cachedScan(req.cc, req.args(true), req.dir, req.preamble)
	return s.sum, s.ok
}

// A scanRequest is what cHeaders asks the C compiler about one package:
// its preambles (their #cgo lines taken out) compiled with the package's
// flags.
type scanRequest struct {
	cc       string
	flags    []string // the compiler's own arguments, CGO_CPPFLAGS, CGO_CFLAGS, #cgo CFLAGS
	dir      string
	preamble string
	// dirFree: the package's directory cannot change what is found
	// (dirMatters), so a scan without it may do.
	dirFree bool
}

// args is the dependency listing's command line, with the package's
// directory searched first or not.
func (r scanRequest) args(withDir bool) []string {
	args := slices.Clip(r.flags)
	if withDir {
		args = append(args, "-I", r.dir)
	}
	return append(args, "-M", "-MG", "-x", "c", "-")
}

// scanRequest gathers the preambles of p's cgo files and their flags.
func (k *keyer) scanRequest(p *packages.Package, files []string) scanRequest {
	if r, ok := k.requests[p]; ok {
		return r
	}
	r := k.newScanRequest(p, files)
	if k.requests == nil {
		k.requests = map[*packages.Package]scanRequest{}
	}
	k.requests[p] = r
	return r
}

func (k *keyer) newScanRequest(p *packages.Package, files []string) scanRequest {
	var text strings.Builder
	var flags []string
	dir := filepath.Dir(files[0])
	for _, f := range files {
		data := k.contents(f)
		for _, pre := range synth.Preambles(data) {
			body, fl := k.cgoDirectives(pre, dir)
			flags = append(flags, fl...)
			text.WriteString(body)
			text.WriteString("\n")
			for _, n := range k.cfg.MissingHeaders {
				if strings.Contains(pre, "<"+n+">") {
					if k.gpuHdrs == nil {
						k.gpuHdrs = map[string]bool{}
					}
					k.gpuHdrs[n] = true
				}
			}
		}
	}
	cc := k.compiler()
	args := append([]string{}, cc[1:]...)
	args = append(args, splitQuoted(k.env["CGO_CPPFLAGS"])...)
	args = append(args, splitQuoted(k.env["CGO_CFLAGS"])...)
	args = append(args, flags...)
	// cgo compiles the preamble with the package's directory searched
	// first (-I dir). When nothing can be found there, the directory
	// changes nothing, and packages with one preamble share one scan:
	// a scan without it is used when the preamble has no quoted or
	// computed include, the package no header file and no relative
	// include directory (dirMatters), and no name the compiler looked
	// up, directly or not, starts with an entry of the directory
	// (shadowed: <sys/x.h> and a subdirectory sys, say).
	return scanRequest{cc: cc[0], flags: args, dir: dir, preamble: text.String(), dirFree: !dirMatters(text.String(), p.OtherFiles, args)}
}

// cgoFiles are the files of p whose cgo preambles cHeaders scans: those
// outside GOROOT that import "C" (the standard library's cgo packages,
// net, os/user, runtime/cgo, call no GPU runtime: their system headers
// change nothing).
func (k *keyer) cgoFiles(p *packages.Package) []string {
	if out, ok := k.cgo[p]; ok {
		return out
	}
	var out []string
	for _, f := range p.GoFiles {
		if !k.inGOROOT(f) && k.importsC(f) {
			out = append(out, f)
		}
	}
	if k.cgo == nil {
		k.cgo = map[*packages.Package][]string{}
	}
	k.cgo[p] = out
	return out
}

// prefetchScans runs, at once, the C compiler's dependency listings that
// keying pkgs and their dependencies will need and that no manifest in the
// cache answers: one process each, at most GOMAXPROCS at a time, where
// cHeaders would run them one after the other. Only the first scan of each
// package is run here; the rare second one (a directory that shadows a
// header) is left to cHeaders. What it learns goes to k.manifest, where
// cachedScan finds it.
func (k *keyer) prefetchScans(pkgs []*packages.Package) {
	type job struct {
		mkey              resultcache.Key
		cc, dir, preamble string
		args              []string
		out               []byte
	}
	var jobs []*job
	queued := map[resultcache.Key]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		files := k.cgoFiles(p)
		if len(files) == 0 {
			return
		}
		req := k.scanRequest(p, files)
		if _, ok := k.ownScan(req); ok {
			return // no compiler run: hiplint's resolver
		}
		j := &job{cc: req.cc, args: req.args(!req.dirFree), preamble: req.preamble}
		if !req.dirFree {
			j.dir = req.dir
		}
		j.mkey = k.manifestKey(j.cc, j.args, j.dir, j.preamble)
		if queued[j.mkey] {
			return
		}
		queued[j.mkey] = true
		if _, ok := k.manifest[string(j.mkey[:])]; ok {
			return
		}
		if s, ok := k.storedManifest(j.mkey); ok {
			k.manifest[string(j.mkey[:])] = s
			return
		}
		jobs = append(jobs, j)
	})
	if len(jobs) < 2 {
		return // nothing to overlap: cachedScan runs it
	}
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			j.out = k.runScan(j.cc, j.args, j.dir, j.preamble)
		}()
	}
	wg.Wait()
	for _, j := range jobs {
		k.manifest[string(j.mkey[:])] = k.finishScan(j.mkey, j.out, j.dir)
	}
}

// cachedScan is scan, once per run for one compiler, arguments, directory
// and preamble. dir is "" for a scan that does not depend on the package's
// directory.
func (k *keyer) cachedScan(cc string, args []string, dir, preamble string) headerScan {
	mkey := k.manifestKey(cc, args, dir, preamble)
	if s, ok := k.manifest[string(mkey[:])]; ok {
		return s
	}
	s := k.scan(mkey, cc, args, dir, preamble)
	k.manifest[string(mkey[:])] = s
	return s
}

// manifestKey is where the cache keeps the manifest of one scan: the
// compiler, its arguments and directory, what decides where it finds
// headers (scanEnv), and the preamble.
func (k *keyer) manifestKey(cc string, args []string, dir, preamble string) resultcache.Key {
	mh := sha256.New()
	fmt.Fprintf(mh, "cc %q %q %q\n", cc, args, dir)
	mh.Write([]byte(k.scanEnv()))
	mh.Write([]byte(preamble))
	var mkey resultcache.Key
	mh.Sum(mkey[:0])
	return mkey
}

// shadowed reports whether a header list may resolve otherwise with dir
// searched first: some component of a header's path names an entry of
// dir. (A header found in dir is dir/N for the name N it was included by;
// without dir, the compiler found N elsewhere, a path ending in N, or
// listed it missing as N: either way N's first component is among the
// list's components.)
func (k *keyer) shadowed(dir string, deps []string) bool {
	entries, ok := k.dirs[dir]
	if !ok {
		entries = map[string]bool{}
		des, err := os.ReadDir(dir)
		if err != nil {
			entries = nil // unreadable: assume the worst
		}
		for _, de := range des {
			entries[de.Name()] = true
		}
		if k.dirs == nil {
			k.dirs = map[string]map[string]bool{}
		}
		k.dirs[dir] = entries
	}
	if entries == nil {
		return true
	}
	for _, d := range deps {
		for c := range strings.SplitSeq(filepath.ToSlash(d), "/") {
			if entries[c] {
				return true
			}
		}
	}
	return false
}

// dirMatters reports whether a preamble's headers may be found in its
// package's directory: a quoted or computed include, a header among the package's
// other files, or an include directory given by a relative path.
func dirMatters(preamble string, other []string, args []string) bool {
	for line := range strings.Lines(preamble) {
		t := strings.TrimSpace(line)
		if strings.Contains(t, "__has_include") {
			return true // a test the directory may answer
		}
		if !strings.HasPrefix(t, "#") {
			continue
		}
		t = strings.TrimSpace(t[1:])
		for _, d := range []string{"include_next", "include", "import"} {
			if rest, ok := strings.CutPrefix(t, d); ok {
				// A quoted or computed include searches the
				// including file's directory.
				if !strings.HasPrefix(strings.TrimSpace(rest), "<") {
					return true
				}
				break
			}
		}
	}
	for _, f := range other {
		switch filepath.Ext(f) {
		case ".h", ".hh", ".hpp", ".hxx", ".inc", ".def":
			return true
		}
	}
	for i, a := range args {
		for _, opt := range []string{"-I", "-iquote", "-isystem", "-idirafter", "-include", "-imacros"} {
			if !strings.HasPrefix(a, opt) {
				continue
			}
			path := strings.TrimPrefix(a, opt)
			if path == "" && i+1 < len(args) {
				path = args[i+1]
			}
			if path != "" && !filepath.IsAbs(path) {
				return true
			}
		}
	}
	return false
}

// scan runs the compiler's dependency listing, or reuses its manifest.
// dir is the directory the compiler runs in, "" for a scan that searches
// no relative directory: a header it lists by a relative name is one it
// did not find.
func (k *keyer) scan(mkey resultcache.Key, cc string, args []string, dir, preamble string) headerScan {
	if s, ok := k.storedManifest(mkey); ok {
		return s
	}
	return k.finishScan(mkey, k.runScan(cc, args, dir, preamble), dir)
}

// storedManifest is the cache's manifest under mkey, when every header it
// lists keeps its contents.
func (k *keyer) storedManifest(mkey resultcache.Key) (headerScan, bool) {
	if k.cache == nil {
		return headerScan{}, false
	}
	data, ok := k.cache.Get("m", mkey)
	if !ok {
		return headerScan{}, false
	}
	return k.checkManifest(data)
}

// runScan runs the compiler's dependency listing and returns what it
// printed. It reads nothing of k but its configuration: prefetchScans runs
// several at once.
func (k *keyer) runScan(cc string, args []string, dir, preamble string) []byte {
	cmd := exec.Command(cc, args...)
	cmd.Dir = dir
	cmd.Env = LocalToolchain(k.cfg.Env)
	cmd.Stdin = strings.NewReader(preamble)
	out, _ := cmd.Output() // an #error still lists the headers
	return out
}

// finishScan hashes the headers a listing names and keeps its manifest
// (under mkey) when the compiler found every one.
func (k *keyer) finishScan(mkey resultcache.Key, out []byte, dir string) headerScan {
	deps, ok := parseMakeDeps(out)
	if !ok {
		return headerScan{}
	}
	var manifest bytes.Buffer
	missing := false
	for i, d := range deps {
		if !filepath.IsAbs(d) && dir != "" {
			d = filepath.Join(dir, d)
			deps[i] = d
		}
		sum, found := [32]byte{}, false
		if filepath.IsAbs(d) {
			sum, found = k.header(d)
		}
		if !found {
			missing = true
			fmt.Fprintf(&manifest, "%s\t-\n", d)
			continue
		}
		fmt.Fprintf(&manifest, "%s\t%x\n", d, sum)
	}
	sum := sha256.Sum256(manifest.Bytes())
	if k.cache != nil && !missing {
		k.cache.Put("m", mkey, manifest.Bytes())
	}
	return headerScan{sum, true, deps}
}

// checkManifest hashes the headers a manifest lists and returns the
// manifest's scan when every one still has the contents recorded.
func (k *keyer) checkManifest(data []byte) (headerScan, bool) {
	var deps []string
	for line := range strings.Lines(string(data)) {
		name, sum, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if !ok || !filepath.IsAbs(name) {
			return headerScan{}, false
		}
		got, found := k.header(name)
		if !found || fmt.Sprintf("%x", got) != sum {
			return headerScan{}, false
		}
		deps = append(deps, name)
	}
	return headerScan{sha256.Sum256(data), true, deps}, true
}

// header returns the hash of a header's contents, once per run.
func (k *keyer) header(name string) ([32]byte, bool) {
	if sum, ok := k.headers[name]; ok {
		return sum, sum != [32]byte{}
	}
	data, err := os.ReadFile(name)
	var sum [32]byte
	if err == nil {
		sum = sha256.Sum256(data)
	}
	k.headers[name] = sum
	return sum, err == nil
}

// parseMakeDeps reads the prerequisites of the one rule `cc -M` prints.
func parseMakeDeps(out []byte) ([]string, bool) {
	s := string(out)
	i := strings.Index(s, ": ")
	if i < 0 {
		if strings.HasSuffix(strings.TrimSpace(s), ":") {
			return nil, true // no headers at all
		}
		return nil, false
	}
	s = s[i+2:]
	var deps []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			deps = append(deps, cur.String())
			cur.Reset()
		}
	}
	for j := 0; j < len(s); j++ {
		c := s[j]
		switch {
		case c == '\\' && j+1 < len(s) && s[j+1] == '\n':
			j++
			flush()
		case c == '\\' && j+1 < len(s) && (s[j+1] == ' ' || s[j+1] == '#'):
			j++
			cur.WriteByte(s[j])
		case c == '$' && j+1 < len(s) && s[j+1] == '$':
			j++
			cur.WriteByte('$')
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return deps, true
}

// cgoDirectives splits a preamble into its C text (the #cgo lines blanked,
// as cgo does) and the CFLAGS and CPPFLAGS of the #cgo lines that apply
// under the run's GOOS, GOARCH and tags, ${SRCDIR} replaced.
func (k *keyer) cgoDirectives(pre, dir string) (string, []string) {
	var body strings.Builder
	var flags []string
	for line := range strings.Lines(pre) {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "#cgo ") && !strings.HasPrefix(t, "#cgo\t") {
			body.WriteString(line)
			continue
		}
		body.WriteString("\n")
		head, args, ok := strings.Cut(strings.TrimSpace(t[len("#cgo"):]), ":")
		if !ok {
			continue
		}
		f := strings.Fields(head)
		if len(f) == 0 {
			continue
		}
		verb := f[len(f)-1]
		if verb != "CFLAGS" && verb != "CPPFLAGS" {
			continue
		}
		if len(f) > 1 && !k.matchCgo(f[:len(f)-1]) {
			continue
		}
		for _, a := range splitQuoted(args) {
			flags = append(flags, strings.ReplaceAll(a, "${SRCDIR}", dir))
		}
	}
	return body.String(), flags
}

// matchCgo evaluates the build constraint of a #cgo line: terms separated by
// spaces are ORed, by commas ANDed, ! negates.
func (k *keyer) matchCgo(terms []string) bool {
	tags := map[string]bool{k.env["GOOS"]: true, k.env["GOARCH"]: true, "cgo": true, "gc": true}
	if k.env["GOOS"] != "windows" && k.env["GOOS"] != "plan9" && k.env["GOOS"] != "js" && k.env["GOOS"] != "wasip1" {
		tags["unix"] = true
	}
	for t := range strings.SplitSeq(k.cfg.Tags, ",") {
		tags[strings.TrimSpace(t)] = true
	}
	// Tags set through GOFLAGS apply too (the last -tags wins, as in the
	// go command's flag parsing).
	var flagTags string
	for _, f := range strings.Fields(k.env["GOFLAGS"]) {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "tags="); ok && strings.HasPrefix(f, "-") {
			flagTags = v
		}
	}
	for t := range strings.SplitSeq(flagTags, ",") {
		tags[strings.TrimSpace(t)] = true
	}
	for _, or := range terms {
		all := true
		for and := range strings.SplitSeq(or, ",") {
			neg := strings.HasPrefix(and, "!")
			if tags[strings.TrimPrefix(and, "!")] == neg {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// splitQuoted splits a flag list as the go command does: on spaces, with
// single and double quotes grouping.
func splitQuoted(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	have := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == quote:
			in = false
		case in:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			in, quote, have = true, c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if have || cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteByte(c)
		}
	}
	if have || cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// executableKey is the running executable's path and the key its hash is
// kept under: its path, size and modification time.
func executableKey() (string, resultcache.Key, error) {
	var k resultcache.Key
	exe, err := os.Executable()
	if err != nil {
		return "", k, err
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", k, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "exe %q %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
	h.Sum(k[:0])
	return exe, k, nil
}

// ExecutableKnown reports whether cache holds the running executable's
// hash (ExecutableHash keeps it there). When it does not, no entry of this
// executable can be in the cache: every key hashes it.
func ExecutableKnown(cache *resultcache.Cache) bool {
	_, k, err := executableKey()
	if err != nil {
		return true // no shortcut: the caller takes the general path
	}
	data, ok := cache.Get("x", k)
	return ok && len(data) == sha256.Size
}

// SettledBefore reports whether every file the keys read from disk and
// stat'ed late (all of them without PrestatFrom) was last modified before
// t: a run that analyzed while it listed, before Prestat, stores only
// then, since a file modified after the analysis started may have been
// read in another state than the key's.
//
// A file in the go command's build cache is exempt: go list writes a test
// main there while it lists (its contents follow from the package's test
// files, which are keyed), so on a cold build cache it is always newer
// than the run (TestCacheEarlyCutoffAfterSyntaxLoad, in CI).
func (p *CachePlan) SettledBefore(t time.Time) bool {
	gocache := p.k.env["GOCACHE"]
	for name, st := range p.stats {
		if (p.k.tree == nil || p.k.late[name]) && st.mod >= t.UnixNano() && !within(gocache, name) {
			return false
		}
	}
	return true
}

// executableID caches the hash of the running executable by its name, size
// and modification time.
var executableID struct {
	once sync.Once
	sum  []byte
	err  error
}

// ExecutableHash returns the SHA-256 of the running hiplint executable,
// computed once per process, and kept in cache by its path, size and
// modification time so that later runs need not read it.
func ExecutableHash(cache *resultcache.Cache) ([]byte, error) {
	executableID.once.Do(func() {
		exe, k, err := executableKey()
		if err != nil {
			executableID.err = err
			return
		}
		if cache != nil {
			if data, ok := cache.Get("x", k); ok && len(data) == sha256.Size {
				executableID.sum = data
				return
			}
		}
		// Streamed: the executable is tens of megabytes, which reading
		// it whole would add to a cold run's peak memory.
		f, err := os.Open(exe)
		if err != nil {
			executableID.err = err
			return
		}
		defer f.Close()
		eh := sha256.New()
		if _, err := io.Copy(eh, f); err != nil {
			executableID.err = err
			return
		}
		sum := eh.Sum(nil)
		executableID.sum = sum
		if cache != nil {
			cache.Put("x", k, sum)
		}
	})
	return executableID.sum, executableID.err
}
