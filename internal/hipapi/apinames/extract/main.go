// Command extract writes the name lists of the HIP runtime API, the CUDA
// runtime API and the CUDA driver API (internal/hipapi/apinames/*.txt) that
// TestRuntimeDeclarationsCoverage holds hiplint's own declarations
// (testdata/include) to. It reads local copies of the sources and needs a C
// preprocessor (cc -E) for the HIP headers; the test itself needs neither.
//
// Usage (from the module root), with the lists' sources: Debian's package
// unpacked (apt-get download libamdhip64-dev; dpkg -x *.deb DIR) and git
// directories of ROCm/HIP, NVIDIA/cuda-python (or a fork with its history,
// such as leofang/cuda-python) and ROCm/HIPIFY:
//
//	go run ./internal/hipapi/apinames/extract \
//	  -hip52 DIR/usr/include -hip52-version "Debian libamdhip64-dev 5.2.3-8" \
//	  -hip-git HIP.git -hip-commit c5e11fcac8249ce4f7e70157588ff9661a870b59 \
//	  -cudapython-git CUDA-PYTHON.git \
//	  -cuda12-commit a93b760e01a16c7f80e7b802095a1d4d069c001e \
//	  -cuda11-commit d375d2218cc937f171186ffb93caf637cc5bc29e \
//	  -hipify-git HIPIFY.git -hipify-commit 014177bc2e434ce3e834aa4f3d0e2abb1efa9796
//
// With -skeletons FILE (the missing names, as TestRuntimeDeclarationsCoverage
// reports them) it also writes, under -skeleton-dir, the declarations of the
// sources that provide them, one file per header, for review.
//
// What counts as the API (see docs/architecture.md, "Runtime declarations"):
//
//   - HIP: what a C translation unit sees (cc -E -D__HIP_PLATFORM_AMD__, no
//     C++) of hip_runtime_api.h, driver_types.h, texture_types.h,
//     surface_types.h, hip_ext.h, hip_deprecated.h, library_types.h,
//     hip_version.h, hip_common.h, hip_runtime.h (its include guard) and the
//     per-thread entry points (amd_detail/amd_hip_runtime_pt_api.h), in
//     Debian's HIP 5.2.3 and in the ROCm/HIP repository. Left out: C++-only
//     declarations (templates, overloads, hipLaunchKernelGGL: cgo is C),
//     device-side headers (hip_fp16.h, hip_bf16.h, math and device functions,
//     cooperative groups, vector types), hiprtc.h (a separate library),
//     hip_gl_interop.h (needs GL headers), the tracing internals of
//     hip_prof_str.h, and compiler-internal or attribute macros (names that
//     begin with two underscores, except include guards and the per-thread
//     default-stream switch, and the attribute helpers in hipExcludedMacros).
//   - CUDA: the C declarations of NVIDIA/cuda-python's bindings of CUDA 12.9
//     and CUDA 11.8 (cydriver/ccuda for the driver API, cyruntime/ccudart for
//     the runtime API), with the names of ROCm/HIPIFY's CUDA driver and
//     runtime tables that are not marked removed from CUDA. Left out: graphics
//     interop (OpenGL, EGL, VDPAU, Direct3D, NvSci: they need the platform's
//     headers), device-side names (the math constants CUDART_*, the device
//     runtime's parameter buffers), C++-only templates
//     (cudaOccupancyMaxPotentialBlockSize*), and compiler macros (__CUDACC__).
//
// Where both CUDA versions declare a struct, its fields are CUDA 12.9's; an
// enum constant or macro value is CUDA 12.9's where both have one. Likewise
// the ROCm/HIP repository's fields and values win over HIP 5.2.3's.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// An entry is one name of an API: its kind (func, enum, field, typedef,
// macro, struct, union, enumtype) and, for enum constants and integer
// macros, its value.
type entry struct {
	kind, name string
	value      string // "" when unknown or not an integer
}

type list struct {
	sources []string
	// decls are the declarations of the sources, in order, for -skeletons;
	// rec collects the names the declaration being read provides.
	decls   []decl
	rec     *[]string
	entries map[string]entry // by kind+" "+name
	// fieldsOf records which source gave a struct its fields, so that a
	// later (preferred) source replaces rather than merges them.
	fieldsOf map[string]string
	opaque   map[string]bool // opaque struct tags: listed nowhere
}

func (l *list) has(kind, name string) bool {
	_, ok := l.entries[kind+" "+name]
	return ok
}

func newList() *list {
	return &list{entries: map[string]entry{}, fieldsOf: map[string]string{}, opaque: map[string]bool{}}
}

// add records e; a value from a preferred source (prefer) replaces one from
// an earlier source.
func (l *list) add(e entry, prefer bool) {
	k := e.kind + " " + e.name
	if l.rec != nil {
		*l.rec = append(*l.rec, k)
	}
	old, ok := l.entries[k]
	if ok && (e.value == "" || (!prefer && old.value != "")) {
		return
	}
	l.entries[k] = e
}

// addFields records the fields of a struct from source src. A preferred
// source replaces the fields an earlier source gave the struct: a struct's
// layout is one version's, never a mix.
func (l *list) addFields(typ string, fields []string, src string, prefer bool) {
	if prev, ok := l.fieldsOf[typ]; ok && prev != src {
		if !prefer {
			return
		}
		for k, e := range l.entries {
			if e.kind == "field" && strings.HasPrefix(e.name, typ+".") {
				delete(l.entries, k)
			}
		}
	}
	l.fieldsOf[typ] = src
	for _, f := range fields {
		l.add(entry{kind: "field", name: typ + "." + f}, prefer)
	}
}

// A decl is one declaration of a source as C text, with the names it
// provides (kind name).
type decl struct {
	src, header, text string
	names             []string
}

// record runs read and keeps text as the declaration of what it added.
func (l *list) record(src, header, text string, read func()) {
	var names []string
	l.rec = &names
	read()
	l.rec = nil
	if len(names) > 0 {
		l.decls = append(l.decls, decl{src: src, header: header, text: text, names: names})
	}
}

