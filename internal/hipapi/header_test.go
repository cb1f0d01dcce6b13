package hipapi

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// These tests hold the table to the C prototypes: the fixture headers in
// testdata/include (ours, declarations only) and, where Debian's
// libamdhip64-dev is installed, the real HIP headers.

const fixtureDir = "../../testdata/include"

// Real HIP headers from Debian's libamdhip64-dev (HIP 5.2.3): the runtime API,
// the types and enums it includes, and the AMD extensions.
var realHIPHeaders = []string{
	"/usr/include/hip/hip_runtime_api.h",
	"/usr/include/hip/driver_types.h",
	"/usr/include/hip/hip_ext.h",
}

// fixtureHeaders are the fixture files that declare each family. A missing
// optional file (hip/hip_ext.h) is skipped.
var fixtureHeaders = map[Family][]string{
	HIP:         {"hip/hip_runtime_api.h", "hip/hip_ext.h"},
	CUDARuntime: {"cuda_runtime_api.h", "driver_types.h"},
	CUDADriver:  {"cuda.h"},
}

// pendingHIPFixture lists what the HIP fixture header (owned outside this
// package's tests) is known to lack or get wrong, with the fix. Each entry
// only turns a failure into a log line while it is still true; once the
// fixture is fixed the entry is inert and can be deleted.
var pendingHIPFixture = map[string]string{}

// pending reports whether a failure about name is a known gap of the HIP
// fixture, and logs it if so.
func pending(t *testing.T, name string) bool {
	t.Helper()
	if fix, ok := pendingHIPFixture[name]; ok {
		t.Logf("known gap in the HIP fixture, %s: %s", name, fix)
		return true
	}
	return false
}

// --- a small C declaration parser -------------------------------------------

type cParam struct {
	Raw  string // the declaration as written, defaults and attributes removed
	Type string // everything but the name, spaces normalized
	Name string // "" when the declaration has no name
}

type cProto struct {
	File   string
	Ret    string
	Name   string
	Params []cParam
}

func (p cProto) String() string {
	var ps []string
	for _, q := range p.Params {
		ps = append(ps, q.Raw)
	}
	return fmt.Sprintf("%s %s(%s) [%s]", p.Ret, p.Name, strings.Join(ps, ", "), filepath.Base(p.File))
}

// cHeader is what the tests need from one or more parsed headers.
type cHeader struct {
	protos map[string][]cProto
	consts map[string]int64 // enumerators and integer-valued #defines
	macros map[string]string
}

var (
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	lineComment  = regexp.MustCompile(`//[^\n]*`)
	defineLine   = regexp.MustCompile(`^\s*#\s*define\s+([A-Za-z_]\w*)(?:\s+(.*?))?\s*$`)
	defaultArg   = regexp.MustCompile(`(?s)\s*(?:=.*|__dparm\s*\(.*\))$`)
	trailingAttr = regexp.MustCompile(`(?s)\s*__attribute__\s*\(\(.*\)\)\s*$`)
	leadingAttr  = regexp.MustCompile(`[A-Za-z_]\w*\s*\([^()]*\)`) // DEPRECATED("..."), __attribute__ pieces
	retTypeOK    = regexp.MustCompile(`^[A-Za-z_][\w\s\*]*$`)
	identAtEnd   = regexp.MustCompile(`([A-Za-z_]\w*)\s*$`)
	intLiteral   = regexp.MustCompile(`^\(*\s*(?:\(\s*[A-Za-z_]\w*\s*\*?\s*\)\s*)?(-?(?:0[xX][0-9a-fA-F]+|\d+))[uUlL]*\s*\)*$`)
	enumBlock    = regexp.MustCompile(`(?s)\benum\b[^{};()]*\{([^{}]*)\}`) // enum [attributes] [tag] { ... }
)

// storageWords may precede a return type.
var storageWords = map[string]bool{
	"extern": true, "static": true, "inline": true, "HIP_PUBLIC_API": true, "CUDAAPI": true,
	"CUDARTAPI": true, "__host__": true, "__device__": true, "__cudart_builtin__": true,
}

