// Package synth rescues packages whose cgo step fails for want of C
// declarations, so that they are analyzed with the runtime's C types
// (tier 1 or 2) instead of from their Go files alone (tier 3).
//
// After a load, Step reads each failed package's cgo output and repairs
// what it can in its cgo preambles, through an overlay of the Go files that
// changes preamble lines only (every line of Go code stays where it was):
//
//   - an include of a header the compiler does not find (cublas_v2.h,
//     cudnn.h, ...) is emptied: the header is stubbed;
//   - an include by absolute path into a CUDA or ROCm tree
//     ("/usr/local/cuda/include/cuda.h") of a header hiplint ships is
//     rewritten to the header's own name, which hiplint's declarations
//     serve where the machine has none;
//   - the C names cgo cannot resolve get declarations synthesized from
//     their use in the Go files (infer), in a generated header included in
//     place of the preamble's last include (which the header includes
//     first);
//   - where HIP's real header stops at its platform #error, the include
//     that reaches it is replaced by a generated header that defines
//     __HIP_PLATFORM_AMD__, as hipcc does, and includes it.
//
// The caller loads again with Overlay and repeats, a bounded number of
// times (MaxRounds). A package that fails for another reason, makes no
// progress, or type-checks with errors it did not have at tier 3 is given
// up: its repairs are undone, and it stays at tier 3.
package synth

import (
	"fmt"
	"go/ast"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hiplint/hiplint/internal/cgocall"
	"golang.org/x/tools/go/packages"
)

// MaxRounds bounds the loads synthesis asks for after the first: a missing
// header, then the names it declared, then a second header or a platform
// macro, then a last load that undoes what did not work.
const MaxRounds = 4

// Servable reports whether hiplint can serve the header name (relative to
// an include directory: "cuda.h", "hip/hip_runtime.h").
type Servable func(name string) bool

// Generate writes a generated header and returns its absolute path.
type Generate func(name string, data []byte) (string, error)

// Synth is the state of the repairs across loads.
type Synth struct {
	overlay  map[string][]byte // the caller's (a language server's buffers)
	servable Servable
	generate Generate
	files    map[string]*fileFix
	gaveUp   map[string]string            // package path -> why
	baseline map[string]map[string]string // package path -> its type errors at tier 3
	cause    map[string]string            // package path -> its first cgo error at tier 3
	inC      map[string]map[string]kind   // package path -> the names its C code uses, with their kinds
	fromC    map[string]map[string]bool   // package path -> names declared from their use in its preambles' C code (preambleC)
	emptied  map[string]emptiedSource     // a C source of a package, emptied in the overlay
	force    bool
	headers  Headers
	pinned   map[string]*pin // package path -> served by hiplint's declarations instead of the machine's
	noPin    map[string]bool // package path -> hiplint's declarations tried and did not serve
	pinDir   string          // Headers.Pinned's directory, once asked for
	pinErr   error
}

// Headers tells synthesis which runtime headers the machine has and what
// hiplint's own declarations have, so that a package the machine's real
// header fails only because it is older than the API the package uses
// (HIP 5.2's lacks the graph memory nodes) is analyzed with hiplint's
// declarations instead (SetHeaders). Every field must be set for that.
type Headers struct {
	// Machine reports whether the C compiler finds the runtime header
	// (hip/hip_runtime_api.h, cuda_runtime_api.h, cuda.h) on the machine,
	// rather than through hiplint's fallback.
	Machine func(header string) bool
	// Declares reports whether hiplint's declarations have the C name.
	Declares func(name string) bool
	// Pinned returns a directory of hiplint's headers that include one
	// another by relative path (headerless.Pinned).
	Pinned func() (string, error)
}

// A pin is a package whose includes of the runtime's headers hiplint
// ships are rewritten to hiplint's declarations, because the machine's
// header lacks names the package uses that hiplint's has.
type pin struct {
	lacking []string        // the names the machine's header lacks, sorted
	known   map[string]bool // every name cgo could not resolve with the machine's header
}

// An emptiedSource is a C source file of a package (not a preamble) that
// includes a library header the machine lacks. cgo compiles it with the
// package, and nothing in it can be declared from Go's use; the Go side
// reaches its functions through the package's own headers. Synthesis
// gives it no content: hiplint analyzes Go, and cgo's Go declarations come
// from the preambles.
type emptiedSource struct {
	pkg    string
	header string // the missing header it includes
}

type fileFix struct {
	pkg      string
	blank    map[int]string // preamble line -> the missing header it included
	absolute map[int]string // preamble line -> the header that serves its absolute include
	platform int            // the preamble line through which HIP's header came (0: none)
	names    map[string]bool
	includes []string        // runtime headers included for the runtime's names
	tried    map[string]bool // runtime headers included
	again    map[string]bool // runtime names that stayed unknown with their header included: synthesized
	decls    string          // the synthesized declarations
	force    bool            // an #error on the first line (ForceTier3)
	aside    map[string]bool // imports not found, set aside for cgo to run (aside.go)
}