func (l *list) write(path, title string) error {
	// A name that one version declares as a function, type or enum constant
	// and another defines as a macro for one (ROCm 6's #define
	// hipDeviceProp_t hipDeviceProp_tR0600) is listed once, as the function,
	// type or constant: either declaration passes the check.
	for k, e := range l.entries {
		if e.kind == "macro" && (l.has("func", e.name) || l.has("typedef", e.name) || l.has("enum", e.name)) {
			delete(l.entries, k)
		}
	}
	var keys []string
	for k := range l.entries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := l.entries[keys[i]], l.entries[keys[j]]
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.name < b.name
	})
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n", title)
	fmt.Fprintf(&b, "# Generated by go run ./internal/hipapi/apinames/extract (see its doc comment); do not edit.\n")
	fmt.Fprintf(&b, "# One name a line: kind name [= value]. Kinds: func, enum (constant), field (type.member),\n")
	fmt.Fprintf(&b, "# typedef, macro, struct, union (tags), enumtype (enum tag).\n")
	for _, s := range l.sources {
		fmt.Fprintf(&b, "# source: %s\n", s)
	}
	for _, k := range keys {
		e := l.entries[k]
		if e.value != "" {
			fmt.Fprintf(&b, "%s %s = %s\n", e.kind, e.name, e.value)
		} else {
			fmt.Fprintf(&b, "%s %s\n", e.kind, e.name)
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func main() {
	hip52 := flag.String("hip52", "", "include directory of Debian's libamdhip64-dev (holds hip/)")
	hip52Version := flag.String("hip52-version", "Debian libamdhip64-dev 5.2.3-8", "what -hip52 is")
	hipGit := flag.String("hip-git", "", "git directory of github.com/ROCm/HIP")
	hipCommit := flag.String("hip-commit", "HEAD", "commit of -hip-git")
	cpGit := flag.String("cudapython-git", "", "git directory of github.com/NVIDIA/cuda-python (or a fork with its history)")
	cuda12 := flag.String("cuda12-commit", "", "cuda-python commit whose bindings are CUDA 12.x")
	cuda11 := flag.String("cuda11-commit", "", "cuda-python commit whose bindings are CUDA 11.x")
	hipifyGit := flag.String("hipify-git", "", "git directory of github.com/ROCm/HIPIFY")
	hipifyCommit := flag.String("hipify-commit", "HEAD", "commit of -hipify-git")
	out := flag.String("out", "internal/hipapi/apinames", "output directory")
	skeletons := flag.String("skeletons", "", "a file of missing names (lines 'kind name...', as TestRuntimeDeclarationsCoverage reports them): write C declarations that provide them to -skeleton-dir, for review")
	skeletonDir := flag.String("skeleton-dir", "/tmp/hipapi-skeletons", "where -skeletons writes")
	flag.Parse()
	if *hip52 == "" || *hipGit == "" || *cpGit == "" || *cuda12 == "" || *cuda11 == "" || *hipifyGit == "" {
		flag.Usage()
		os.Exit(2)
	}

	// HIP.
	hip := newList()
	hip.sources = append(hip.sources, *hip52Version+" (/usr/include/hip)")
	if err := extractHIP(hip, *hip52, "hip52", false); err != nil {
		log.Fatal(err)
	}
	commit := revParse(*hipGit, *hipCommit)
	tmp, err := os.MkdirTemp("", "hipapi-extract")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	archive := exec.Command("sh", "-c", fmt.Sprintf("git --git-dir=%q archive %s include | tar -x -C %q", *hipGit, commit, tmp))
	if o, err := archive.CombinedOutput(); err != nil {
		log.Fatalf("git archive: %v\n%s", err, o)
	}
	hip.sources = append(hip.sources, fmt.Sprintf("github.com/ROCm/HIP %s (%s) include/hip", commit, describe(*hipGit, commit)))
	if err := extractHIP(hip, filepath.Join(tmp, "include"), "rocm", true); err != nil {
		log.Fatal(err)
	}
	if err := hip.write(filepath.Join(*out, "hip.txt"), "The HIP runtime API: every name a C program sees on the AMD platform."); err != nil {
		log.Fatal(err)
	}

	// CUDA.
	drv, rt := newList(), newList()
	c11, c12 := revParse(*cpGit, *cuda11), revParse(*cpGit, *cuda12)
	for _, l := range []*list{drv, rt} {
		l.sources = append(l.sources,
			fmt.Sprintf("github.com/NVIDIA/cuda-python %s (CUDA 11.8 bindings)", c11),
			fmt.Sprintf("github.com/NVIDIA/cuda-python %s (CUDA 12.9 bindings)", c12))
	}
	for _, v := range []struct {
		commit string
		prefer bool
	}{{c11, false}, {c12, true}} {
		// One family's files are read as one: a function's types may be
		// declared in another file (cyruntime_types.pxi), and a tag is
		// written with its keyword in C.
		var driver, runtime strings.Builder
		for _, f := range cudaPythonFiles(*cpGit, v.commit) {
			src := gitShow(*cpGit, v.commit, f.path)
			if f.driver {
				driver.WriteString(src + "\n")
			} else {
				runtime.WriteString(src + "\n")
			}
		}
		parsePXD(drv, driver.String(), v.commit, v.prefer)
		parsePXD(rt, runtime.String(), v.commit, v.prefer)
	}
	hc := revParse(*hipifyGit, *hipifyCommit)
	for _, l := range []*list{drv, rt} {
		l.sources = append(l.sources, fmt.Sprintf("github.com/ROCm/HIPIFY %s (%s) src/CUDA2HIP_{Driver,Runtime}_API_{functions,types}.cpp", hc, describe(*hipifyGit, hc)))
	}
	for _, f := range []struct {
		file string
		l    *list
	}{
		{"src/CUDA2HIP_Driver_API_functions.cpp", drv},
		{"src/CUDA2HIP_Driver_API_types.cpp", drv},
		{"src/CUDA2HIP_Runtime_API_functions.cpp", rt},
		{"src/CUDA2HIP_Runtime_API_types.cpp", rt},
	} {
		parseHIPIFY(f.l, gitShow(*hipifyGit, hc, f.file), strings.HasSuffix(f.file, "functions.cpp"))
	}
	for _, g := range cudaGuards["driver"] {
		drv.add(entry{kind: "macro", name: g}, false)
	}
	for _, g := range cudaGuards["runtime"] {
		rt.add(entry{kind: "macro", name: g}, false)
	}
	if *skeletons != "" {
		missing := readMissing(*skeletons)
		os.MkdirAll(*skeletonDir, 0o755)
		writeSkeletons(hip, "rocm", missing, filepath.Join(*skeletonDir, "hip"))
		writeSkeletons(drv, c12, missing, filepath.Join(*skeletonDir, "cuda_driver"))
		writeSkeletons(rt, c12, missing, filepath.Join(*skeletonDir, "cuda_runtime"))
	}
	if err := drv.write(filepath.Join(*out, "cuda_driver.txt"), "The CUDA driver API (cuda.h, cudaProfiler.h): every name a C program sees."); err != nil {
		log.Fatal(err)
	}
	if err := rt.write(filepath.Join(*out, "cuda_runtime.txt"), "The CUDA runtime API (cuda_runtime.h and the headers it includes, library_types.h, cuda_profiler_api.h): every name a C program sees."); err != nil {
		log.Fatal(err)
	}
}

func git(dir string, args ...string) string {
	out, err := exec.Command("git", append([]string{"--git-dir=" + dir}, args...)...).Output()
	if err != nil {
		log.Fatalf("git %v in %s: %v", args, dir, err)
	}
	return string(out)
}

func revParse(dir, rev string) string {
	return strings.TrimSpace(git(dir, "rev-parse", rev+"^{commit}"))
}

func describe(dir, commit string) string {
	out, err := exec.Command("git", "--git-dir="+dir, "describe", "--tags", "--always", commit).Output()
	if err != nil {
		return strings.TrimSpace(git(dir, "show", "-s", "--format=%cs", commit))
	}
	return strings.TrimSpace(string(out)) + ", " + strings.TrimSpace(git(dir, "show", "-s", "--format=%cs", commit))
}

func gitShow(dir, commit, path string) string { return git(dir, "show", commit+":"+path) }

// --- HIP: the C view of the real headers, through the preprocessor ---------

// hipFiles are the headers (relative to hip/) whose declarations are the
// runtime API.
var hipFiles = map[string]bool{
	"hip_runtime_api.h": true, "driver_types.h": true, "texture_types.h": true,
	"surface_types.h": true, "hip_ext.h": true, "hip_deprecated.h": true,
	"library_types.h": true, "hip_version.h": true, "hip_common.h": true,
	"hip_runtime.h": true, "amd_detail/amd_hip_runtime_pt_api.h": true,
	"hip_texture_types.h": true,
}

// hipExcludedMacros are attribute and annotation helpers of the headers:
// not API, and defined differently by each compiler.
var hipExcludedMacros = map[string]bool{
	"DEPRECATED": true, "DEPRECATED_MSG": true, "HIP_DEPRECATED_MSG": true, "HIP_DEPRECATED": true,
	"__dparm": true, "HIP_PUBLIC_API": true, "HIP_INTERNAL_EXPORTED_API": true,
	"__HIP_NODISCARD": true, "hipLaunchKernelGGL": true, "HIP_KERNEL_NAME": true,
	"HIP_SYMBOL": true, "HIP_DYNAMIC_SHARED": true, "HIP_DYNAMIC_SHARED_ATTRIBUTE": true,
	"HIP_ENABLE_DEFERRED_LAUNCH": true, "HIP_ENABLE_PRINTF": true,
}

func extractHIP(l *list, root, tag string, prefer bool) error {
	stubs, err := os.MkdirTemp("", "hipstubs")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stubs)
	src := "#include <hip/hip_runtime_api.h>\n#include <hip/hip_ext.h>\n#include <hip/library_types.h>\n#include <hip/hip_runtime.h>\n"
	if _, err := os.Stat(filepath.Join(root, "hip", "hip_deprecated.h")); err == nil {
		src += "#include <hip/hip_deprecated.h>\n"
	}
	var pre []byte
	missing := regexp.MustCompile(`fatal error: ([^:]+): No such file`)
	for try := 0; ; try++ {
		cmd := exec.Command("cc", "-E", "-dD", "-x", "c", "-std=gnu11", "-D__HIP_PLATFORM_AMD__",
			"-I", root, "-I", stubs, "-")
		cmd.Stdin = strings.NewReader(src)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		pre, err = cmd.Output()
		if err == nil {
			break
		}
		// The ROCm/HIP repository lacks the generated hip_version.h and the
		// AMD implementation headers (they live in ROCm/clr): stand in
		// empty files, whose declarations are not part of the list.
		m := missing.FindStringSubmatch(stderr.String())
		if m == nil || try > 50 {
			return fmt.Errorf("cc -E: %v\n%s", err, stderr.String())
		}
		p := filepath.Join(stubs, m[1])
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	inScope := func(file string) bool {
		for f := range hipFiles {
			if strings.HasSuffix(file, "/hip/"+f) && strings.HasPrefix(file, root) {
				return true
			}
		}
		return false
	}
	parseC(l, string(pre), inScope, tag, prefer)
	return nil
}

var lineMarker = regexp.MustCompile(`^# (\d+) "([^"]*)"`)

// parseC reads preprocessed C (with -dD) and records the declarations and
// macros of the files inScope accepts.
func parseC(l *list, pre string, inScope func(string) bool, tag string, prefer bool) {
	file := ""
	// The in-scope code, in segments of one file each (a statement does
	// not span files), so that each declaration knows its header.
	type segment struct {
		file string
		code strings.Builder
	}
	var segs []*segment
	macros := map[string]string{}
	defs := map[string]string{}
	macroFile := map[string]string{}
	var macroOrder []string
	sc := bufio.NewScanner(strings.NewReader(pre))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if m := lineMarker.FindStringSubmatch(line); m != nil {
			file = m[2]
			continue
		}
		if strings.HasPrefix(line, "#define ") {
			if !inScope(file) {
				continue
			}
			def := strings.TrimPrefix(line, "#define ")
			name := def
			body := ""
			if i := strings.IndexAny(def, " ("); i >= 0 {
				name, body = def[:i], def[i:]
			}
			if strings.HasPrefix(body, "(") {
				body = "" // function-like
			}
			macros[name] = strings.TrimSpace(body)
			defs[name] = def
			macroFile[name] = headerName(file)
			macroOrder = append(macroOrder, name)
			continue
		}
		if strings.HasPrefix(line, "#") || !inScope(file) {
			continue
		}
		if len(segs) == 0 || segs[len(segs)-1].file != file {
			segs = append(segs, &segment{file: file})
		}
		seg := segs[len(segs)-1]
		seg.code.WriteString(line)
		seg.code.WriteString("\n")
	}
	consts := map[string]int64{}
	for _, seg := range segs {
		for _, stmt := range statements(seg.code.String()) {
			text := stmt + ";"
			if strings.HasSuffix(stmt, "}") && !strings.HasPrefix(stmt, "typedef") && !tagHeadRE.MatchString(stmt) {
				text = stmt
			}
			l.record(tag, headerName(seg.file), text, func() { parseStatement(l, stmt, consts, prefer, tag) })
		}
	}
	for _, name := range macroOrder {
		if excludedMacro(name) {
			continue
		}
		e := entry{kind: "macro", name: name}
		if strings.HasPrefix(name, "HIP_VERSION") {
			// The version is the release's, not the API's.
		} else if v, ok := evalC(macros[name], consts, macros, 0); ok {
			e.value = strconv.FormatInt(v, 10)
		}
		l.record(tag, macroFile[name], "#define "+defs[name], func() { l.add(e, prefer) })
	}
}

// headerName is a header's path from its include directory (hip/x.h).
func headerName(file string) string {
	if i := strings.LastIndex(file, "/hip/"); i >= 0 {
		return file[i+1:]
	}
	return filepath.Base(file)
}

func excludedMacro(name string) bool {
	if hipExcludedMacros[name] {
		return true
	}
	if strings.HasPrefix(name, "__") {
		// Include guards and the per-thread default-stream switch are
		// tested by user code; other double-underscore names are the
		// headers' internals.
		return !(strings.HasSuffix(name, "_H") || strings.HasSuffix(name, "_H__") ||
			strings.Contains(name, "PER_THREAD_DEFAULT_STREAM"))
	}
	return false
}

var attrRE = regexp.MustCompile(`__attribute__\s*\(\(`)

// stripAttributes removes __attribute__((...)), __declspec(...) and
// __asm__(...) from s.
func stripAttributes(s string) string {
	for _, kw := range []string{"__attribute__", "__declspec", "__asm__", "__asm", "_Alignas"} {
		for {
			i := strings.Index(s, kw)
			if i < 0 {
				break
			}
			j := i + len(kw)
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j >= len(s) || s[j] != '(' {
				s = s[:i] + s[i+len(kw):]
				continue
			}
			depth := 0
			k := j
			for ; k < len(s); k++ {
				if s[k] == '(' {
					depth++
				} else if s[k] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			s = s[:i] + " " + s[min(k+1, len(s)):]
		}
	}
	return s
}

// statements splits C code into top-level statements: declarations ending
// in ';' and function definitions ending in '}'.
func statements(code string) []string {
	code = stripAttributes(code)
	var out []string
	depth := 0
	start := 0
	for i := 0; i < len(code); i++ {
		switch code[i] {
		case '"':
			for i++; i < len(code) && code[i] != '"'; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		case '\'':
			for i++; i < len(code) && code[i] != '\''; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		case '(', '{', '[':
			depth++
		case ')', ']':
			depth--
		case '}':
			depth--
			if depth == 0 {
				s := code[start : i+1]
				head := s[:strings.Index(s, "{")]
				if strings.HasSuffix(strings.TrimSpace(head), ")") {
					out = append(out, norm(s))
					start = i + 1
				}
			}
		case ';':
			if depth == 0 {
				out = append(out, norm(code[start:i]))
				start = i + 1
			}
		}
	}
	return out
}

var spaces = regexp.MustCompile(`\s+`)

func norm(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

var (
	identRE   = regexp.MustCompile(`[A-Za-z_]\w*`)
	fnPtrRE   = regexp.MustCompile(`\(\s*\*\s*(?:const\s+)?([A-Za-z_]\w*)\s*\)`)
	tagHeadRE = regexp.MustCompile(`^(?:typedef\s+)?(?:const\s+)?(struct|union|enum)\s*([A-Za-z_]\w*)?\s*\{`)
)

// braceBody returns what is between the first '{' of s and its match, and
// what follows the match.
func braceBody(s string) (body, rest string) {
	i := strings.Index(s, "{")
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[i+1 : j], s[j+1:]
			}
		}
	}
	return s[i+1:], ""
}

