// Package config is hiplint's per-check configuration, one model for every
// front end (the command line, go vet -vettool, the language server, the
// golangci-lint plugin and nogo); docs/config.md documents it.
//
// A package's configuration comes from the hiplint.toml files found by
// walking up from its directory, as staticcheck finds staticcheck.conf:
//
//	checks = ["all", "-HL4002"]   # staticcheck's syntax, left to right
//	[memcpysync]
//	strict = true                 # the analyzer flag -memcpysync.strict
//
// The files are merged from the farthest to the nearest: a file's checks
// replace those of the files above it, except where the list says
// "inherit", which stands for them; flags set in a nearer file win. With
// no file, every check is on. A front end's own selection (-checks, the
// plugin's settings, the language server's initializationOptions) is an
// Override applied after the files, with the same syntax.
//
// The selection is applied where every diagnostic passes: internal/diag's
// Report asks Enabled, so a check that is off is never reported by any
// driver; the analyzers' Run (package analyzers) fails with the file's
// error when a hiplint.toml is malformed.
package config

import (
	"cmp"
	"flag"
	"fmt"
	"go/ast"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"weak"

	"golang.org/x/tools/go/analysis"
)

// FileName is the configuration file's name.
const FileName = "hiplint.toml"

// An Error is a problem with a configuration file or a -checks list.
type Error struct {
	File string // "" for a command-line or settings value
	Line int    // 0 when the whole file or value is meant
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File == "":
		return e.Msg
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// The registry of check IDs and analyzer flags, filled by package analyzers
// when it is initialized (Register).
var (
	regMu      sync.RWMutex
	analyzerOf = map[string]string{}        // check ID -> analyzer
	idsOf      = map[string][]string{}      // analyzer -> check IDs
	flagsOf    = map[string]*flag.FlagSet{} // analyzer -> its flags
	explicit   = map[string]bool{}          // "analyzer.flag" set on the command line (go vet mode)
	fileCache  = map[string]*cachedFile{}   // path -> parsed file
	fileMu     sync.Mutex                   // guards fileCache
)

// Register records an analyzer's check IDs and flags (nil: none), so that
// patterns and configuration files can be checked against them.
func Register(analyzer string, ids []string, flags *flag.FlagSet) {
	regMu.Lock()
	defer regMu.Unlock()
	for _, id := range ids {
		if analyzerOf[id] == "" {
			idsOf[analyzer] = append(idsOf[analyzer], id)
		}
		analyzerOf[id] = analyzer
	}
	if flags != nil {
		flagsOf[analyzer] = flags
	}
}

// SetExplicit records analyzer flags ("memcpysync.strict") that the command
// line set, so that they win over the configuration files. It is for go
// vet mode, where the process analyzes one package and the flags are the
// process's; the standalone driver passes its explicit flags in an
// Override instead.
func SetExplicit(names ...string) {
	regMu.Lock()
	defer regMu.Unlock()
	for _, n := range names {
		explicit[n] = true
	}
}

// SplitChecks splits a comma-separated -checks value into its patterns.
func SplitChecks(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ValidateChecks reports the first pattern of list that names nothing
// known: every pattern must be "all", "*", "inherit" (where allowed), an
// analyzer name, a check ID or a glob (path.Match) matching one, optionally
// with a leading "-".
func ValidateChecks(list []string, allowInherit bool) error {
	regMu.RLock()
	defer regMu.RUnlock()
	for _, p := range list {
		pat := strings.TrimPrefix(p, "-")
		switch {
		case pat == "inherit":
			if !allowInherit || pat != p {
				return &Error{Msg: fmt.Sprintf("checks: %q is allowed only as an element of its own, in a hiplint.toml or a -checks list", p)}
			}
			continue
		case pat == "all" || pat == "*":
			continue
		case idsOf[pat] != nil:
			continue
		}
		if _, err := path.Match(pat, ""); err != nil {
			return &Error{Msg: fmt.Sprintf("checks: bad pattern %q: %v", p, err)}
		}
		matched := false
		for id := range analyzerOf {
			if m, _ := path.Match(pat, id); m {
				matched = true
				break
			}
		}
		if !matched {
			return &Error{Msg: fmt.Sprintf("checks: %q matches no check; `hiplint checks` lists them (analyzers: %s)", p, strings.Join(slices.Sorted(maps.Keys(idsOf)), ", "))}
		}
	}
	return nil
}

// Enabled reports whether the patterns, evaluated left to right, leave the
// check id on: "all" (or "*") turns every check on, a check ID, an analyzer
// name or a glob turns the checks it matches on, and the same with a
// leading "-" turns them off. Nothing is on before the first pattern.
func enabled(list []string, id string) bool {
	regMu.RLock()
	an := analyzerOf[id]
	regMu.RUnlock()
	on := false
	for _, p := range list {
		pat, off := strings.CutPrefix(p, "-")
		var m bool
		switch {
		case pat == "all" || pat == "*":
			m = true
		case an != "" && pat == an:
			m = true
		default:
			m, _ = path.Match(pat, id)
		}
		if m {
			on = !off
		}
	}
	return on
}

// A Config is the configuration in effect for one package.
type Config struct {
	// Files are the configuration files that apply, nearest first.
	Files []string
	// Checks is the selection, "inherit" resolved.
	Checks []string
	// Flags are analyzer flags by "analyzer.flag", as written.
	Flags map[string]string
}

// Default is the configuration without any file: every check on.
func Default() *Config { return &Config{Checks: []string{"all"}, Flags: map[string]string{}} }

// Enabled reports whether c leaves check id on.
func (c *Config) Enabled(id string) bool { return enabled(c.Checks, id) }

// An Override is a front end's own selection, applied after the files.
type Override struct {
	// Checks replace the files' selection; an element "inherit" stands
	// for it. nil keeps it.
	Checks []string
	// Flags are analyzer flags by "analyzer.flag"; they win over the files'.
	Flags map[string]string
}

// Apply returns c with o applied.
func (o *Override) Apply(c *Config) *Config {
	if o == nil {
		return c
	}
	out := &Config{Files: c.Files, Checks: c.Checks, Flags: maps.Clone(c.Flags)}
	if o.Checks != nil {
		out.Checks = inherit(o.Checks, c.Checks)
	}
	if out.Flags == nil {
		out.Flags = map[string]string{}
	}
	maps.Copy(out.Flags, o.Flags)
	return out
}

// inherit returns list with each "inherit" replaced by parent.
func inherit(list, parent []string) []string {
	out := make([]string, 0, len(list))
	for _, p := range list {
		if p == "inherit" {
			out = append(out, parent...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// A file is one parsed hiplint.toml.
type file struct {
	checks    []string // nil: not set
	hasChecks bool
	flags     map[string]string
}

type cachedFile struct {
	mod  time.Time
	size int64
	f    *file
	err  error
}

// Load returns the configuration of a package in dir: the hiplint.toml
// files of dir and the directories above it, merged. A file that cannot be
// read or parsed is an *Error. Files are parsed once while they stay
// unchanged (size and modification time), so a long-running language
// server sees edits.
func Load(dir string) (*Config, error) {
	if dir == "" {
		return Default(), nil
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Default(), nil
	}
	var chain []string // nearest first
	for d := dir; ; {
		name := filepath.Join(d, FileName)
		if fi, err := os.Stat(name); err == nil && !fi.IsDir() {
			chain = append(chain, name)
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	c := Default()
	for i := len(chain) - 1; i >= 0; i-- {
		f, err := parse(chain[i])
		if err != nil {
			return nil, err
		}
		if f.hasChecks {
			c.Checks = inherit(f.checks, c.Checks)
		}
		maps.Copy(c.Flags, f.flags)
	}
	c.Files = chain
	return c, nil
}

// parse reads and parses one file, through the cache.
func parse(name string) (*file, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, &Error{File: name, Msg: err.Error()}
	}
	fileMu.Lock()
	cached := fileCache[name]
	fileMu.Unlock()
	if cached != nil && cached.mod.Equal(fi.ModTime()) && cached.size == fi.Size() {
		return cached.f, cached.err
	}
	data, err := os.ReadFile(name)
	var f *file
	if err != nil {
		err = &Error{File: name, Msg: err.Error()}
	} else {
		f, err = parseFile(name, data)
	}
	fileMu.Lock()
	fileCache[name] = &cachedFile{mod: fi.ModTime(), size: fi.Size(), f: f, err: err}
	fileMu.Unlock()
	return f, err
}

// parseFile parses the contents of a configuration file named name and
// checks it against the registered checks and analyzer flags.
func parseFile(name string, data []byte) (*file, error) {
	doc, err := parseTOML(name, data)
	if err != nil {
		return nil, err
	}
	f := &file{flags: map[string]string{}}
	for _, key := range sortedKeys(doc[""]) {
		v := doc[""][key]
		switch key {
		case "checks":
			if v.kind != kindList {
				return nil, &Error{File: name, Line: v.line, Msg: fmt.Sprintf("checks is %s; want a list of strings: checks = [\"all\", \"-HL4002\"]", v.kind)}
			}
			if err := ValidateChecks(v.list, true); err != nil {
				return nil, &Error{File: name, Line: v.line, Msg: err.(*Error).Msg}
			}
			f.checks, f.hasChecks = v.list, true
			if f.checks == nil {
				f.checks = []string{}
			}
		default:
			return nil, &Error{File: name, Line: v.line, Msg: fmt.Sprintf("unknown key %s; a hiplint.toml holds checks = [...] and a [table] of flags per analyzer", key)}
		}
	}
	regMu.RLock()
	defer regMu.RUnlock()
	for _, table := range sortedKeys(doc) {
		if table == "" {
			continue
		}
		fs := flagsOf[table]
		if fs == nil {
			return nil, &Error{File: name, Msg: fmt.Sprintf("[%s]: no analyzer of that name has flags; analyzers with flags: %s", table, strings.Join(slices.Sorted(maps.Keys(flagsOf)), ", "))}
		}
		for _, key := range sortedKeys(doc[table]) {
			v := doc[table][key]
			fl := fs.Lookup(key)
			if fl == nil {
				var known []string
				fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
				return nil, &Error{File: name, Line: v.line, Msg: fmt.Sprintf("[%s] has no flag %s; its flags: %s", table, key, strings.Join(known, ", "))}
			}
			if isBool(fl) && v.kind != kindBool {
				return nil, &Error{File: name, Line: v.line, Msg: fmt.Sprintf("%s.%s is %s; want true or false", table, key, v.kind)}
			}
			if v.kind == kindList {
				return nil, &Error{File: name, Line: v.line, Msg: fmt.Sprintf("%s.%s is a list; want a single value", table, key)}
			}
			f.flags[table+"."+key] = v.str
		}
	}
	return f, nil
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := slices.Collect(maps.Keys(m))
	sort.Strings(keys)
	return keys
}

// overrideMark is the key under which a front end attaches its Override to
// a pass (Attach). It is never run and never required.
var overrideMark = &analysis.Analyzer{
	Name: "hiplintconfigoverride",
	Doc:  "carries a front end's hiplint configuration override to a pass",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

// Attach gives pass the front end's override, as diag.KeepSuppressed marks
// a pass: it belongs to this pass of this run only. The pass must be the
// driver's own copy (its ResultOf is written).
func Attach(pass *analysis.Pass, o *Override) {
	if o == nil {
		return
	}
	if pass.ResultOf == nil {
		pass.ResultOf = map[*analysis.Analyzer]any{}
	}
	pass.ResultOf[overrideMark] = o
}

// OverrideOf returns the override attached to pass, or nil.
func OverrideOf(pass *analysis.Pass) *Override {
	o, _ := pass.ResultOf[overrideMark].(*Override)
	return o
}

// ForPass returns the configuration in effect for pass: its package's
// files (PackageDir), then the front end's override.
func ForPass(pass *analysis.Pass) (*Config, error) {
	c, err := Load(PackageDir(pass))
	if err != nil {
		return nil, err
	}
	return OverrideOf(pass).Apply(c), nil
}

// Enabled reports whether check id is on for pass. A configuration that
// does not load leaves every check on: the analyzer's Run reports the
// error (package analyzers).
func Enabled(pass *analysis.Pass, id string) bool {
	c, err := ForPass(pass)
	if err != nil {
		return true
	}
	return c.Enabled(id)
}

// Flag returns the value of the analyzer flag name for pass: the override's
// if it sets it; else the flag's own value when the command line set it
// (SetExplicit) or it differs from its default (a driver such as nogo set
// it); else the configuration files'; else the default.
func Flag(pass *analysis.Pass, name string) string {
	a := pass.Analyzer
	key := a.Name + "." + name
	fl := a.Flags.Lookup(name)
	own := ""
	if fl != nil {
		own = fl.Value.String()
	}
	o := OverrideOf(pass)
	if v, ok := o.flag(key); ok {
		return v
	}
	regMu.RLock()
	exp := explicit[key]
	regMu.RUnlock()
	if exp || fl != nil && own != fl.DefValue {
		return own
	}
	if c, err := Load(PackageDir(pass)); err == nil {
		if v, ok := c.Flags[key]; ok {
			return v
		}
	}
	return own
}

func (o *Override) flag(key string) (string, bool) {
	if o == nil {
		return "", false
	}
	v, ok := o.Flags[key]
	return v, ok
}

// PackageDir returns the directory of the package of pass, as the user
// sees it: the directory of its first Go file after //line adjustment (so
// that cgo's generated files count as the user's), with symbolic links
// resolved (Bazel's sandbox links the sources), or "" when unknown.
//
// It is worked out once per package (by its first file's syntax tree): the
// configuration is looked up by every analyzer for every package, some
// more than once, and resolving the links was 4% of the analysis' CPU on
// the generated benchmark module (docs/performance.md, "Issue 33: the
// analysis' own cost").
func PackageDir(pass *analysis.Pass) string {
	if len(pass.Files) == 0 {
		return ""
	}
	key := weak.Make(pass.Files[0])
	if d, ok := packageDirs.Load(key); ok {
		return d.(string)
	}
	d := packageDir(pass)
	if _, loaded := packageDirs.LoadOrStore(key, d); !loaded {
		runtime.AddCleanup(pass.Files[0], func(k weak.Pointer[ast.File]) { packageDirs.Delete(k) }, key)
	}
	return d
}

// packageDirs holds PackageDir's answers by the package's first file, for
// as long as that file's syntax tree lives.
var packageDirs sync.Map // weak.Pointer[ast.File] → string

func packageDir(pass *analysis.Pass) string {
	for _, f := range pass.Files {
		name := pass.Fset.Position(f.Package).Filename
		// cgo's own files (_cgo_gotypes.go) lie in the build cache under
		// names without .go; its rewrites of the user's files map back.
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(filepath.Base(name), "_cgo_") {
			continue
		}
		if real, err := filepath.EvalSymlinks(name); err == nil {
			name = real
		}
		return filepath.Dir(name)
	}
	return ""
}

// EnabledAt reports whether check id is on for the package holding the
// file named filename, with o applied.
func EnabledAt(filename string, o *Override, id string) bool {
	dir := ""
	if filename != "" {
		if real, err := filepath.EvalSymlinks(filename); err == nil {
			filename = real
		}
		dir = filepath.Dir(filename)
	}
	c, err := Load(dir)
	if err != nil {
		return true
	}
	return o.Apply(c).Enabled(id)
}

// compareErrors orders errors for printing.
func compareErrors(a, b *Error) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Msg, b.Msg))
}

// Distinct returns the distinct configuration errors among errs, sorted.
func Distinct(errs []*Error) []*Error {
	slices.SortFunc(errs, compareErrors)
	return slices.CompactFunc(errs, func(a, b *Error) bool { return compareErrors(a, b) == 0 })
}