// New returns an empty state. overlay is the caller's own overlay, which
// Overlay's result includes.
func New(overlay map[string][]byte, servable Servable, generate Generate) *Synth {
	return &Synth{overlay: overlay, servable: servable, generate: generate,
		files: map[string]*fileFix{}, gaveUp: map[string]string{},
		baseline: map[string]map[string]string{}, cause: map[string]string{}, inC: map[string]map[string]kind{},
		fromC:   map[string]map[string]bool{},
		emptied: map[string]emptiedSource{}, pinned: map[string]*pin{}, noPin: map[string]bool{}}
}

// SetHeaders lets synthesis serve hiplint's declarations to a package
// whose cgo step fails with the machine's runtime header only on names
// hiplint's declarations have (Headers).
func (s *Synth) SetHeaders(h Headers) { s.headers = h }

func (s *Synth) read(file string) ([]byte, error) {
	if data, ok := s.overlay[file]; ok {
		return data, nil
	}
	return os.ReadFile(file)
}

// ForceTier3 makes cgo fail in every package outside the standard library
// that has a cgo preamble (an #error on its first line), so that the next
// load analyzes them all at tier 3 (HIPLINT_TIER3=force). It reports
// whether it found any.
func (s *Synth) ForceTier3(pkgs []*packages.Package) bool {
	s.force = true
	goroot := filepath.Clean(build.Default.GOROOT) + string(filepath.Separator)
	found := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.GoFiles {
			if strings.HasPrefix(f, goroot) || s.files[f] != nil {
				continue
			}
			src, err := s.read(f)
			if err != nil {
				continue
			}
			if lines, _ := preamble(src); len(lines) > 0 {
				s.files[f] = &fileFix{pkg: p.PkgPath, force: true}
				found = true
			}
		}
	})
	return found
}

// failed returns the cgo output of a package whose cgo step failed, which
// go/packages then type-checked from its raw files.
func failed(p *packages.Package) (string, bool) {
	if p.Types == nil || !cgocall.Unprocessed(p.Types) {
		return "", false
	}
	for _, e := range p.Errors {
		if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
			return e.Msg, true
		}
	}
	return "", false
}

// typeErrors returns the type errors of p that involve C, their messages by
// position: the message names a cgo-made identifier (_Ctype_int, _Cfunc_f,
// ...) or C.x, or the source line mentions C. An error of the package's own Go code (an
// instantiation cycle, a mistyped Go call) is no sign that a synthesized
// declaration does not fit; the failed load type-checks nothing, so it is
// not in the baseline either (was: any such error gave the package up).
func (s *Synth) typeErrors(p *packages.Package) map[string]string {
	out := map[string]string{}
	for _, e := range p.Errors {
		if e.Kind == packages.TypeError && !strings.HasPrefix(e.Msg, "could not import C") && s.aboutC(e) {
			out[e.Pos] = e.Msg
		}
	}
	return out
}

// cgoName matches what cgo makes of C names in the Go code it writes, and
// C.x where a message quotes the source.
var cgoName = regexp.MustCompile(`_C(?:type|func|macro|var|fpvar)_|\bC\.[A-Za-z_]`)

func (s *Synth) aboutC(e packages.Error) bool {
	if cgoName.MatchString(e.Msg) {
		return true
	}
	// e.Pos is "file:line:col" (or "file:line").
	parts := strings.Split(e.Pos, ":")
	if len(parts) < 2 {
		return true
	}
	i := len(parts) - 2
	if _, err := strconv.Atoi(parts[len(parts)-1]); err == nil {
		if _, err := strconv.Atoi(parts[i]); err != nil {
			i++ // "file:line"
		}
	}
	n, err := strconv.Atoi(parts[i])
	if err != nil || n < 1 {
		return true
	}
	src, err := s.read(strings.Join(parts[:i], ":"))
	if err != nil {
		return true
	}
	lines := strings.Split(string(src), "\n")
	return n > len(lines) || strings.Contains(lines[n-1], "C.")
}

// Step reads the packages of a load and updates the repairs: new ones for
// the packages that failed in cgo for reasons synthesis can repair, undone
// ones for the packages it gives up. With final, it only gives up. It
// reports whether the repairs changed (the caller loads again with
// Overlay).
func (s *Synth) Step(pkgs []*packages.Package, final bool) bool {
	if s.force {
		return false
	}
	// One variant per package path: the one with the most files (a test
	// variant holds the package's files and its tests').
	byPath := map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if cur := byPath[p.PkgPath]; cur == nil || len(p.GoFiles) > len(cur.GoFiles) {
			byPath[p.PkgPath] = p
		}
	})
	paths := make([]string, 0, len(byPath))
	for path := range byPath {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	changed := false
	for _, path := range paths {
		p := byPath[path]
		if _, ok := s.gaveUp[path]; ok {
			continue
		}
		if missing := notRun(p); len(missing) > 0 {
			// go list ran no cgo step: an import was not found.
			if s.baseline[path] == nil {
				s.baseline[path] = s.typeErrors(p)
				s.cause[path] = "not run: its import " + missing[0] + " was not found"
			}
			if final || !s.setAside(p, missing) {
				if s.touches(path) || !final {
					changed = s.giveUp(path, "cgo still not run with the imports not found set aside") || changed
				}
			} else {
				changed = true
			}
			continue
		}
		out, isFailed := failed(p)
		if !isFailed {
			if s.touches(path) {
				// Repaired: it must not have gained type errors.
				base := s.baseline[path]
				errs := s.typeErrors(p)
				for _, pos := range slices.Sorted(mapKeys(errs)) {
					if _, ok := base[pos]; !ok {
						changed = s.giveUp(path, "synthesized declarations do not type-check: "+pos+": "+errs[pos]) || changed
						break
					}
				}
			}
			continue
		}
		if s.baseline[path] == nil {
			s.baseline[path] = s.typeErrors(p)
			s.cause[path] = firstError(out)
		}
		f := parseFailure(out)
		if debug() {
			fmt.Fprintf(os.Stderr, "synth: %s failed in cgo:\n%s\n", path, out)
		}
		if final || !f.repairable() {
			if s.touches(path) || !final {
				changed = s.giveUp(path, cmpOr(f.other, "not repaired")) || changed
			}
			continue
		}
		if s.repair(p, f) {
			changed = true
		} else {
			changed = s.giveUp(path, "no progress") || changed
		}
	}
	return changed
}

