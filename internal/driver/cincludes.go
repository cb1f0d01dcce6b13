package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hiplint/hiplint/internal/resultcache"
)

// hiplint's own header resolver: the headers a cgo preamble may include,
// found without running the C compiler once per package.
//
// cHeaders needs every header whose contents could change cgo's output for
// a package. `cc -M` lists exactly the ones one compilation reads, at one
// process per preamble (icicle's 45 cgo packages: about 3 s of CPU on a
// cold cache). The resolver lists a superset instead, which is just as
// safe for a key (a header more only means a key that changes more often):
//
//   - every #include, #include_next, #import and #embed line of the
//     preamble and of every header reached, in every branch of every
//     conditional (no macro is evaluated), and every name that
//     __has_include or __has_embed asks about;
//   - each name resolved to every file of that name in every directory
//     the compiler could search for it (the including file's own
//     directory for a quoted name, then the -iquote, -I, -isystem and
//     -idirafter directories of the package's flags and the compiler's
//     default directories), not only the first match, so the order of the
//     directories never matters;
//   - a name found nowhere is recorded as missing, by name: a header
//     installed later is found by the next run (nothing is kept between
//     runs but the compiler's default directories), which changes the key.
//
// It declines (ok false, and cHeaders runs `cc -M` as before) on what it
// cannot follow: an include whose name is computed by a macro, a flag that
// may change where the compiler looks that it does not know (-include,
// -nostdinc, --sysroot, -m32, ...), digraphs or trigraphs that could spell
// a directive, framework directories, or a closure over its budget.

// Budget of one preamble's closure: past it, the resolver declines.
const (
	resolveMaxFiles = 4000
	resolveMaxBytes = 128 << 20
)

// ccDefaults are the compiler's default include directories (`cc -E -v`):
// the directories it searches, and the ones it named and ignored because
// they did not exist (one of them created later changes the list).
type ccDefaults struct {
	Dirs    []string `json:"dirs"`
	Ignored []string `json:"ignored"`
}

// An includeRef is one header name a file asks for.
type includeRef struct {
	name   string
	quoted bool // "name": the including file's directory first
}

// headerText is what the resolver keeps of one header file: its hash and
// the names it includes (ok false: a computed include or a spelling the
// resolver does not read).
type headerText struct {
	sum  [32]byte
	size int
	refs []includeRef
	ok   bool
}

// ownScan lists the headers of req's preamble with hiplint's resolver, once
// per request. ok is false when it declines.
func (k *keyer) ownScan(req scanRequest) (headerScan, bool) {
	key := req.dir + "\x00" + strings.Join(req.flags, "\x00") + "\x00" + req.preamble
	if s, ok := k.resolved[key]; ok {
		return s, s.ok
	}
	s := k.resolveScan(req)
	if k.resolved == nil {
		k.resolved = map[string]headerScan{}
	}
	k.resolved[key] = s
	return s, s.ok
}

func (k *keyer) resolveScan(req scanRequest) headerScan {
	dirs, ok := includeDirs(req.flags, req.dir)
	if !ok {
		return headerScan{}
	}
	// cgo compiles the preamble in the package's directory, searched
	// first (-I dir).
	dirs = append([]string{filepath.Clean(req.dir)}, dirs...)
	def, ok := k.ccDefaults()
	if !ok {
		return headerScan{}
	}
	dirs = append(dirs, def.Dirs...)
	pre, ok := readIncludes([]byte(req.preamble))
	if !ok {
		return headerScan{}
	}
	var manifest bytes.Buffer
	fmt.Fprintf(&manifest, "resolver\ndir %q\n", req.dir)
	for _, d := range dirs {
		fmt.Fprintf(&manifest, "search %q\n", d)
	}
	found := map[string]bool{}
	missing := map[string]bool{}
	queue := []string{}
	visit := func(from string, refs []includeRef) {
		for _, r := range refs {
			paths := k.lookupHeader(from, r, dirs)
			if len(paths) == 0 {
				missing[fmt.Sprintf("%q %v", r.name, r.quoted)] = true
			}
			for _, p := range paths {
				if !found[p] {
					found[p] = true
					queue = append(queue, p)
				}
			}
		}
	}
	visit(req.dir, pre.refs)
	bytesRead := 0
	for len(queue) > 0 {
		if len(found) > resolveMaxFiles || bytesRead > resolveMaxBytes {
			return headerScan{}
		}
		p := queue[0]
		queue = queue[1:]
		h := k.readHeader(p)
		if !h.ok {
			return headerScan{}
		}
		bytesRead += h.size
		visit(filepath.Dir(p), h.refs)
	}
	deps := slices.Sorted(maps.Keys(found))
	for _, p := range deps {
		fmt.Fprintf(&manifest, "%s\t%x\n", p, k.readHeader(p).sum)
	}
	for _, m := range slices.Sorted(maps.Keys(missing)) {
		fmt.Fprintf(&manifest, "missing %s\n", m)
	}
	return headerScan{sum: sha256.Sum256(manifest.Bytes()), ok: true, deps: deps}
}