// declName is the name a declarator declares: "(*name)(...)" or the last
// identifier before any array bounds or bit-field width.
func declName(d string) string {
	if m := fnPtrRE.FindStringSubmatch(d); m != nil {
		return m[1]
	}
	if i := strings.Index(d, "["); i >= 0 {
		d = d[:i]
	}
	if i := strings.Index(d, ":"); i >= 0 {
		d = d[:i]
	}
	if i := strings.Index(d, "="); i >= 0 {
		d = d[:i]
	}
	ids := identRE.FindAllString(d, -1)
	if len(ids) == 0 {
		return ""
	}
	return ids[len(ids)-1]
}

func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func parseStatement(l *list, s string, consts map[string]int64, prefer bool, src string) {
	if s == "" || strings.HasPrefix(s, "extern \"C\"") {
		return
	}
	if m := tagHeadRE.FindStringSubmatch(s); m != nil {
		kind, tag := m[1], m[2]
		body, rest := braceBody(s)
		var names []string
		for _, d := range splitTop(rest, ',') {
			if n := declName(d); n != "" {
				names = append(names, n)
			}
		}
		typedef := strings.HasPrefix(s, "typedef")
		if tag != "" {
			k := kind
			if kind == "enum" {
				k = "enumtype"
			}
			l.add(entry{kind: k, name: tag}, prefer)
		}
		if typedef {
			for _, n := range names {
				l.add(entry{kind: "typedef", name: n}, prefer)
			}
		}
		if kind == "enum" {
			parseEnum(l, body, consts, prefer)
			return
		}
		fields := memberNames(body)
		owners := names
		if !typedef || len(owners) == 0 {
			owners = nil
			if tag != "" {
				owners = []string{tag}
			}
		}
		for _, o := range owners {
			if strings.Contains(rest, "*") && typedef && !strings.Contains(strings.Split(rest, o)[0], o) {
				// typedef struct {...} T, *PT: fields belong to T only.
				if strings.Contains(strings.SplitN(rest, o, 2)[0], "*") {
					continue
				}
			}
			l.addFields(o, fields, src, prefer)
		}
		return
	}
	if strings.HasPrefix(s, "typedef") {
		if n := declName(s); n != "" {
			l.add(entry{kind: "typedef", name: n}, prefer)
		}
		return
	}
	if strings.HasPrefix(s, "struct ") || strings.HasPrefix(s, "union ") || strings.HasPrefix(s, "enum ") {
		if !strings.Contains(s, "(") {
			return // a forward declaration or a variable
		}
	}
	// A function: the identifier before the first top-level '('.
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			if depth == 0 {
				head := strings.TrimSpace(s[:i])
				if strings.HasSuffix(head, "*") && strings.HasPrefix(strings.TrimSpace(s[i+1:]), "*") {
					return
				}
				ids := identRE.FindAllString(head, -1)
				if len(ids) >= 2 && !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "*") &&
					!strings.HasPrefix(ids[len(ids)-1], "__") { // the compiler's (__hipPushCallConfiguration)
					l.add(entry{kind: "func", name: ids[len(ids)-1]}, prefer)
				}
				return
			}
			depth++
		case ')':
			depth--
		}
	}
}