func firstError(out string) string {
	first := ""
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "In file included") || strings.HasPrefix(l, "from ") || strings.Contains(l, " | ") || strings.HasPrefix(l, "|") {
			continue
		}
		if strings.Contains(l, "error") || strings.Contains(l, "could not determine") {
			return l
		}
		if first == "" {
			first = l
		}
	}
	return first
}

// touches reports whether some repair is in a file of the package path.
func (s *Synth) touches(path string) bool {
	for _, f := range s.files {
		if f.pkg == path {
			return true
		}
	}
	for _, e := range s.emptied {
		if e.pkg == path {
			return true
		}
	}
	return false
}

// giveUp undoes the repairs of the package path and keeps it from new
// ones. It reports whether any repair was undone.
func (s *Synth) giveUp(path, why string) bool {
	if debug() {
		fmt.Fprintf(os.Stderr, "synth: giving up %s: %s\n", path, why)
	}
	s.gaveUp[path] = why
	undone := false
	for name, f := range s.files {
		if f.pkg == path {
			delete(s.files, name)
			undone = true
		}
	}
	for name, e := range s.emptied {
		if e.pkg == path {
			delete(s.emptied, name)
			undone = true
		}
	}
	return undone
}

// debug reports whether HIPLINT_SYNTH_DEBUG asks for synthesis's steps on
// standard error.
func debug() bool { return os.Getenv("HIPLINT_SYNTH_DEBUG") != "" }

// goFile returns the file of p the compiler named file.
func goFile(p *packages.Package, file string) string {
	file = filepath.ToSlash(strings.TrimPrefix(file, "./"))
	for _, g := range p.GoFiles {
		gs := filepath.ToSlash(g)
		if gs == file || strings.HasSuffix(gs, "/"+file) {
			return g
		}
	}
	return ""
}

func (s *Synth) fix(p *packages.Package, file string) *fileFix {
	f := s.files[file]
	if f == nil {
		f = &fileFix{pkg: p.PkgPath, blank: map[int]string{}, absolute: map[int]string{}, names: map[string]bool{},
			tried: map[string]bool{}, again: map[string]bool{}}
		s.files[file] = f
	}
	return f
}

// stub empties the include of the missing header name on a preamble line
// of file, or, for an absolute include hiplint serves, names it by the
// header's own name. It reports whether the repair is new.
func (s *Synth) stub(p *packages.Package, file string, line int, name string) bool {
	fx := s.fix(p, file)
	if _, done := fx.blank[line]; done {
		return false
	}
	if _, done := fx.absolute[line]; done {
		return false
	}
	if tail, ok := s.served(name); ok {
		fx.absolute[line] = tail
	} else {
		fx.blank[line] = name
	}
	return true
}