// builtinTypeWords cannot be a parameter's name; tagWords precede a tag, not a name.
var (
	builtinTypeWords = map[string]bool{"void": true, "char": true, "short": true, "int": true, "long": true,
		"float": true, "double": true, "signed": true, "unsigned": true, "const": true, "volatile": true}
	tagWords = map[string]bool{"struct": true, "enum": true, "union": true}
)

// notTypes end a "return type" that is really a statement (return f(x);).
var notTypes = map[string]bool{
	"return": true, "else": true, "if": true, "while": true, "for": true, "switch": true,
	"case": true, "do": true, "goto": true, "sizeof": true, "typedef": true,
}

func stripComments(src string) string {
	src = blockComment.ReplaceAllStringFunc(src, func(c string) string {
		return strings.Repeat("\n", strings.Count(c, "\n")) // keep line numbers
	})
	return lineComment.ReplaceAllString(src, "")
}

// splitPreprocessor separates directive lines (joined across backslash
// continuations) from the code.
func splitPreprocessor(src string) (code string, directives []string) {
	var b strings.Builder
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
			b.WriteByte('\n')
			continue
		}
		full := line
		for strings.HasSuffix(strings.TrimRight(full, " \t"), "\\") && i+1 < len(lines) {
			full = strings.TrimSuffix(strings.TrimRight(full, " \t"), "\\") + " " + lines[i+1]
			i++
		}
		directives = append(directives, full)
		b.WriteByte('\n')
	}
	return b.String(), directives
}

// splitTopLevel splits s at sep where no (), [] or {} is open.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// statements returns the code's statements that end in ';' outside any brace
// (prototypes, typedefs), dropping struct, enum and function bodies.
func statements(code string) []string {
	var out []string
	var cur strings.Builder
	braces, parens := 0, 0
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '{':
			if braces == 0 {
				// A body starts: what came before is not a prototype, unless it
				// is a linkage block (extern "C" {), which holds prototypes.
				if strings.Contains(cur.String(), `extern "C"`) {
					cur.Reset()
					continue
				}
			}
			braces++
		case c == '}':
			if braces == 0 { // closing an extern "C" block
				cur.Reset()
				continue
			}
			braces--
			if braces == 0 {
				cur.Reset()
				continue
			}
		case braces > 0:
		case c == '(':
			parens++
		case c == ')':
			parens--
		case c == ';' && parens == 0:
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		if braces == 0 {
			cur.WriteByte(c)
		}
	}
	return out
}

func parseParam(raw string) cParam {
	raw = strings.Join(strings.Fields(raw), " ")
	raw = defaultArg.ReplaceAllString(raw, "")
	raw = strings.TrimSpace(raw)
	p := cParam{Raw: raw, Type: raw}
	if raw == "" || raw == "void" || raw == "..." {
		return p
	}
	decl := regexp.MustCompile(`\s*\[[^\]]*\]\s*$`).ReplaceAllString(raw, "")
	m := identAtEnd.FindStringSubmatchIndex(decl)
	if m == nil {
		return p
	}
	name := decl[m[2]:m[3]]
	rest := strings.Fields(decl[:m[2]])
	// A lone type has no name: "hipStream_t", "unsigned int", "const struct S".
	if len(rest) == 0 || builtinTypeWords[name] || tagWords[rest[len(rest)-1]] {
		return p
	}
	p.Name = name
	p.Type = strings.Join(strings.Fields(strings.ReplaceAll(strings.Join(rest, " "), "*", " * ")), " ")
	p.Type = strings.ReplaceAll(p.Type, " *", "*")
	return p
}

