package runtimecheck

import (
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"github.com/hiplint/hiplint"
)

// param is one parameter of a C prototype.
type param struct {
	Type string // C type as declared, e.g. "const void*", "enum cudaMemcpyKind"
	Name string
}

// prototype is a runtime function's C declaration, as hiplint's own headers
// (testdata/include) declare it. Wrappers take the same parameter types, so
// the user's Go arguments type-check against them as against the original.
type prototype struct {
	Result string
	Name   string
	Params []param
}

var (
	protoOnce sync.Once
	protos    map[string]*prototype
	typeKinds map[string]cKind
)

// cKind says how a wrapper may record a value of a C type.
type cKind uint8

const (
	cOpaque  cKind = iota // structs and anything unknown: not recorded
	cPointer              // pointers and handles: recorded as hex addresses
	cInteger              // integers and enums: recorded as numbers
)

var (
	commentRE   = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	protoRE     = regexp.MustCompile(`^(?:extern\s+)?([A-Za-z_][\w\s]*?\*?)\s*\b([A-Za-z_]\w*)\s*\((.*)\)$`)
	ptrTypedef  = regexp.MustCompile(`typedef\s+(?:const\s+)?(?:struct\s+\w+|void|char)\s*\*\s*(\w+)\s*;`)
	intTypedef  = regexp.MustCompile(`typedef\s+(?:unsigned\s+)?(?:long\s+long|long|int|short|char|size_t)\s+(\w+)\s*;`)
	enumTypedef = regexp.MustCompile(`(?s)typedef\s+enum\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;`)
	enumAlias   = regexp.MustCompile(`typedef\s+enum\s+\w+\s+(\w+)\s*;`)
)

// loadPrototypes parses hiplint's fixture headers once.
func loadPrototypes() {
	protoOnce.Do(func() {
		protos = map[string]*prototype{}
		typeKinds = map[string]cKind{}
		_ = fs.WalkDir(hiplint.Headers, "testdata/include", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".h") {
				return err
			}
			data, err := hiplint.Headers.ReadFile(path)
			if err != nil {
				return err
			}
			parseHeader(string(data))
			return nil
		})
	})
}

func parseHeader(src string) {
	src = commentRE.ReplaceAllString(src, "")
	for _, m := range ptrTypedef.FindAllStringSubmatch(src, -1) {
		typeKinds[m[1]] = cPointer
	}
	for _, m := range intTypedef.FindAllStringSubmatch(src, -1) {
		typeKinds[m[1]] = cInteger
	}
	for _, re := range []*regexp.Regexp{enumTypedef, enumAlias} {
		for _, m := range re.FindAllStringSubmatch(src, -1) {
			typeKinds[m[1]] = cInteger
		}
	}
	// Drop preprocessor lines, then split declarations at semicolons.
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			lines = append(lines, l)
		}
	}
	for _, decl := range strings.Split(strings.Join(lines, " "), ";") {
		decl = strings.Join(strings.Fields(decl), " ")
		if i := strings.LastIndex(decl, "}"); i >= 0 {
			decl = strings.TrimSpace(decl[i+1:])
		}
		m := protoRE.FindStringSubmatch(decl)
		if m == nil || strings.HasPrefix(m[1], "typedef") || strings.Contains(m[3], "(") {
			continue
		}
		p := &prototype{Result: strings.TrimSpace(m[1]), Name: m[2]}
		if args := strings.TrimSpace(m[3]); args != "void" && args != "" {
			for i, a := range strings.Split(args, ",") {
				p.Params = append(p.Params, splitParam(strings.TrimSpace(a), i))
			}
		}
		protos[p.Name] = p
	}
}

// splitParam separates "const hipGraphNode_t* pDependencies" into type and name.
func splitParam(a string, i int) param {
	j := len(a)
	for j > 0 && (isIdent(a[j-1])) {
		j--
	}
	typ, name := strings.TrimSpace(a[:j]), a[j:]
	switch {
	case typ == "" || typ == "const" || typ == "struct" || typ == "enum",
		cTypeWords[name] || typeKinds[name] != cOpaque:
		// An unnamed parameter ("unsigned int", "hipStream_t"): all of it is the type.
		typ, name = a, ""
	}
	if name == "" {
		name = "a" + string(rune('0'+i%10))
	}
	return param{Type: typ, Name: "hp_" + name}
}

var cTypeWords = map[string]bool{"int": true, "char": true, "long": true, "short": true, "unsigned": true,
	"signed": true, "float": true, "double": true, "void": true, "size_t": true}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// prototypeOf returns the C declaration of a runtime function, if hiplint's
// headers declare it.
func prototypeOf(name string) (*prototype, bool) {
	loadPrototypes()
	p, ok := protos[name]
	return p, ok
}

// kindOf classifies a C type for recording.
func kindOf(typ string) cKind {
	loadPrototypes()
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	switch {
	case strings.HasSuffix(t, "*"):
		return cPointer
	case strings.HasPrefix(t, "enum "):
		return cInteger
	}
	switch t {
	case "CUdeviceptr": // an integer in C, a device address to us
		return cPointer
	case "int", "unsigned int", "unsigned", "size_t", "long", "unsigned long", "long long", "unsigned long long", "char", "unsigned char", "short":
		return cInteger
	}
	return typeKinds[t]
}

// pointee returns the type an out parameter points to ("hipModule_t*" → "hipModule_t").
func pointee(typ string) string {
	t := strings.TrimSpace(typ)
	if !strings.HasSuffix(t, "*") {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(t, "*"), "const "))
}