// repair adds the repairs f calls for to the files of p, and reports
// whether there was anything new.
func (s *Synth) repair(p *packages.Package, f *failure) bool {
	served, progress := s.tryPin(p, f)
	if progress && served == nil {
		return true // hiplint's declarations did not serve: the machine's header again, next round
	}
	for _, m := range f.missing {
		file := goFile(p, m.file)
		if file == "" {
			// Not a preamble: a C source of the package's own.
			if !s.emptySources(p, m.file, m.name) {
				return false
			}
			progress = true
			continue
		}
		src, err := s.read(file)
		if err != nil {
			return false
		}
		lines, _ := preamble(src)
		i := slices.IndexFunc(lines, func(l preambleLine) bool { return l.line == m.line })
		if i < 0 {
			return false
		}
		name, _, ok := includeName(lines[i].text)
		if !ok {
			return false
		}
		if s.stub(p, file, m.line, name) {
			progress = true
		}
		// cgo stops at the first file whose preamble a header is missing
		// from: every other include of the same header in the package's
		// files is just as missing, and is stubbed in the same round.
		for _, other := range p.GoFiles {
			src, err := s.read(other)
			if err != nil {
				continue
			}
			lines, _ := preamble(src)
			for _, l := range lines {
				if n, _, ok := includeName(l.text); ok && n == name && s.stub(p, other, l.line, name) {
					progress = true
				}
			}
		}
	}
	if f.platform != nil {
		file := goFile(p, f.platform.file)
		if file == "" {
			return false
		}
		fx := s.fix(p, file)
		if fx.platform != f.platform.line {
			fx.platform = f.platform.line
			progress = true
		}
	}
	newNames := false
	// A runtime name still unknown although its header is included: the
	// header does not declare it either, so it is synthesized.
	stillUnknown := func(fx *fileFix, n string) {
		if h := runtimeHeader(n); h != "" && fx.tried[h] && !fx.again[n] {
			fx.again[n] = true
			newNames = true
		}
	}
	// What the package's own headers or preambles declare is never
	// synthesized: cgo reports a preamble's own helper (go_cublas_err)
	// unknown while the preamble does not compile, and a made-up
	// declaration would clash with its definition. The names that
	// definition uses and nothing declares are what get synthesized.
	own := s.ownHeaderDecls(p)
	declared, _ := s.preambleNames(p.GoFiles)
	for n := range declared {
		own[n] = true
	}
	for file, names := range f.unknown {
		g := goFile(p, file)
		if g == "" {
			return false
		}
		fx := s.fix(p, g)
		for _, n := range names {
			if own[n] || served[n] {
				continue // the package's header declares it, once it compiles; or hiplint's, now
			}
			if !fx.names[n] {
				fx.names[n] = true
				newNames = true
			} else {
				stillUnknown(fx, n)
			}
		}
	}
	if s.inC[p.PkgPath] == nil {
		s.inC[p.PkgPath] = map[string]kind{}
	}
	inC := s.inC[p.PkgPath] // across rounds: a name the C code needs stays of its kind
	for file, names := range f.inC {
		g := goFile(p, file)
		if g == "" {
			return false
		}
		fx := s.fix(p, g)
		for n, k := range names {
			if own[n] || served[n] {
				continue
			}
			inC[n] = k
			if !fx.names[n] {
				fx.names[n] = true
				newNames = true
			} else {
				stillUnknown(fx, n)
			}
		}
	}
	if newNames && p.TypesInfo != nil {
		s.sameLibrary(p)
		// The runtime's own names are never synthesized: the first time
		// some are unknown, the file gets the runtime header that declares
		// them (hiplint's where the machine has none); only what that
		// header does not declare either is synthesized.
		for _, fx := range s.files {
			if fx.pkg != p.PkgPath {
				continue
			}
			for n := range fx.names {
				if h := runtimeHeader(n); h != "" && !fx.tried[h] && s.servable != nil && s.servable(h) {
					fx.tried[h] = true
					fx.includes = append(fx.includes, h)
				}
			}
		}
		// Every name of the package, declared from the use of all its files.
		var all []string
		for _, fx := range s.files {
			if fx.pkg == p.PkgPath {
				for n := range fx.names {
					all = append(all, n)
				}
			}
		}
		decls := infer(p.TypesInfo, p.Syntax, all, inC)
		for _, fx := range s.files {
			if fx.pkg == p.PkgPath && len(fx.names) > 0 {
				var names []string
				for n := range fx.names {
					if fx.synthesized(n) {
						names = append(names, n)
					}
				}
				fx.decls = text(decls, names, fx.synthesized)
			}
		}
		progress = true
	}
	return progress
}

// cSourceExt are the extensions of the C and C++ sources cgo compiles
// with a package.
var cSourceExt = map[string]bool{".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".m": true}

// emptySources empties, in the overlay, the C source of p the compiler
// named file, which includes the missing header, and every other C source
// of p that includes it too (the compiler stops at the first). It reports
// whether any is newly emptied; false when file is no C source of p.
func (s *Synth) emptySources(p *packages.Package, file, header string) bool {
	file = filepath.ToSlash(strings.TrimPrefix(file, "./"))
	own := false
	for _, o := range p.OtherFiles {
		if cSourceExt[filepath.Ext(o)] && (filepath.Base(o) == file || strings.HasSuffix(filepath.ToSlash(o), "/"+file)) {
			own = true
		}
	}
	if !own {
		return false
	}
	progress := false
	for _, o := range p.OtherFiles {
		if !cSourceExt[filepath.Ext(o)] {
			continue
		}
		if _, done := s.emptied[o]; done {
			continue
		}
		data, err := s.read(o)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			if n, _, ok := includeName(strings.TrimSpace(l)); ok && n == header {
				s.emptied[o] = emptiedSource{pkg: p.PkgPath, header: header}
				progress = true
				break
			}
		}
	}
	return progress
}