// parsePrototype parses one statement as a function prototype.
func parsePrototype(stmt string) (cProto, bool) {
	s := strings.TrimSpace(trailingAttr.ReplaceAllString(strings.TrimSpace(stmt), ""))
	if !strings.HasSuffix(s, ")") {
		return cProto{}, false
	}
	// Find the '(' that matches the final ')'.
	depth, open := 0, -1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ')' {
			depth++
		} else if s[i] == '(' {
			depth--
			if depth == 0 {
				open = i
				break
			}
		}
	}
	if open <= 0 {
		return cProto{}, false
	}
	m := identAtEnd.FindStringSubmatchIndex(s[:open])
	if m == nil {
		return cProto{}, false
	}
	name := s[m[2]:m[3]]
	ret := leadingAttr.ReplaceAllString(s[:m[2]], " ")
	var words []string
	for _, w := range strings.Fields(strings.ReplaceAll(ret, "*", " * ")) {
		if !storageWords[w] {
			words = append(words, w)
		}
	}
	ret = strings.ReplaceAll(strings.Join(words, " "), " *", "*")
	if ret == "" || !retTypeOK.MatchString(ret) || notTypes[words[len(words)-1]] || notTypes[name] {
		return cProto{}, false
	}
	p := cProto{Ret: ret, Name: name}
	inner := strings.TrimSpace(s[open+1 : len(s)-1])
	if inner == "" || inner == "void" {
		return p, true
	}
	for _, raw := range splitTopLevel(inner, ',') {
		q := parseParam(raw)
		if q.Raw == "" {
			return cProto{}, false
		}
		p.Params = append(p.Params, q)
	}
	return p, true
}

// parseEnumValues assigns each enumerator its value, following implicit
// increments and references to earlier enumerators. An enumerator whose value
// the parser cannot compute stops the increments until the next explicit value.
func parseEnumValues(code string, into map[string]int64) {
	for _, m := range enumBlock.FindAllStringSubmatch(code, -1) {
		next, known := int64(0), true
		for _, item := range splitTopLevel(m[1], ',') {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			name, expr, hasExpr := strings.Cut(item, "=")
			name = strings.TrimSpace(name)
			if hasExpr {
				expr = strings.TrimSpace(expr)
				if v, ok := evalInt(expr, into); ok {
					next, known = v, true
				} else {
					known = false
				}
			}
			if known {
				into[name] = next
				next++
			}
		}
	}
}

func evalInt(expr string, env map[string]int64) (int64, bool) {
	expr = strings.TrimSpace(expr)
	if v, ok := env[expr]; ok {
		return v, true
	}
	m := intLiteral.FindStringSubmatch(expr)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseInt(m[1], 0, 64)
	return v, err == nil
}

func parseHeaderText(file, src string, h *cHeader) {
	code, directives := splitPreprocessor(stripComments(src))
	for _, d := range directives {
		if m := defineLine.FindStringSubmatch(d); m != nil {
			h.macros[m[1]] = strings.TrimSpace(m[2])
			if v, ok := evalInt(m[2], h.consts); ok {
				h.consts[m[1]] = v
			}
		}
	}
	parseEnumValues(code, h.consts)
	for _, st := range statements(code) {
		if p, ok := parsePrototype(st); ok {
			p.File = file
			h.protos[p.Name] = append(h.protos[p.Name], p)
		}
	}
}

// parseHeaders parses the files that exist among paths; it fails the test if
// none does.
func parseHeaders(t *testing.T, paths ...string) *cHeader {
	t.Helper()
	h := &cHeader{protos: map[string][]cProto{}, consts: map[string]int64{}, macros: map[string]string{}}
	found := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		require.NoError(t, err)
		found++
		parseHeaderText(p, string(src), h)
	}
	require.NotZero(t, found, "none of %v exists", paths)
	return h
}

func fixtureFamily(t *testing.T, fam Family) *cHeader {
	t.Helper()
	var paths []string
	for _, f := range fixtureHeaders[fam] {
		paths = append(paths, filepath.Join(fixtureDir, f))
	}
	return parseHeaders(t, paths...)
}

func realHIP(t *testing.T) *cHeader {
	t.Helper()
	if _, err := os.Stat(realHIPHeaders[0]); err != nil {
		t.Skipf("real HIP headers not installed (%s missing): apt-get install libamdhip64-dev to run this test", realHIPHeaders[0])
	}
	return parseHeaders(t, realHIPHeaders...)
}

// --- what a parameter in each role looks like -----------------------------

type roleArg struct {
	field string
	get   func(*Func) Arg
	// plausible says whether parameter p can be this argument of f; want
	// describes what was expected.
	plausible func(f *Func, p cParam) bool
	want      string
}

func lname(p cParam) string { return strings.ToLower(p.Name) }

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isPointer(p cParam) bool { return strings.Contains(p.Type, "*") }

