package synth

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// failure is what a package's cgo output says went wrong, as far as
// synthesis can repair it.
type failure struct {
	// missing are the headers the compiler did not find, each with the
	// Go file and line of the preamble that includes it (when the include
	// is in a preamble).
	missing []fileLine
	// unknown are the C names cgo could not resolve, by Go file.
	unknown map[string][]string
	// platform is the preamble line through which HIP's header was
	// included when it stopped at its platform #error.
	platform *fileLine
	// inC are names the preamble's C code uses and nothing declares, by
	// Go file.
	inC map[string]map[string]kind
	// other is the first error synthesis cannot repair ("" when none).
	other string
}

type fileLine struct {
	file string // as the compiler printed it
	line int
	name string // the header, for missing
}

var (
	// gcc: "p.go:4:11: fatal error: cublas_v2.h: No such file or directory";
	// clang: "p.go:4:10: fatal error: 'cublas_v2.h' file not found".
	gccMissing   = regexp.MustCompile(`^(.+?):(\d+):\d+: fatal error: (.+): No such file or directory$`)
	clangMissing = regexp.MustCompile(`^(.+?):(\d+):\d+: fatal error: '(.+)' file not found$`)
	// cgo: "p.go:15:19: could not determine what C.X refers to" (Go 1.24
	// and later) or "could not determine kind of name for C.X".
	unknownName = regexp.MustCompile(`^(.+?):\d+:\d+: could not determine (?:what|kind of name for) C\.([A-Za-z_][A-Za-z0-9_]*)(?: refers to)?$`)
	// gcc, about the preamble's own C code.
	cUse       = regexp.MustCompile(`^(.+?):\d+:\d+: (?:error|warning): (?:unknown type name '([A-Za-z_][A-Za-z0-9_]*)'|('([A-Za-z_][A-Za-z0-9_]*)' undeclared.*)|implicit declaration of function '([A-Za-z_][A-Za-z0-9_]*)'.*)$`)
	includedBy = regexp.MustCompile(`^(?:In file included from|\s+from) (.+?):(\d+)[,:]`)
	// A compiler diagnostic's position: "FILE:LINE:COL: ".
	diagFile = regexp.MustCompile(`^(.+?):\d+:\d+: `)
)

// platformError is the text of the #error HIP's own header stops at when
// neither HIP platform macro is defined.
const platformError = "Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"

// parseFailure reads the output of a failed cgo step ("# pkg" and the
// compiler's and cgo's lines).
func parseFailure(out string) *failure {
	f := &failure{unknown: map[string][]string{}}
	var chain []fileLine // the current "In file included from" chain, outermost last
	// gcc prints an include chain in full once and then only its part
	// below the last header it already named ("In file included from
	// hip_runtime.h:113:" for the next header hip_runtime.h includes):
	// via maps each header seen in a full chain to the preamble line
	// through which it came.
	via := map[string]fileLine{}
	top := func(diag string) (fileLine, bool) {
		if len(chain) == 0 {
			return fileLine{}, false
		}
		last := chain[len(chain)-1]
		if !strings.HasSuffix(last.file, ".go") {
			var ok bool
			if last, ok = via[last.file]; !ok {
				return fileLine{}, false
			}
		}
		for _, c := range chain {
			if !strings.HasSuffix(c.file, ".go") {
				via[c.file] = last
			}
		}
		if m := diagFile.FindStringSubmatch(diag); m != nil && !strings.HasSuffix(m[1], ".go") {
			via[m[1]] = last
		}
		return last, true
	}
	for _, line := range strings.Split(out, "\n") {
		if m := includedBy.FindStringSubmatch(line); m != nil {
			if strings.HasPrefix(line, "In file") {
				chain = chain[:0]
			}
			n, _ := strconv.Atoi(m[2])
			chain = append(chain, fileLine{file: m[1], line: n})
			continue
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "|") || strings.Contains(t, " | ") {
			continue // the compiler's excerpt of the source
		}
		if m := gccMissing.FindStringSubmatch(t); m != nil || clangMissing.FindStringSubmatch(t) != nil {
			if m == nil {
				m = clangMissing.FindStringSubmatch(t)
			}
			n, _ := strconv.Atoi(m[2])
			if len(chain) > 0 {
				// Included from a header of its own, not from the
				// preamble: the include cannot be rewritten.
				f.setOther(t)
				chain = chain[:0]
				continue
			}
			fl := fileLine{file: m[1], line: n, name: m[3]}
			f.missing = append(f.missing, fl)
			chain = chain[:0]
			continue
		}
		if m := unknownName.FindStringSubmatch(t); m != nil {
			f.unknown[m[1]] = append(f.unknown[m[1]], m[2])
			continue
		}
		if strings.Contains(t, platformError) {
			if top, ok := top(t); ok {
				f.platform = &top
			} else {
				f.setOther(t)
			}
			chain = chain[:0]
			continue
		}
		if m := cUse.FindStringSubmatch(t); m != nil && (strings.HasSuffix(m[1], ".go") || localHeader(m[1], chain)) {
			// A name the preamble's own C code uses, or a header of the
			// package's own that the preamble includes: the names go to the
			// Go file, whose declarations come before that include.
			if !strings.HasSuffix(m[1], ".go") {
				m[1] = chain[len(chain)-1].file
			}
			name, k := m[2]+m[4]+m[5], kindConst
			switch {
			case m[2] != "":
				k = kindType
			case m[5] != "":
				k = kindFunc
			}
			if f.inC == nil {
				f.inC = map[string]map[string]kind{}
			}
			if f.inC[m[1]] == nil {
				f.inC[m[1]] = map[string]kind{}
			}
			f.inC[m[1]][name] = k
			continue
		}
		if strings.Contains(t, "error:") {
			f.setOther(t)
		}
		if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "In file") && !includedBy.MatchString(line) {
			chain = chain[:0]
		}
	}
	return f
}

// localHeader reports whether file, where the compiler found an error, is
// a header of the package's own (named relative to its directory) included
// from a Go file's preamble.
// The header synthesis generated for a Go file counts as the file's own:
// a runtime type its declarations use that the runtime's header turned out
// not to declare (zerfoo's cudaDataType) is then declared too.
func localHeader(file string, chain []fileLine) bool {
	if len(chain) == 0 || !strings.HasSuffix(chain[len(chain)-1].file, ".go") {
		return false
	}
	if filepath.Base(file) == generatedName {
		return true
	}
	return !filepath.IsAbs(file) && (strings.HasSuffix(file, ".h") || strings.HasSuffix(file, ".hpp"))
}

// generatedName is the name of the headers synthesis generates.
const generatedName = "hiplint_synth.h"

func (f *failure) setOther(line string) {
	if f.other == "" {
		f.other = line
	}
}

// repairable reports whether synthesis has something to do about f.
func (f *failure) repairable() bool {
	return f.other == "" && (len(f.missing) > 0 || len(f.unknown) > 0 || len(f.inC) > 0 || f.platform != nil)
}