// sameLibrary adds to each file of p the C names it uses that belong to
// the library of a name cgo could not resolve (cufftPlan1d and CUFFT_R2C
// once cufftHandle was unknown): cgo stops at the first file that fails, so
// the other files' names would each cost a round. A runtime name, a name
// of cgo's own, and a name that the package's preambles spell themselves
// (declared there, or in a header of the package's own) are left to cgo.
func (s *Synth) sameLibrary(p *packages.Package) {
	fams := map[string]bool{}
	for _, fx := range s.files {
		if fx.pkg != p.PkgPath {
			continue
		}
		for n := range fx.names {
			if f := family(n); f != "" && runtimeHeader(n) == "" {
				fams[f] = true
			}
		}
	}
	if len(fams) == 0 {
		return
	}
	spelled := map[string]bool{}
	hasInclude := map[string]bool{}
	for _, g := range p.GoFiles {
		src, err := s.read(g)
		if err != nil {
			continue
		}
		lines, _ := preamble(src)
		for _, l := range lines {
			if _, _, ok := includeName(l.text); ok {
				hasInclude[g] = true
				continue
			}
			for _, w := range identRE.FindAllString(l.text, -1) {
				spelled[w] = true
			}
		}
	}
	own := s.ownHeaderDecls(p)
	for n := range own {
		spelled[n] = true
	}
	// The names of the same library that the preambles' own C code uses
	// and does not declare, of the kind their use there says (a type, a
	// constant; a function is left to the compiler's report): cgo stops at
	// the first file whose preamble fails, so each other file would cost a
	// round.
	declared, uses := s.preambleNames(p.GoFiles)
	if s.inC[p.PkgPath] == nil {
		s.inC[p.PkgPath] = map[string]kind{}
	}
	for _, g := range p.GoFiles {
		if !hasInclude[g] {
			continue
		}
		for n, k := range uses[g] {
			if k == kindFunc || !fams[family(n)] || runtimeHeader(n) != "" || declared[n] || own[n] || cgoBuiltin[n] {
				continue
			}
			s.fix(p, g).names[n] = true
			if _, ok := s.inC[p.PkgPath][n]; !ok {
				s.inC[p.PkgPath][n] = k
			}
			if s.fromC[p.PkgPath] == nil {
				s.fromC[p.PkgPath] = map[string]bool{}
			}
			s.fromC[p.PkgPath][n] = true
		}
	}
	for _, f := range p.Syntax {
		file := p.Fset.File(f.FileStart).Name()
		if !hasInclude[file] {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			name, isC := cgocall.CSelector(p.TypesInfo, sel)
			if !isC || !fams[family(name)] || runtimeHeader(name) != "" || spelled[name] || cgoBuiltin[name] {
				return true
			}
			if fx := s.fix(p, file); !fx.names[name] {
				fx.names[name] = true
			}
			return true
		})
	}
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// ownDeclRE finds the names a C header declares, roughly: functions
// (NAME followed by a parenthesis), macros, typedef names and the names
// after a struct or enum body.
var ownDeclRE = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\s*\(|#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)|}\s*([A-Za-z_][A-Za-z0-9_]*)\s*;|typedef[^;{]*?([A-Za-z_][A-Za-z0-9_]*)\s*;`)

// ownHeaderDecls returns the names the package's own C headers declare:
// cgo reports them unknown while such a header does not compile (it uses
// the missing library's types), and they must not be synthesized.
func (s *Synth) ownHeaderDecls(p *packages.Package) map[string]bool {
	out := map[string]bool{}
	for _, h := range p.OtherFiles {
		if !strings.HasSuffix(h, ".h") && !strings.HasSuffix(h, ".hpp") {
			continue
		}
		data, err := s.read(h)
		if err != nil {
			continue
		}
		for _, m := range ownDeclRE.FindAllSubmatch(data, -1) {
			for _, g := range m[1:] {
				if len(g) > 0 {
					out[string(g)] = true
				}
			}
		}
	}
	return out
}

// cgoBuiltin are the names cgo itself gives meaning to.
var cgoBuiltin = map[string]bool{"CString": true, "CBytes": true, "GoString": true, "GoStringN": true, "GoBytes": true}

// synthesized reports whether the file declares name itself rather than
// through a runtime header.
func (fx *fileFix) synthesized(name string) bool {
	h := runtimeHeader(name)
	return h == "" || !fx.tried[h] || fx.again[name]
}

// runtimeHeader returns the runtime header that declares name, by its
// prefix (hipX, HIP_: HIP's runtime; cudaX: CUDA's runtime; cuX, CU_,
// CUDA_: CUDA's driver), or "" for other names (cublasX, CUBLAS_, ...).
func runtimeHeader(name string) string {
	upperAt := func(i int) bool { return len(name) > i && (name[i] >= 'A' && name[i] <= 'Z') }
	switch {
	case strings.HasPrefix(name, "hip") && upperAt(3), strings.HasPrefix(name, "HIP_"):
		return "hip/hip_runtime_api.h"
	case strings.HasPrefix(name, "cuda") && upperAt(4):
		return "cuda_runtime_api.h"
	case strings.HasPrefix(name, "cu") && upperAt(2), strings.HasPrefix(name, "CU_"), strings.HasPrefix(name, "CUDA_"):
		return "cuda.h"
	}
	return ""
}

// served returns the header hiplint serves for an include by absolute
// path into a CUDA or ROCm tree: the part after its include directory,
// when hiplint ships it.
func (s *Synth) served(name string) (string, bool) {
	if !filepath.IsAbs(name) || s.servable == nil {
		return "", false
	}
	i := strings.LastIndex(name, "/include/")
	if i < 0 {
		return "", false
	}
	tail := name[i+len("/include/"):]
	lower := strings.ToLower(name[:i])
	if !strings.Contains(lower, "cuda") && !strings.Contains(lower, "rocm") && !strings.Contains(lower, "hip") && !strings.HasPrefix(name, "/usr/") && !strings.HasPrefix(name, "/opt/") {
		return "", false
	}
	return tail, s.servable(tail)
}

// platformDefine is what hipcc's command line gives HIP's header.
const platformDefine = "#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_HCC__) && !defined(__HIP_PLATFORM_NVCC__)\n" +
	"#define __HIP_PLATFORM_AMD__\n#endif\n"

// Overlay returns the caller's overlay with every repaired file rewritten,
// writing the generated headers it includes.
func (s *Synth) Overlay() (map[string][]byte, error) {
	out := make(map[string][]byte, len(s.overlay)+len(s.files))
	for k, v := range s.overlay {
		out[k] = v
	}
	for file, e := range s.emptied {
		out[file] = []byte("/* hiplint: emptied: it includes <" + e.header + ">, which the C compiler does not find */\n")
	}
	names := make([]string, 0, len(s.files))
	for n := range s.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, file := range names {
		fx := s.files[file]
		src, err := s.read(file)
		if err != nil {
			return nil, err
		}
		if len(fx.aside) > 0 {
			src = rewriteAside(src, fx.aside)
			out[file] = src
		}
		lines, _ := preamble(src)
		if len(lines) == 0 {
			continue
		}
		texts := map[int]string{}
		if fx.force {
			texts[lines[0].line] = "#error hiplint: tier 3 forced (HIPLINT_TIER3=force)"
			out[file] = rewrite(src, lines, texts)
			continue
		}
		for l := range fx.blank {
			texts[l] = ""
		}
		for l, tail := range fx.absolute {
			texts[l] = s.include(fx.pkg, tail)
		}
		pinned := s.pinned[fx.pkg] != nil
		if pinned {
			// Every include of a runtime header hiplint ships: hiplint's.
			for _, l := range lines {
				if _, done := texts[l.line]; done {
					continue
				}
				if name, angle, ok := includeName(l.text); ok && s.pinnable(name, angle) {
					if tail, ok := s.served(name); ok {
						name = tail
					}
					texts[l.line] = s.include(fx.pkg, name)
				}
			}
		}
		wrap := map[int]*strings.Builder{}
		at := func(l int) *strings.Builder {
			if wrap[l] == nil {
				wrap[l] = &strings.Builder{}
				wrap[l].WriteString("/* Generated by hiplint (internal/synth) for " + filepath.Base(file) + " */\n")
			}
			return wrap[l]
		}
		if fx.platform != 0 && !pinned { // hiplint's declarations need no platform macro
			at(fx.platform).WriteString(platformDefine)
		}
		target, stubTarget := 0, false
		if fx.decls != "" || len(fx.includes) > 0 {
			// In place of the first missing header the file includes, as
			// the header would have declared them (a header of the
			// package's own included after it uses them too), else after
			// the file's last include.
			incs, depth := includeLines(lines)
			for i, inc := range incs {
				if _, stubbed := fx.blank[inc.line]; stubbed && depth[i] == 0 {
					target = inc.line
					stubTarget = true
					break
				}
			}
			for i, inc := range incs {
				if !stubTarget && (depth[i] == 0 || target == 0) {
					target = inc.line
				}
			}
			if target == 0 {
				s.giveUp(fx.pkg, "no #include to place declarations after")
				return s.Overlay()
			}
			at(target)
		}
		for _, l := range slices.Sorted(mapKeys(wrap)) {
			b := wrap[l]
			if t, ok := texts[l]; ok {
				if t != "" {
					b.WriteString(t + "\n")
				}
			} else if i := slices.IndexFunc(lines, func(pl preambleLine) bool { return pl.line == l }); i >= 0 {
				b.WriteString(absInclude(lines[i].text, filepath.Dir(file)) + "\n")
			}
			if l == target {
				if stubTarget {
					// The runtime's headers the file includes, which the
					// declarations may use, if they come later.
					b.WriteString("#include <stddef.h>\n#include <stdint.h>\n")
					for _, inc := range lines {
						if name, angle, ok := includeName(inc.text); ok && angle && inc.line > l && s.servable != nil && s.servable(name) {
							b.WriteString(s.include(fx.pkg, name) + "\n")
						}
					}
				}
				for _, h := range fx.includes {
					b.WriteString(s.include(fx.pkg, h) + "\n")
				}
				if fx.decls != "" {
					b.WriteString("/* C names the package uses and nothing declares, declared from their use in Go */\n")
					b.WriteString(fx.decls)
				}
			}
			path, err := s.generate(generatedName, []byte(b.String()))
			if err != nil {
				return nil, err
			}
			if strings.ContainsAny(path, "\"\n") {
				return nil, fmt.Errorf("generated header %q cannot be included", path)
			}
			texts[l] = `#include "` + path + `"`
		}
		out[file] = rewrite(src, lines, texts)
	}
	return out, nil
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// absInclude returns an #include line as it must read from a generated
// header in another directory: a quoted include of a file of the package's
// directory names it by its absolute path.
func absInclude(text, dir string) string {
	name, angle, ok := includeName(text)
	if !ok || angle || filepath.IsAbs(name) {
		return strings.TrimSpace(text)
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil || strings.ContainsAny(p, "\"\n") {
		return strings.TrimSpace(text)
	}
	return `#include "` + p + `"`
}

// A Rescue says what synthesis did for one package that now loads with
// its C types.
type Rescue struct {
	Path     string
	Cause    string   // the first error of its failed cgo step
	Stubbed  []string // missing headers, emptied
	Served   []string // absolute includes, "path -> header"
	Platform bool     // __HIP_PLATFORM_AMD__ defined
	Includes []string // runtime headers included for the runtime's names
	Names    []string // names declared from their use
	// InC says some of Names were declared from their use in the
	// package's preambles' C code (a helper of its own that uses them).
	InC     bool
	Emptied []string // C sources of the package's own emptied (they include a missing header), base names
	// Pinned are the runtime headers the package includes that hiplint's
	// declarations served instead of the machine's, because the machine's
	// lacked the names Lacking, which hiplint's have.
	Pinned  []string
	Lacking []string
	// Aside are the imports not found that were set aside so that cgo
	// could run (go list runs none on a package with such an import).
	Aside []string
}

// Rescued returns what synthesis did for each package of pkgs that it
// repaired and that now loads, by package path.
func (s *Synth) Rescued(pkgs []*packages.Package) []Rescue {
	byPath := map[string]*Rescue{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if _, isFailed := failed(p); isFailed || byPath[p.PkgPath] != nil || s.force {
			return
		}
		if _, ok := s.gaveUp[p.PkgPath]; ok || !s.touches(p.PkgPath) {
			return
		}
		r := &Rescue{Path: p.PkgPath, Cause: s.cause[p.PkgPath]}
		names := map[string]bool{}
		for file, fx := range s.files {
			if fx.pkg != p.PkgPath {
				continue
			}
			for _, h := range fx.blank {
				r.Stubbed = append(r.Stubbed, h)
			}
			src, _ := s.read(file)
			lines, _ := preamble(src)
			for l, tail := range fx.absolute {
				if i := slices.IndexFunc(lines, func(pl preambleLine) bool { return pl.line == l }); i >= 0 {
					name, _, _ := includeName(lines[i].text)
					r.Served = append(r.Served, name+" -> <"+tail+">")
				}
			}
			for path := range fx.aside {
				r.Aside = append(r.Aside, path)
			}
			r.Platform = r.Platform || (fx.platform != 0 && s.pinned[fx.pkg] == nil)
			if s.pinned[fx.pkg] != nil {
				for _, l := range lines {
					if name, angle, ok := includeName(l.text); ok && s.pinnable(name, angle) {
						if tail, ok := s.served(name); ok {
							name = tail
						}
						r.Pinned = append(r.Pinned, name)
					}
				}
			}
			r.Includes = append(r.Includes, fx.includes...)
			for n := range fx.names {
				if fx.synthesized(n) {
					names[n] = true
				}
			}
		}
		for file, e := range s.emptied {
			if e.pkg == p.PkgPath {
				r.Emptied = append(r.Emptied, filepath.Base(file))
				r.Stubbed = append(r.Stubbed, e.header)
			}
		}
		sort.Strings(r.Emptied)
		if pn := s.pinned[p.PkgPath]; pn != nil {
			r.Lacking = pn.lacking
		}
		for n := range names {
			r.Names = append(r.Names, n)
			r.InC = r.InC || s.fromC[p.PkgPath][n]
		}
		sort.Strings(r.Names)
		r.Stubbed = slices.Compact(slices.Sorted(slices.Values(r.Stubbed)))
		r.Served = slices.Compact(slices.Sorted(slices.Values(r.Served)))
		r.Includes = slices.Compact(slices.Sorted(slices.Values(r.Includes)))
		r.Pinned = slices.Compact(slices.Sorted(slices.Values(r.Pinned)))
		r.Aside = slices.Compact(slices.Sorted(slices.Values(r.Aside)))
		byPath[p.PkgPath] = r
	})
	out := make([]Rescue, 0, len(byPath))
	for _, r := range byPath {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Note is the line hiplint prints about a rescued package.
func (r Rescue) Note() string {
	var did []string
	if len(r.Aside) > 0 {
		did = append(did, "ran cgo with its imports that were not found set aside ("+strings.Join(r.Aside, ", ")+
			"; the code that uses them is analyzed as with any import not found)")
	}
	if len(r.Pinned) > 0 {
		list := r.Lacking
		more := ""
		if len(list) > 8 {
			list, more = list[:8], fmt.Sprintf(", and %d more", len(r.Lacking)-8)
		}
		did = append(did, fmt.Sprintf("the machine's runtime header lacks %d C names the package uses that hiplint's declarations have (%s%s): served <%s> by hiplint's declarations instead of the machine's",
			len(r.Lacking), strings.Join(list, ", "), more, strings.Join(r.Pinned, ">, <")))
	}
	if r.Platform {
		did = append(did, "defined __HIP_PLATFORM_AMD__ for HIP's header, as hipcc does")
	}
	for _, s := range r.Served {
		did = append(did, "served "+s+" by hiplint's declarations where the machine has none")
	}
	if len(r.Stubbed) > 0 {
		did = append(did, "stubbed <"+strings.Join(r.Stubbed, ">, <")+">")
	}
	if len(r.Emptied) > 0 {
		did = append(did, "emptied its C sources "+strings.Join(r.Emptied, ", ")+" (they include a missing header; hiplint reads only Go)")
	}
	if len(r.Includes) > 0 {
		did = append(did, "included <"+strings.Join(r.Includes, ">, <")+"> for the runtime's names it uses")
	}
	if len(r.Names) > 0 {
		list := r.Names
		more := ""
		if len(list) > 8 {
			list, more = list[:8], fmt.Sprintf(", and %d more", len(r.Names)-8)
		}
		where := "in Go"
		if r.InC {
			where = "in Go and in its preambles' C code"
		}
		did = append(did, fmt.Sprintf("declared %d C names from their use %s (%s%s)", len(r.Names), where, strings.Join(list, ", "), more))
	}
	return fmt.Sprintf("%s: note: cgo failed (%s); %s: analyzed with the runtime's C types", r.Path, r.Cause, strings.Join(did, "; "))
}

// canPin reports whether hiplint's declarations can be served in place of
// the machine's headers (SetHeaders, and the pinned copy installed).
func (s *Synth) canPin() bool {
	h := s.headers
	if h.Machine == nil || h.Declares == nil || h.Pinned == nil || s.servable == nil {
		return false
	}
	if s.pinDir == "" && s.pinErr == nil {
		s.pinDir, s.pinErr = h.Pinned()
		if s.pinErr == nil && strings.ContainsAny(s.pinDir, "\"\n") {
			s.pinErr = fmt.Errorf("%q cannot be included", s.pinDir)
		}
	}
	return s.pinErr == nil
}

// unknownNames returns every C name f says nothing declares.
func unknownNames(f *failure) map[string]bool {
	out := map[string]bool{}
	for _, names := range f.unknown {
		for _, n := range names {
			out[n] = true
		}
	}
	for _, names := range f.inC {
		for n := range names {
			out[n] = true
		}
	}
	return out
}

// tryPin serves hiplint's declarations to p in place of the machine's
// runtime headers when p's cgo step failed on runtime names that the
// machine's header, found by the compiler, lacks and hiplint's has: the
// header is older than the API p uses (HIP 5.2 and the graph memory
// nodes). Every include of a header hiplint ships in p's preambles is then
// rewritten to hiplint's copy (Overlay). It returns the names hiplint's
// declarations now serve (which the rest of the repair leaves alone) and
// whether the repairs changed.
//
// A package served so that fails again on a runtime name hiplint's
// declarations were to serve, or on one the machine's header did declare
// (it lacked none of them before), gets the machine's header back and
// never tries again: (nil, true). Its names then take synthesis's path.
func (s *Synth) tryPin(p *packages.Package, f *failure) (map[string]bool, bool) {
	path := p.PkgPath
	unknown := unknownNames(f)
	if pn := s.pinned[path]; pn != nil {
		for n := range unknown {
			if runtimeHeader(n) != "" && (!pn.known[n] || slices.Contains(pn.lacking, n)) {
				if debug() {
					fmt.Fprintf(os.Stderr, "synth: %s: hiplint's declarations do not serve C.%s: back to the machine's header\n", path, n)
				}
				s.unpin(path)
				return nil, true
			}
		}
		return map[string]bool{}, false
	}
	if s.noPin[path] || !s.canPin() {
		return map[string]bool{}, false
	}
	var lacking []string
	for n := range unknown {
		if h := runtimeHeader(n); h != "" && s.headers.Machine(h) && s.headers.Declares(n) {
			lacking = append(lacking, n)
		}
	}
	if len(lacking) == 0 {
		return map[string]bool{}, false
	}
	// The files whose preambles include a header hiplint ships: their
	// includes are rewritten. None: nothing to serve through.
	var files []string
	for _, g := range p.GoFiles {
		src, err := s.read(g)
		if err != nil {
			continue
		}
		lines, _ := preamble(src)
		for _, l := range lines {
			if name, angle, ok := includeName(l.text); ok && s.pinnable(name, angle) {
				files = append(files, g)
				break
			}
		}
	}
	if len(files) == 0 {
		return map[string]bool{}, false
	}
	sort.Strings(lacking)
	s.pinned[path] = &pin{lacking: lacking, known: unknown}
	served := map[string]bool{}
	for _, n := range lacking {
		served[n] = true
	}
	for _, g := range files {
		s.fix(p, g)
	}
	if debug() {
		fmt.Fprintf(os.Stderr, "synth: %s: the machine's header lacks %s: serving hiplint's declarations\n", path, strings.Join(lacking, ", "))
	}
	return served, true
}

// pinnable reports whether an include of name (angle: in angle brackets)
// is rewritten to hiplint's declarations in a package served them: a
// runtime header hiplint ships, or an absolute include into a CUDA or ROCm
// tree of one.
func (s *Synth) pinnable(name string, angle bool) bool {
	if _, ok := s.served(name); ok {
		return true
	}
	return angle && s.servable(name)
}

// unpin gives the package path the machine's headers back, for good.
func (s *Synth) unpin(path string) {
	delete(s.pinned, path)
	s.noPin[path] = true
	for name, fx := range s.files {
		if fx.pkg == path && fx.empty() {
			delete(s.files, name)
		}
	}
}

// empty reports whether the file has no repair of its own.
func (fx *fileFix) empty() bool {
	return len(fx.blank) == 0 && len(fx.absolute) == 0 && fx.platform == 0 && len(fx.names) == 0 &&
		len(fx.includes) == 0 && fx.decls == "" && !fx.force && len(fx.aside) == 0
}

// include returns the #include line of the runtime header name, which
// hiplint ships, for a file of the package path: hiplint's copy by its
// absolute path where the package is served hiplint's declarations.
func (s *Synth) include(path, name string) string {
	if s.pinned[path] != nil {
		return `#include "` + filepath.Join(s.pinDir, filepath.FromSlash(name)) + `"`
	}
	return "#include <" + name + ">"
}