// isDevicePointer: a pointer, or a device-pointer handle (CUdeviceptr, hipDeviceptr_t).
func isDevicePointer(p cParam) bool {
	return isPointer(p) || strings.Contains(strings.ToLower(p.Type), "deviceptr")
}

// isPointerToPointer: where an allocation writes its address.
func isPointerToPointer(p cParam) bool {
	n := strings.Count(p.Type, "*")
	return n >= 2 || n == 1 && strings.Contains(strings.ToLower(p.Type), "deviceptr")
}

func isHandleOrInt(p cParam) bool {
	return !isPointer(p) && !strings.Contains(strings.ToLower(p.Type), "deviceptr")
}

var roleArgs = []roleArg{
	{"Out", func(f *Func) Arg { return f.Out }, plausibleOut, "an out parameter named for the role"},
	{"Ptr", func(f *Func) Arg { return f.Ptr }, func(_ *Func, p cParam) bool {
		return isDevicePointer(p) && (strings.Contains(lname(p), "ptr") || lname(p) == "p")
	}, `a pointer named "ptr", "dptr", "devPtr", "dev_ptr" or "p"`},
	{"Dst", func(f *Func) Arg { return f.Dst }, func(f *Func, p cParam) bool {
		return isDevicePointer(p) && (strings.Contains(lname(p), "dst") || f.Role == Memset && strings.Contains(lname(p), "devptr"))
	}, `a pointer named "dst…" (memset: "devPtr")`},
	{"Src", func(f *Func) Arg { return f.Src }, func(_ *Func, p cParam) bool {
		return isDevicePointer(p) && strings.Contains(lname(p), "src")
	}, `a pointer named "src…"`},
	{"Size", func(f *Func) Arg { return f.Size }, func(_ *Func, p cParam) bool {
		return !isPointer(p) && containsAny(lname(p), "size", "count", "bytes")
	}, `a size named "size", "count", "sizeBytes", "ByteCount" or "bytesize"`},
	{"Kind", func(f *Func) Arg { return f.Kind }, func(_ *Func, p cParam) bool {
		return lname(p) == "kind" && strings.Contains(p.Type, "MemcpyKind")
	}, `"kind" of type hipMemcpyKind/cudaMemcpyKind`},
	{"Stream", func(f *Func) Arg { return f.Stream }, func(_ *Func, p cParam) bool {
		return strings.Contains(lname(p), "stream") && strings.Contains(strings.ToLower(p.Type), "stream") && !isPointer(p)
	}, `a stream handle named "stream" or "hStream"`},
	{"Event", func(f *Func) Arg { return f.Event }, func(_ *Func, p cParam) bool {
		return strings.Contains(lname(p), "event") && strings.Contains(strings.ToLower(p.Type), "event") && !isPointer(p)
	}, `an event handle named "event" or "hEvent"`},
	{"Flags", func(f *Func) Arg { return f.Flags }, func(_ *Func, p cParam) bool {
		return strings.Contains(lname(p), "flag") && !isPointer(p)
	}, `"flags"`},
	{"Device", func(f *Func) Arg { return f.Device }, func(_ *Func, p cParam) bool {
		return isHandleOrInt(p) && containsAny(lname(p), "dev", "ctx", "context", "location")
	}, `a device, context or location named "device", "deviceId", "dev", "ctx", "dstDevice" or "location"`},
	{"DstDevice", func(f *Func) Arg { return f.DstDevice }, func(_ *Func, p cParam) bool {
		return isHandleOrInt(p) && strings.Contains(lname(p), "dst") && containsAny(lname(p), "device", "context")
	}, `a device or context (not a pointer) named "dstDevice…" or "dstContext"`},
	{"SrcDevice", func(f *Func) Arg { return f.SrcDevice }, func(_ *Func, p cParam) bool {
		return isHandleOrInt(p) && strings.Contains(lname(p), "src") && containsAny(lname(p), "device", "context")
	}, `a device or context (not a pointer) named "srcDevice…" or "srcContext"`},
	{"Module", func(f *Func) Arg { return f.Module }, func(_ *Func, p cParam) bool {
		return !isPointer(p) && containsAny(lname(p), "mod", "library")
	}, `a module or library handle named "module", "hmod" or "library"`},
	{"Function", func(f *Func) Arg { return f.Function }, func(_ *Func, p cParam) bool {
		return lname(p) == "f" || containsAny(lname(p), "func", "kernel")
	}, `a function named "f", "func" or "function_address"`},
	{"KernelArgs", func(f *Func) Arg { return f.KernelArgs }, func(_ *Func, p cParam) bool {
		return strings.Count(p.Type, "*") == 2 && (lname(p) == "args" || lname(p) == "kernelparams")
	}, `void** named "kernelParams" or "args"`},
	{"Params", func(f *Func) Arg { return f.Params }, func(_ *Func, p cParam) bool {
		return isPointer(p) && containsAny(lname(p), "params", "parms")
	}, `a pointer to a node parameter struct named "…Params"`},
	{"Deps", func(f *Func) Arg { return f.Deps }, func(_ *Func, p cParam) bool {
		return isPointer(p) && strings.Contains(lname(p), "dependencies") && !strings.Contains(lname(p), "num")
	}, `"dependencies" or "pDependencies"`},
	{"From", func(f *Func) Arg { return f.From }, func(_ *Func, p cParam) bool {
		return isPointer(p) && lname(p) == "from"
	}, `"from"`},
	{"To", func(f *Func) Arg { return f.To }, func(_ *Func, p cParam) bool {
		return isPointer(p) && lname(p) == "to"
	}, `"to"`},
	{"NumDeps", func(f *Func) Arg { return f.NumDeps }, func(_ *Func, p cParam) bool {
		return !isPointer(p) && lname(p) == "numdependencies"
	}, `"numDependencies"`},
	{"Attr", func(f *Func) Arg { return f.Attr }, func(_ *Func, p cParam) bool {
		return !isPointer(p) && strings.Contains(lname(p), "attr")
	}, `"attr" or "attrib"`},
}