// memberNames lists the members of a struct or union body; the members of
// an anonymous struct or union member are members of the enclosing one.
func memberNames(body string) []string {
	var out []string
	for _, m := range splitTop(body, ';') {
		if m == "" {
			continue
		}
		if tm := tagHeadRE.FindStringSubmatch(m); tm != nil {
			inner, rest := braceBody(m)
			if strings.TrimSpace(rest) == "" {
				out = append(out, memberNames(inner)...)
				continue
			}
			for _, d := range splitTop(rest, ',') {
				if n := declName(d); n != "" {
					out = append(out, n)
				}
			}
			continue
		}
		// "type a, *b, c[4]": the first declarator carries the type.
		parts := splitTop(m, ',')
		for i, d := range parts {
			if i == 0 {
				out = append(out, declName(d))
				continue
			}
			ids := identRE.FindAllString(strings.Split(d, "[")[0], -1)
			if len(ids) > 0 {
				out = append(out, ids[len(ids)-1])
			}
		}
	}
	return out
}

func parseEnum(l *list, body string, consts map[string]int64, prefer bool) {
	next := int64(0)
	known := true
	for _, item := range splitTop(body, ',') {
		name, expr, has := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		e := entry{kind: "enum", name: name}
		if has {
			v, ok := evalC(expr, consts, nil, 0)
			next, known = v, ok
		}
		if known {
			e.value = strconv.FormatInt(next, 10)
			consts[name] = next
		}
		l.add(e, prefer)
		next++
	}
}