// lookupHeader is every file that r, included from a file in directory
// from, may name: an absolute name itself, else the name in from (for a
// quoted name) and in each search directory. Once per run per question.
func (k *keyer) lookupHeader(from string, r includeRef, dirs []string) []string {
	if filepath.IsAbs(r.name) {
		if isFile(r.name) {
			return []string{filepath.Clean(r.name)}
		}
		return nil
	}
	var out []string
	try := func(d string) {
		p := filepath.Join(d, r.name)
		if k.lookups == nil {
			k.lookups = map[string]bool{}
		}
		isf, ok := k.lookups[p]
		if !ok {
			isf = isFile(p)
			k.lookups[p] = isf
		}
		if isf && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if r.quoted {
		try(from)
	}
	for _, d := range dirs {
		try(d)
	}
	return out
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// readHeader reads, hashes and lists the includes of one header, once per
// run.
func (k *keyer) readHeader(p string) headerText {
	if h, ok := k.texts[p]; ok {
		return h
	}
	var h headerText
	if data, err := os.ReadFile(p); err == nil {
		h, _ = readIncludes(data)
		h.sum = sha256.Sum256(data)
		h.size = len(data)
		k.headers[p] = h.sum // cHeaders' cache of contents, shared
	}
	if k.texts == nil {
		k.texts = map[string]headerText{}
	}
	k.texts[p] = h
	return h
}

// readIncludes lists the header names a C file includes or asks about, in
// every branch; ok is false for what the resolver cannot read: a computed
// include, a digraph or trigraph that may spell a directive.
func readIncludes(src []byte) (headerText, bool) {
	if bytes.Contains(src, []byte("%:")) || bytes.Contains(src, []byte("??=")) {
		return headerText{}, false
	}
	text := stripComments(src)
	var h headerText
	for line := range strings.Lines(text) {
		t := strings.TrimLeft(line, " \t\f\v")
		if !strings.HasPrefix(t, "#") {
			continue
		}
		t = strings.TrimLeft(t[1:], " \t\f\v")
		name := t
		if i := strings.IndexFunc(t, func(r rune) bool { return !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }); i >= 0 {
			name = t[:i]
		}
		switch name {
		case "include", "include_next", "import", "embed":
			r, ok := headerOperand(strings.TrimLeft(t[len(name):], " \t\f\v"))
			if !ok {
				return headerText{}, false
			}
			h.refs = append(h.refs, r)
		}
		// __has_include and __has_embed, in #if, #elif or a #define.
		for _, op := range []string{"__has_include_next", "__has_include", "__has_embed"} {
			rest := t
			for {
				i := strings.Index(rest, op)
				if i < 0 {
					break
				}
				rest = rest[i+len(op):]
				if op == "__has_include" && strings.HasPrefix(rest, "_next") {
					continue // counted as __has_include_next
				}
				arg := strings.TrimLeft(rest, " \t")
				if !strings.HasPrefix(arg, "(") {
					continue // named, not called: #ifdef __has_include
				}
				r, ok := headerOperand(strings.TrimLeft(arg[1:], " \t"))
				if !ok {
					return headerText{}, false
				}
				h.refs = append(h.refs, r)
			}
		}
	}
	h.ok = true
	return h, true
}

// headerOperand reads "name" or <name> at the start of s.
func headerOperand(s string) (includeRef, bool) {
	if s == "" {
		return includeRef{}, false
	}
	var end byte
	switch s[0] {
	case '"':
		end = '"'
	case '<':
		end = '>'
	default:
		return includeRef{}, false // computed: a macro names it
	}
	i := strings.IndexByte(s[1:], end)
	if i <= 0 {
		return includeRef{}, false
	}
	return includeRef{name: s[1 : 1+i], quoted: end == '"'}, true
}

// stripComments joins continued lines and blanks comments, keeping string
// and character literals; the result has one logical line per line.
func stripComments(src []byte) string {
	src = bytes.ReplaceAll(src, []byte("\\\r\n"), nil)
	src = bytes.ReplaceAll(src, []byte("\\\n"), nil)
	var b strings.Builder
	b.Grow(len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if i < len(src) {
				b.WriteByte('\n')
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				if src[i] == '\n' {
					b.WriteByte('\n') // keep the lines apart
				}
				i++
			}
			i++ // the '/'
			b.WriteByte(' ')
		case c == '"' || c == '\'':
			// A literal, up to its closing quote on this line; the
			// header name of #include "x" is read the same way.
			b.WriteByte(c)
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
					b.WriteByte(src[i])
					i++
				}
				b.WriteByte(src[i])
			}
			if i < len(src) {
				b.WriteByte(src[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// includeDirs are the directories the package's flags add to the search,
// relative ones taken from dir (where cgo runs the compiler), in no
// particular order. ok is false for a flag that may change where the
// compiler looks and that the resolver does not follow.
func includeDirs(flags []string, dir string) ([]string, bool) {
	var dirs []string
	add := func(d string) bool {
		if d == "" || strings.HasPrefix(d, "=") || strings.HasPrefix(d, "$SYSROOT") {
			return false
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		d = filepath.Clean(d)
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
		return true
	}
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		dirFlag := ""
		for _, opt := range []string{"-iquote", "-isystem", "-idirafter", "-I"} {
			if strings.HasPrefix(f, opt) {
				dirFlag = opt
				break
			}
		}
		switch {
		case f == "-I-":
			return nil, false
		case dirFlag != "":
			d := f[len(dirFlag):]
			if d == "" {
				if i+1 >= len(flags) {
					return nil, false
				}
				i++
				d = flags[i]
			}
			if !add(d) {
				return nil, false
			}
		case f == "-D" || f == "-U":
			i++ // its argument
		case harmlessFlag(f):
		default:
			return nil, false
		}
	}
	return dirs, true
}

// harmlessFlag reports whether a compiler flag leaves the include search
// as it is.
func harmlessFlag(f string) bool {
	switch f {
	case "-m16", "-m32", "-mx32":
		return false // other multiarch directories
	case "-w", "-pthread", "-ansi", "-pipe", "-c", "-E", "-P":
		return true
	}
	if strings.HasPrefix(f, "-Wp,") || strings.HasPrefix(f, "-fmodule") || strings.HasPrefix(f, "-fplugin") {
		return false
	}
	for _, p := range []string{"-D", "-U", "-O", "-g", "-W", "-f", "-std=", "-pedantic", "-march=", "-mtune=", "-mcpu=", "-m"} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// ccDefaults are the compiler's default include directories, from `cc -E
// -v` with the compiler's own arguments and the run's environment (CPATH
// and its kin add directories there), kept in the cache under the
// compiler's identity and environment (scanEnv) while every directory in
// it exists and every one it ignored does not.
func (k *keyer) ccDefaults() (ccDefaults, bool) {
	if k.defaults != nil {
		return *k.defaults, k.defaults.Dirs != nil
	}
	d, ok := k.probeDefaults()
	if !ok {
		d = ccDefaults{}
	}
	k.defaults = &d
	return d, ok
}

func (k *keyer) probeDefaults() (ccDefaults, bool) {
	cc := k.compiler()
	if dirs, ok := includeDirs(cc[1:], ""); !ok || slices.ContainsFunc(dirs, func(d string) bool { return !filepath.IsAbs(d) }) {
		return ccDefaults{}, false // CC's own flags: absolute directories only
	}
	h := sha256.New()
	fmt.Fprintf(h, "ccdefaults %q\n", cc)
	h.Write([]byte(k.scanEnv()))
	var key resultcache.Key
	h.Sum(key[:0])
	if k.cache != nil {
		if data, ok := k.cache.Get("d", key); ok {
			var d ccDefaults
			if json.Unmarshal(data, &d) == nil && d.Dirs != nil && defaultsHold(d) {
				return d, true
			}
		}
	}
	args := append(slices.Clip(cc[1:]), "-E", "-v", "-x", "c", os.DevNull)
	cmd := exec.Command(cc[0], args...)
	cmd.Env = LocalToolchain(k.cfg.Env)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return ccDefaults{}, false
	}
	d, ok := parseSearchList(out)
	if !ok {
		return ccDefaults{}, false
	}
	if k.cache != nil {
		if data, err := json.Marshal(d); err == nil {
			k.cache.Put("d", key, data)
		}
	}
	return d, true
}

// defaultsHold reports whether a kept list still describes the file system.
func defaultsHold(d ccDefaults) bool {
	for _, dir := range d.Dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return false
		}
	}
	for _, dir := range d.Ignored {
		if _, err := os.Stat(dir); err == nil {
			return false
		}
	}
	return true
}

// parseSearchList reads the include search list that GCC and Clang print
// with -v. ok is false without one, or with a framework directory (whose
// headers are found by another rule).
func parseSearchList(out []byte) (ccDefaults, bool) {
	d := ccDefaults{Dirs: []string{}}
	in, seen := false, false
	for line := range strings.Lines(string(out)) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasPrefix(line, "ignoring nonexistent directory "):
			name := strings.Trim(strings.TrimPrefix(line, "ignoring nonexistent directory "), "\"")
			if filepath.IsAbs(name) {
				d.Ignored = append(d.Ignored, filepath.Clean(name))
			}
		case strings.HasPrefix(line, "#include ") && strings.HasSuffix(line, "search starts here:"):
			in, seen = true, true
		case line == "End of search list.":
			in = false
		case in && strings.HasPrefix(line, " "):
			dir := strings.TrimSpace(line)
			if strings.HasSuffix(dir, "(framework directory)") || !filepath.IsAbs(dir) {
				return ccDefaults{}, false
			}
			dir = filepath.Clean(dir)
			if !slices.Contains(d.Dirs, dir) {
				d.Dirs = append(d.Dirs, dir)
			}
		}
	}
	return d, seen && !in
}

// SearchDirs returns every directory in which the C compiler, as the
// environment names it (CC, its PATH and CPATH and their kin), looks for a
// <name> header with the given arguments: the -I, -isystem and -idirafter
// directories among them and the compiler's default directories, the
// latter kept in cache as the resolver keeps them. ok is false for an
// argument that may change the search and that the resolver does not
// follow, a relative directory, or an -iquote one (which <name> does not
// search); the caller then asks the compiler.
func SearchDirs(env []string, cache *resultcache.Cache, cc string, args []string) ([]string, bool) {
	dirs, ok := includeDirs(args, "")
	if !ok || slices.ContainsFunc(dirs, func(d string) bool { return !filepath.IsAbs(d) }) ||
		slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-iquote") }) {
		return nil, false
	}
	k := &keyer{cfg: &Config{Env: env}, env: map[string]string{"CC": cc}, cache: cache}
	def, ok := k.ccDefaults()
	if !ok {
		return nil, false
	}
	return append(dirs, def.Dirs...), true
}