func plausibleOut(f *Func, p cParam) bool {
	n := lname(p)
	if !isPointer(p) {
		return false
	}
	switch f.Role {
	case Alloc:
		return isPointerToPointer(p) && containsAny(n, "ptr", "pp", "host")
	case StreamCreate:
		return strings.Contains(n, "stream")
	case EventCreate:
		return strings.Contains(n, "event")
	case ModuleLoad:
		return containsAny(n, "module", "library")
	case ModuleGetFunction:
		return containsAny(n, "func", "kernel")
	case ModuleGetGlobal:
		return containsAny(n, "dptr", "texref", "mod")
	case DeviceAttribute:
		return n == "pi" || n == "value"
	case DeviceProperties:
		return strings.Contains(n, "prop")
	case GraphAllocNode, GraphFreeNode, GraphKernelNode, GraphCopyNode, GraphMemsetNode:
		return strings.Contains(n, "graphnode")
	case CaptureEnd:
		return strings.Contains(n, "graph")
	case Other:
		return strings.Contains(n, "count")
	}
	return false
}

// checkRoles checks every role argument of f against prototype p and returns
// the problems.
func checkRoles(f *Func, p cProto) []string {
	var problems []string
	for _, ra := range roleArgs {
		i, ok := ra.get(f).Index()
		if !ok {
			continue
		}
		if i >= len(p.Params) {
			problems = append(problems, fmt.Sprintf("%s is argument %d but %s has %d parameters", ra.field, i, p.Name, len(p.Params)))
			continue
		}
		if q := p.Params[i]; !ra.plausible(f, q) {
			problems = append(problems, fmt.Sprintf("%s is argument %d, %q, want %s", ra.field, i, q.Raw, ra.want))
		}
	}
	return problems
}

// --- tests ---------------------------------------------------------------