var (
	castRE   = regexp.MustCompile(`\(\s*(?:const\s+)?(?:(?:unsigned|signed|int|long|short|char|size_t|u?int\d+_t|enum\s+\w+|[A-Za-z_]\w*_t)\s*)+\)`)
	suffixRE = regexp.MustCompile(`\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b`)
)

// evalC evaluates an integer C constant expression over enum constants and
// (object-like) macros.
func evalC(expr string, consts map[string]int64, macros map[string]string, depth int) (int64, bool) {
	expr = strings.TrimSpace(expr)
	if expr == "" || depth > 20 {
		return 0, false
	}
	expr = castRE.ReplaceAllString(expr, " ")
	expr = suffixRE.ReplaceAllString(expr, "$1")
	expr = strings.ReplaceAll(expr, "~", "^") // Go's unary ^ is C's ~
	x, err := parser.ParseExpr(expr)
	if err != nil {
		return 0, false
	}
	var ev func(ast.Expr) (int64, bool)
	ev = func(e ast.Expr) (int64, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind != token.INT {
				return 0, false
			}
			s := e.Value
			if len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9' {
				s = "0o" + s[1:]
			}
			v, err := strconv.ParseInt(s, 0, 64)
			if err != nil {
				u, err := strconv.ParseUint(s, 0, 64)
				return int64(u), err == nil
			}
			return v, true
		case *ast.Ident:
			if v, ok := consts[e.Name]; ok {
				return v, true
			}
			if body, ok := macros[e.Name]; ok {
				return evalC(body, consts, macros, depth+1)
			}
			return 0, false
		case *ast.ParenExpr:
			return ev(e.X)
		case *ast.UnaryExpr:
			v, ok := ev(e.X)
			switch e.Op {
			case token.SUB:
				return -v, ok
			case token.ADD:
				return v, ok
			case token.XOR: // Go's ^x is C's ~x
				return ^v, ok
			}
		case *ast.BinaryExpr:
			a, ok1 := ev(e.X)
			b, ok2 := ev(e.Y)
			if !ok1 || !ok2 {
				return 0, false
			}
			switch e.Op {
			case token.ADD:
				return a + b, true
			case token.SUB:
				return a - b, true
			case token.MUL:
				return a * b, true
			case token.QUO:
				if b != 0 {
					return a / b, true
				}
			case token.SHL:
				return a << uint(b), true
			case token.SHR:
				return a >> uint(b), true
			case token.OR:
				return a | b, true
			case token.AND:
				return a & b, true
			case token.XOR:
				return a ^ b, true
			}
		}
		return 0, false
	}
	return ev(x)
}