// The parser itself, on the shapes the headers use.
func TestParsePrototype(t *testing.T) {
	src := `
/* comment with hipFake(int x); inside */
#define hipFoo hipFoo_v2
#define NB 0x01
#define PTR ((hipStream_t)2)
typedef enum E { A = 3, B, C = A, D = 0x10, E2 } E;
extern "C" {
DEPRECATED("use hipBar") hipError_t hipFoo(void** ptr, size_t size __dparm(0));
hipError_t hipVoid(void);
const char* hipName(hipError_t error) __attribute__((visibility("default")));
static inline hipError_t hipInline(int x) { return hipFoo(0, x); }
hipError_t hipArr(char name[256], const struct S* s, unsigned int);
}
`
	h := &cHeader{protos: map[string][]cProto{}, consts: map[string]int64{}, macros: map[string]string{}}
	parseHeaderText("x.h", src, h)

	require.Contains(t, h.protos, "hipFoo")
	foo := h.protos["hipFoo"][0]
	assert.Equal(t, "hipError_t", foo.Ret)
	require.Len(t, foo.Params, 2)
	assert.Equal(t, cParam{Raw: "void** ptr", Type: "void**", Name: "ptr"}, foo.Params[0])
	assert.Equal(t, "size", foo.Params[1].Name)

	require.Contains(t, h.protos, "hipVoid")
	assert.Empty(t, h.protos["hipVoid"][0].Params)
	require.Contains(t, h.protos, "hipName")
	assert.Equal(t, "const char*", h.protos["hipName"][0].Ret)
	assert.NotContains(t, h.protos, "hipInline", "definitions are not prototypes")
	assert.NotContains(t, h.protos, "hipFake", "comments are ignored")

	arr := h.protos["hipArr"][0]
	require.Len(t, arr.Params, 3)
	assert.Equal(t, "name", arr.Params[0].Name)
	assert.Equal(t, "const struct S*", arr.Params[1].Type)
	assert.Equal(t, "", arr.Params[2].Name, "an unnamed parameter")

	assert.Equal(t, map[string]int64{"NB": 1, "PTR": 2, "A": 3, "B": 4, "C": 3, "D": 16, "E2": 17}, h.consts)
	assert.Equal(t, "hipFoo_v2", h.macros["hipFoo"])
}

// Every row has a prototype in its family's fixture header, and every role
// argument points at a parameter that can play that role.
func TestTableMatchesFixtureHeaders(t *testing.T) {
	headers := map[Family]*cHeader{}
	for fam := range fixtureHeaders {
		headers[fam] = fixtureFamily(t, fam)
	}
	for _, f := range All() {
		t.Run(f.Name, func(t *testing.T) {
			h := headers[f.Family]
			require.NotNil(t, h, "row %s has no family", f.Name)
			protos := h.protos[f.Name]
			if len(protos) == 0 {
				if pending(t, f.Name) {
					return
				}
				t.Fatalf("%s: no prototype in the %s fixture header (%v)", f.Name, f.Family, fixtureHeaders[f.Family])
			}
			require.Len(t, protos, 1, "%s is declared more than once: %v", f.Name, protos)
			for _, problem := range checkRoles(f, protos[0]) {
				t.Errorf("%s: %s\n\tprototype: %s", f.Name, problem, protos[0])
			}
		})
	}
}

// otherReturnTypes are the runtime functions that, in the real headers too,
// return something other than their family's status type.
var otherReturnTypes = map[string]string{
	"hipGetStreamDeviceId":  "int",
	"hipCreateChannelDesc":  "hipChannelFormatDesc",
	"cudaCreateChannelDesc": "struct cudaChannelFormatDesc",
}

// The fixture prototypes return their family's status type, so cgo code built
// against them sees the same result types as with the real headers.
func TestFixtureStatusTypes(t *testing.T) {
	status := map[Family]string{HIP: "hipError_t", CUDARuntime: "cudaError_t", CUDADriver: "CUresult"}
	for fam := range fixtureHeaders {
		h := fixtureFamily(t, fam)
		for name, protos := range h.protos {
			for _, p := range protos {
				if strings.HasSuffix(p.Ret, "char*") { // error-string helpers
					continue
				}
				if want, ok := otherReturnTypes[name]; ok {
					assert.Equal(t, want, p.Ret, "%s", p)
					continue
				}
				assert.Equal(t, status[fam], p.Ret, "%s", p)
				assert.Equal(t, fam, FamilyOf(name), "%s is declared in the %s fixture", name, fam)
			}
		}
	}
}

// The real HIP headers agree with the fixture and the table: same parameter
// count, and every role position names a plausible parameter.
func TestTableMatchesRealHIPHeaders(t *testing.T) {
	real := realHIP(t)
	fixture := fixtureFamily(t, HIP)
	checked := 0
	for _, f := range All() {
		if f.Family != HIP {
			continue
		}
		protos := real.protos[f.Name]
		if len(protos) == 0 {
			t.Logf("%s: not declared in the real headers (HIP 5.2.3 predates it)", f.Name)
			continue
		}
		checked++
		t.Run(f.Name, func(t *testing.T) {
			for _, p := range protos {
				for _, problem := range checkRoles(f, p) {
					t.Errorf("%s: %s\n\treal prototype: %s", f.Name, problem, p)
				}
				if fx := fixture.protos[f.Name]; len(fx) > 0 {
					assert.Len(t, fx[0].Params, len(p.Params),
						"parameter count differs:\n\tfixture: %s\n\treal:    %s", fx[0], p)
				}
			}
		})
	}
	assert.Greater(t, checked, 50, "the parser found too few table functions in the real headers")
}

// Every function the HIP fixture declares that real HIP 5.2.3 also declares
// has the same parameter count there, and every enumerator or macro the
// fixture defines has the real value.
func TestHIPFixtureMatchesRealHeaders(t *testing.T) {
	real := realHIP(t)
	fixture := fixtureFamily(t, HIP)
	for name, fx := range fixture.protos {
		rp := real.protos[name]
		if len(rp) == 0 {
			continue
		}
		assert.Len(t, fx[0].Params, len(rp[0].Params), "parameter count differs:\n\tfixture: %s\n\treal:    %s", fx[0], rp[0])
	}
	differs := map[string]bool{}
	for name, v := range fixture.consts {
		rv, ok := real.consts[name]
		if !ok || rv == v {
			continue
		}
		if key, why, ok := hipChanged(name); ok {
			differs[key] = true
			t.Logf("%s is %d in the fixture (HIP 6.2), %d in HIP 5.2.3: %s", name, v, rv, why)
			continue
		}
		if !pending(t, name) {
			t.Errorf("%s is %d in the fixture, %d in the real header", name, v, rv)
		}
	}
	for key := range hipChangedSince523 {
		if strings.HasPrefix(key, "proto:") {
			continue
		}
		assert.True(t, differs[key], "hipChangedSince523[%q]: the fixture and HIP 5.2.3 agree here, drop the entry", key)
	}
}

// hipChangedSince523 lists where the fixture (HIP 6.2) and Debian's HIP 5.2.3
// legitimately differ, with the change. A key ending in '*' covers every name
// with that prefix; "proto:" keys are prototypes (see
// TestHIPPrototypesMatchRealHeaders). Each entry must still describe a
// difference.
var hipChangedSince523 = map[string]string{
	"hipMemoryType*":                "ROCm 6.0 renumbered hipMemoryType to CUDA's values (Unregistered 0, Host 1, Device 2, Managed 3, Array 10, Unified 11)",
	"hipGraphNodeType*":             "ROCm 6.0 renumbered hipGraphNodeType to CUDA's values (Kernel 0 ...) and added the ExtSemaphore and MemAlloc/MemFree nodes",
	"hipDeviceLmemResizeToMax":      "0x16 in HIP 5.x, CUDA's 0x10 since ROCm 6.0",
	"hipIpcMemLazyEnablePeerAccess": "0 in HIP 5.x, CUDA's 0x01 since ROCm 6.0",
}

// hipChanged reports whether name is covered by hipChangedSince523, with the
// key that covers it and the reason.
func hipChanged(name string) (key, why string, ok bool) {
	if why, ok := hipChangedSince523[name]; ok {
		return name, why, true
	}
	for k, why := range hipChangedSince523 {
		if p, wild := strings.CutSuffix(k, "*"); wild && strings.HasPrefix(name, p) {
			return k, why, true
		}
	}
	return "", "", false
}