// --- CUDA: cuda-python's Cython declarations -------------------------------

type pxdFile struct {
	path   string
	driver bool
}

// cudaPythonFiles are the declaration files of the bindings at commit: the
// layout changed over cuda-python's history.
func cudaPythonFiles(dir, commit string) []pxdFile {
	all := strings.Fields(git(dir, "ls-tree", "-r", "--name-only", commit))
	has := map[string]bool{}
	for _, f := range all {
		has[f] = true
	}
	for _, layout := range [][]pxdFile{
		{{"cuda_bindings/cuda/bindings/cydriver.pxd.in", true}, {"cuda_bindings/cuda/bindings/cyruntime_types.pxi.in", false}, {"cuda_bindings/cuda/bindings/cyruntime.pxd.in", false}},
		{{"cuda/ccuda.pxd.in", true}, {"cuda/ccudart.pxd.in", false}},
	} {
		var got []pxdFile
		for _, f := range layout {
			if has[f.path] {
				got = append(got, f)
			}
		}
		if len(got) > 0 {
			return got
		}
	}
	log.Fatalf("no cuda-python declaration files at %s", commit)
	return nil
}

// cudaHeaders are the headers of cuda-python's `cdef extern from` blocks
// that are the runtime and driver APIs; "" is the top level, where the
// bindings declare the graphics interop types.
var cudaHeaders = map[string]bool{
	"cuda.h": true, "cudaProfiler.h": true, "vector_types.h": true, "driver_types.h": true,
	"surface_types.h": true, "texture_types.h": true, "library_types.h": true,
	"cuda_runtime_api.h": true, "device_types.h": true, "cuda_runtime.h": true,
}

// interop matches the names of graphics interop (OpenGL, EGL, VDPAU,
// Direct3D, NvSci): their declarations need the platform's headers.
var interop = regexp.MustCompile(`^(?:cu|cuda|CU|cuGraphics|cudaGraphics)_?(?:GL|EGL|Egl|egl|VDPAU|Vdpau|D3D|d3d|NvSci)|^(?:GL|EGL|Vdp|VDP)[A-Za-z_]|^CU_(?:GL|EGL|D3D|VDPAU)_|^cuda(?:GL|EGL|Egl|VDPAU|D3D)|^CUeglFrame|^CUegl|^cudaEgl|NvSci|EGLImage|EGLStream|EGLSync|EglFrame|_EGL_|^MAX_PLANES$`)

// cudaGuards are the include guards of the CUDA headers hiplint declares:
// code tests them (#ifndef __CUDA_RUNTIME_H__) to learn what is included.
// Neither the bindings nor HIPIFY record them; these are the headers' own.
var cudaGuards = map[string][]string{
	"driver":  {"__cuda_cuda_h__", "__cudaProfiler_h__"},
	"runtime": {"__CUDA_RUNTIME_H__", "__CUDA_RUNTIME_API_H__", "__DRIVER_TYPES_H__", "__VECTOR_TYPES_H__", "__SURFACE_TYPES_H__", "__TEXTURE_TYPES_H__", "__LIBRARY_TYPES_H__", "__DEVICE_TYPES_H__", "__CUDA_PROFILER_API_H__", "__DRIVER_FUNCTIONS_H__"},
}

var (
	pxdExtern  = regexp.MustCompile(`^cdef extern from "([^"]*)":`)
	pxdBlock   = regexp.MustCompile(`^(\s*)c(def|typedef) (struct|union|enum) (\w+):\s*$`)
	pxdMacro   = regexp.MustCompile(`^\s*cdef enum: (\w+) = (.+)$`)
	pxdTypedef = regexp.MustCompile(`^\s*ctypedef (.+)$`)
	pxdFunc    = regexp.MustCompile(`^cdef [^=]*?\b(\w+)\(`)
	pxdConst   = regexp.MustCompile(`^\s+(\w+) = (.+)$`)
)