// The constants table has the C values of the headers.
func TestConstantsMatchHeaders(t *testing.T) {
	fixture := map[Family]*cHeader{}
	for fam := range fixtureHeaders {
		fixture[fam] = fixtureFamily(t, fam)
	}
	var real *cHeader
	if _, err := os.Stat(realHIPHeaders[0]); err == nil {
		real = parseHeaders(t, realHIPHeaders...)
	}
	for name, c := range constants {
		assert.Equal(t, name, c.Name)
		fam := FamilyOf(name)
		if fam == 0 {
			fam = CUDADriver // CU_* and CUDA_* constants
		}
		fv, inFixture := fixture[fam].consts[name]
		if inFixture && fv != c.Value {
			if !(fam == HIP && pending(t, name)) {
				t.Errorf("%s: table value %d, %s fixture %d", name, c.Value, fam, fv)
			}
		}
		if fam == HIP && real != nil {
			rv, ok := real.consts[name]
			if assert.True(t, ok, "%s not defined in the real HIP headers", name) {
				assert.Equal(t, rv, c.Value, "%s: table value vs real HIP header", name)
			}
		}
		if !inFixture && !(fam == HIP && pending(t, name)) {
			t.Errorf("%s is not defined in the %s fixture header", name, fam)
		}
	}
}

// The driver fixture's versioned and per-thread macros resolve, through
// Lookup, to the row of the name they replace, and every table row of the
// driver that real CUDA 12.x versions is versioned in the fixture too.
func TestDriverVersionedMacros(t *testing.T) {
	h := fixtureFamily(t, CUDADriver)
	target := regexp.MustCompile(`^(?:__CUDA_API_PT(?:DS|SZ)\(\s*)?([A-Za-z_]\w*)\s*\)?$`)
	seen := 0
	for name, body := range h.macros {
		base, ok := Lookup(name)
		if !ok {
			continue
		}
		m := target.FindStringSubmatch(body)
		if m == nil {
			continue
		}
		seen++
		entries := []string{m[1], m[1] + "_ptds", m[1] + "_ptsz"}
		if f, ok := Lookup(m[1]); ok && f.Name == m[1] && lookupStripsVersionWithPerThread() {
			entries = entries[:1] // see TestLookup's known gap
		}
		for _, entry := range entries {
			got, ok := Lookup(entry)
			if assert.True(t, ok, "Lookup(%q) for macro %s", entry, name) {
				assert.Same(t, base, got, "Lookup(%q) must give the row of %s", entry, name)
			}
		}
	}
	assert.GreaterOrEqual(t, seen, 15)
	for _, name := range []string{"cuMemAlloc", "cuMemFree", "cuMemAllocPitch", "cuMemAllocHost",
		"cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD", "cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync",
		"cuMemcpyDtoDAsync", "cuModuleGetGlobal", "cuCtxPushCurrent", "cuStreamDestroy",
		"cuStreamBeginCapture", "cuGraphAddKernelNode"} {
		assert.Contains(t, h.macros[name], name+"_v2", "real cuda.h 12.x maps %s to %s_v2", name, name)
	}
}

// The fixture headers compile as C, alone and together, with and without
// per-thread default streams (skipped without a C compiler).
func TestFixtureHeadersCompile(t *testing.T) {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) to compile the fixture headers", cc)
	}
	sets := [][]string{
		{"hip/hip_runtime_api.h"},
		{"cuda_runtime_api.h"},
		{"cuda.h"},
		{"cuda.h", "cuda_runtime_api.h"},
		{"cuda_runtime.h", "cuda.h"},
		{"hip/hip_runtime_api.h", "cuda_runtime_api.h", "cuda.h"},
		{"cuda.h", "cuda_runtime.h", "hip/hip_runtime.h"},
		{"driver_types.h", "cuda.h"},
	}
	for _, set := range sets {
		for _, defs := range [][]string{nil, {"-DCUDA_API_PER_THREAD_DEFAULT_STREAM"}} {
			var src strings.Builder
			for _, h := range set {
				fmt.Fprintf(&src, "#include <%s>\n", h)
			}
			src.WriteString("int main(void) { return 0; }\n")
			args := append([]string{"-fsyntax-only", "-Wall", "-Werror", "-std=c99", "-I", fixtureDir, "-x", "c", "-"}, defs...)
			cmd := exec.Command(cc, args...)
			cmd.Stdin = strings.NewReader(src.String())
			out, err := cmd.CombinedOutput()
			assert.NoError(t, err, "%v %v:\n%s", set, defs, out)
		}
	}
}