func parsePXD(l *list, src, commit string, prefer bool) {
	type block struct {
		kind, name, header string
		typedef            bool // ctypedef enum X: a typedef of an untagged enum
		indent             int
		lines              []string
	}
	// First pass: the blocks, typedefs, functions and macros, in order.
	type item struct {
		b               *block
		what, line, hdr string
	}
	var items []item
	var cur *block
	header := ""
	anon := map[string]*block{}
	tags := map[string]string{}
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "{{") || t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if cur != nil && indent <= cur.indent {
			cur = nil
		}
		if m := pxdExtern.FindStringSubmatch(line); m != nil {
			header = m[1]
			continue
		}
		if indent == 0 && !strings.HasPrefix(line, "cdef extern") {
			header = "" // the top level again
		}
		if cur != nil {
			cur.lines = append(cur.lines, t)
			continue
		}
		if m := pxdMacro.FindStringSubmatch(line); m != nil {
			items = append(items, item{what: "macro", line: line, hdr: header})
			continue
		}
		if m := pxdBlock.FindStringSubmatch(line); m != nil {
			cur = &block{kind: m[3], name: m[4], header: header, typedef: m[2] == "typedef", indent: len(m[1])}
			if strings.HasPrefix(m[4], "anon_") {
				anon[m[4]] = cur
				continue
			}
			if m[4] != "void" && !strings.HasPrefix(m[4], "_") && !cur.typedef {
				tags[m[4]] = m[3]
			}
			items = append(items, item{b: cur, hdr: header})
			continue
		}
		if m := pxdTypedef.FindStringSubmatch(line); m != nil {
			items = append(items, item{what: "typedef", line: m[1], hdr: header})
			continue
		}
		if m := pxdFunc.FindStringSubmatch(line); m != nil && indent == 0 {
			items = append(items, item{what: "func", line: line, hdr: header})
		}
	}
	// tagged writes a pxd type as C: a struct, union or enum tag is named
	// with its keyword.
	tagged := func(s string) string {
		return identRE.ReplaceAllStringFunc(s, func(id string) string {
			if k, ok := tags[id]; ok {
				return k + " " + id
			}
			return id
		})
	}
	var members func(b *block, indent string) (text string, names []string)
	members = func(b *block, indent string) (string, []string) {
		var out strings.Builder
		var names []string
		for _, m := range b.lines {
			if m == "pass" {
				continue
			}
			ids := identRE.FindAllString(m, -1)
			if len(ids) >= 2 && strings.HasPrefix(ids[0], "anon_") && anon[ids[0]] != nil {
				a := anon[ids[0]]
				inner, innerNames := members(a, indent+"  ")
				n := declName(m)
				if strings.HasPrefix(n, "_anon_pod") {
					fmt.Fprintf(&out, "%s%s {\n%s%s};\n", indent, a.kind, inner, indent)
					names = append(names, innerNames...)
				} else {
					rest := strings.TrimSpace(strings.TrimPrefix(m, ids[0]))
					fmt.Fprintf(&out, "%s%s {\n%s%s} %s;\n", indent, a.kind, inner, indent, rest)
					names = append(names, n)
				}
				continue
			}
			fmt.Fprintf(&out, "%s%s;\n", indent, tagged(m))
			names = append(names, declName(m))
		}
		return out.String(), names
	}
	for _, it := range items {
		inScope := cudaHeaders[it.hdr]
		switch {
		case it.b != nil:
			b := it.b
			if b.name == "void" || !inScope || interop.MatchString(b.name) || strings.HasPrefix(b.name, "_") {
				continue
			}
			opaque := len(b.lines) == 1 && b.lines[0] == "pass"
			if b.kind == "enum" {
				var body strings.Builder
				for _, m := range b.lines {
					fmt.Fprintf(&body, "  %s,\n", m)
				}
				text := fmt.Sprintf("enum %s {\n%s};", b.name, body.String())
				if b.typedef {
					text = fmt.Sprintf("typedef enum {\n%s} %s;", body.String(), b.name)
				}
				l.record(commit, b.header, text, func() {
					if b.typedef {
						l.add(entry{kind: "typedef", name: b.name}, prefer)
					} else {
						l.add(entry{kind: "enumtype", name: b.name}, prefer)
					}
					for _, m := range b.lines {
						if c := pxdConst.FindStringSubmatch("  " + m); c != nil && !interop.MatchString(c[1]) {
							l.add(entry{kind: "enum", name: c[1], value: pxdValue(c[2])}, prefer)
						}
					}
				})
				continue
			}
			if opaque {
				// An opaque tag (struct CUctx_st) is no check: C accepts
				// any incomplete struct.
				l.opaque[b.name] = true
				continue
			}
			body, names := members(b, "  ")
			text := fmt.Sprintf("%s %s {\n%s};", b.kind, b.name, body)
			if b.typedef {
				text = fmt.Sprintf("typedef %s {\n%s} %s;", b.kind, body, b.name)
			}
			l.record(commit, b.header, text, func() {
				if b.typedef {
					l.add(entry{kind: "typedef", name: b.name}, prefer)
				} else {
					l.add(entry{kind: b.kind, name: b.name}, prefer)
				}
				l.addFields(b.name, names, commit, prefer)
			})
		case it.what == "macro":
			m := pxdMacro.FindStringSubmatch(it.line)
			if interop.MatchString(m[1]) {
				continue
			}
			l.record(commit, "macro", "#define "+m[1]+" "+m[2], func() {
				l.add(entry{kind: "macro", name: m[1], value: pxdValue(m[2])}, prefer)
			})
		case it.what == "typedef":
			n := declName(strings.TrimSuffix(it.line, " nogil"))
			if !inScope || n == "" || interop.MatchString(n) {
				continue
			}
			l.record(commit, it.hdr, "typedef "+tagged(it.line)+";", func() {
				l.add(entry{kind: "typedef", name: n}, prefer)
			})
		case it.what == "func":
			m := pxdFunc.FindStringSubmatch(it.line)
			if interop.MatchString(m[1]) || m[1] == "getLocalRuntimeVersion" { // the bindings' own helper
				continue
			}
			proto := strings.TrimPrefix(it.line, "cdef ")
			if i := strings.LastIndex(proto, ")"); i >= 0 {
				proto = proto[:i+1]
			}
			l.record(commit, "func", tagged(proto)+";", func() {
				l.add(entry{kind: "func", name: m[1]}, prefer)
			})
		}
	}
}

func pxdValue(s string) string {
	s = strings.TrimSpace(s)
	if v, ok := evalC(s, nil, nil, 0); ok {
		return strconv.FormatInt(v, 10)
	}
	return ""
}

// --- CUDA: HIPIFY's tables ----------------------------------------------------

var (
	hipifyRow    = regexp.MustCompile(`^\s*\{"(\w+)",\s*\{"[^"]*",\s*"[^"]*",\s*(CONV_\w+),\s*(API_\w+),\s*(SEC::\w+|\d+)(?:,\s*([^}]*))?\}\},`)
	hipifyMapRE  = regexp.MustCompile(`^const std::map<llvm::StringRef, hipCounter> (\w+)`)
	hipifyOthers = regexp.MustCompile(`^const std::map`)
)

// hipifyExcluded are HIPIFY names outside the C runtime and driver APIs.
// CUDART_* are the device math constants (math_constants.h), __CUDACC__ is
// the compiler's, cudaGetParameterBuffer* belong to the device runtime,
// cudaOccupancyMaxPotentialBlockSize* are C++ templates of cuda_runtime.h;
// the _v1 structs, cuTexRefSetAddress2D_v2, cuGraphInstantiate_v2 and
// cuStreamBeginCapture_ptsz are declared only under cuda.h's
// __CUDA_API_VERSION_INTERNAL, for the legacy entry points; memoryBarrier is
// a union member, not a type; CUstreamAttrValue_union has been
// CUlaunchAttributeValue_union since CUDA 11.8 (HIPIFY marks its kernel-node
// twin removed, not it); CU_LAUNCH_ATTRIBUTE_MAX and
// CU_DEV_RESOURCE_TYPE_MAX are sentinels the bindings leave out (their value
// grows with each release).
var hipifyExcluded = regexp.MustCompile(`^CU_LAUNCH_ATTRIBUTE_MAX$|^CU_DEV_RESOURCE_TYPE_MAX$|^CUDART_|^__CUDACC__$|^cudaGetParameterBuffer|^cudaOccupancyMaxPotentialBlockSize|^cudaLaunchCooperativeKernelMultiDevice$|^CUDA_(?:ARRAY_DESCRIPTOR|MEMCPY2D|MEMCPY3D)_v1(?:_st)?$|^CUdeviceptr_v1$|^cuTexRefSetAddress2D_v2$|^cuGraphInstantiate_v2$|^cuStreamBeginCapture_ptsz$|^memoryBarrier$|^CUstreamAttrValue_union$`)

// hipifyTypeKind gives the kind of a HIPIFY type name that the bindings do
// not declare: the table does not say whether it is a tag or a typedef.
var hipifyTypeKind = map[string]string{
	"CUDA_ARRAY_DESCRIPTOR_v1_st": "struct", "CUDA_MEMCPY2D_v1_st": "struct", "CUDA_MEMCPY3D_v1_st": "struct",
	"CUstreamAttrValue_union": "union", "cudaLaunchConfig_st": "struct", "textureReference": "struct",
	"cudaLaunchParams": "struct", "cudaExternalSemaphoreSignalParams_v1": "struct",
	"cudaExternalSemaphoreWaitParams_v1": "struct",
}

func parseHIPIFY(l *list, src string, functions bool) {
	inMap := false
	for _, line := range strings.Split(src, "\n") {
		if hipifyMapRE.MatchString(line) {
			inMap = true
			continue
		}
		if hipifyOthers.MatchString(line) {
			inMap = false
			continue
		}
		if !inMap {
			continue
		}
		m := hipifyRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		name, conv, api, sec, flags := m[1], m[2], m[3], m[4], m[5]
		if api != "API_DRIVER" && api != "API_RUNTIME" {
			continue
		}
		if strings.Contains(flags, "CUDA_REMOVED") || interop.MatchString(name) || hipifyExcluded.MatchString(name) ||
			strings.Contains(sec, "INTEROP") || strings.Contains(sec, "OPENGL") || strings.Contains(sec, "D3D") ||
			strings.Contains(sec, "VDPAU") || strings.Contains(sec, "EGL") {
			continue
		}
		if known(l, name) {
			continue
		}
		kind := ""
		switch {
		case functions:
			kind = "func"
		case conv == "CONV_NUMERIC_LITERAL":
			kind = "enum"
		case conv == "CONV_DEFINE":
			kind = "macro"
		default:
			kind = hipifyTypeKind[name]
			if kind == "" {
				kind = "typedef"
			}
		}
		l.add(entry{kind: kind, name: name}, false)
	}
}

func known(l *list, name string) bool {
	if l.opaque[name] {
		return true
	}
	for _, k := range []string{"func", "enum", "macro", "typedef", "struct", "union", "enumtype"} {
		if _, ok := l.entries[k+" "+name]; ok {
			return true
		}
	}
	return false
}

// --- declaration skeletons ---------------------------------------------------

var missingLine = regexp.MustCompile(`^\s*(func|enum|field|typedef|macro|struct|union|enumtype) ([A-Za-z_][\w.]*)`)

func readMissing(path string) map[string]bool {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if m := missingLine.FindStringSubmatch(line); m != nil {
			out[m[1]+" "+m[2]] = true
		}
	}
	return out
}

// writeSkeletons writes, for each header, the declarations of l's sources
// that provide names missing lists (the preferred source's first), then the
// missing enum constants and macros of enums and structs the headers
// already have, from their listed values. Structs the headers have but with
// missing fields are listed for a hand edit.
func writeSkeletons(l *list, preferred string, missing map[string]bool, base string) {
	need := map[string]bool{}
	for k := range l.entries {
		if missing[k] {
			need[k] = true
		}
	}
	decls := append([]decl(nil), l.decls...)
	sort.SliceStable(decls, func(i, j int) bool { return decls[i].src == preferred && decls[j].src != preferred })
	byHeader := map[string]*strings.Builder{}
	emit := func(h, text string) {
		if byHeader[h] == nil {
			byHeader[h] = &strings.Builder{}
		}
		byHeader[h].WriteString(text + "\n")
	}
	var handEdits []string
	for _, d := range decls {
		var provides []string
		whole := false
		for _, n := range d.names {
			if need[n] {
				provides = append(provides, n)
				if !strings.HasPrefix(n, "field ") && !strings.HasPrefix(n, "enum ") {
					whole = true
				}
			}
		}
		if len(provides) == 0 {
			continue
		}
		if !whole {
			// Only members are missing: the headers' definition is to be
			// replaced by this one.
			for _, n := range d.names {
				delete(need, n)
			}
			emit("replace", d.text+"\n@@")
			continue
		}
		for _, n := range d.names {
			delete(need, n)
		}
		emit(d.header, d.text)
	}
	var rest []string
	for n := range need {
		rest = append(rest, n)
	}
	sort.Strings(rest)
	for _, n := range rest {
		e := l.entries[n]
		switch {
		case e.kind == "enum" && e.value != "":
			emit("consts", fmt.Sprintf("enum { %s = %s };", e.name, e.value))
		case e.kind == "macro" && e.value != "":
			emit("consts", fmt.Sprintf("#define %s %s", e.name, e.value))
		default:
			handEdits = append(handEdits, n)
		}
	}
	sort.Strings(handEdits)
	emit("hand", strings.Join(handEdits, "\n"))
	for h, b := range byHeader {
		name := strings.NewReplacer("/", "_", ".", "_").Replace(h)
		if name == "" {
			name = "top"
		}
		if err := os.WriteFile(base+"."+name+".h", []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
