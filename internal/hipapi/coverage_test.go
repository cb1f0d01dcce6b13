package hipapi

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// These tests hold hiplint's own declarations (testdata/include, which cgo
// uses when a machine has no GPU SDK) to the complete name lists of the HIP
// runtime, CUDA runtime and CUDA driver APIs in apinames/ (written by
// apinames/extract from the real headers and the CUDA bindings; see
// docs/architecture.md, "Runtime declarations"). The C compiler is the
// judge: each name becomes a small use of it in a C file that includes the
// fallback headers, and a name the headers lack, or declare with another
// value, fails to compile.

// apiList is one committed name list.
type apiList struct {
	file    string
	headers []string // what the generated C file includes
	sources []string // the "# source:" lines
	entries []apiName
}

type apiName struct {
	kind, name, value string
}

func (n apiName) String() string {
	if n.value != "" {
		return n.kind + " " + n.name + " = " + n.value
	}
	return n.kind + " " + n.name
}

var apiLists = []struct {
	file    string
	headers []string
}{
	{"hip.txt", []string{"hip/hip_runtime.h", "hip/hip_runtime_api.h", "hip/hip_ext.h", "hip/hip_deprecated.h",
		"hip/library_types.h", "hip/hip_version.h", "hip/hip_common.h", "hip/driver_types.h",
		"hip/texture_types.h", "hip/surface_types.h", "hip/hip_texture_types.h"}},
	{"cuda_runtime.txt", []string{"cuda_runtime.h", "cuda_runtime_api.h", "driver_types.h", "vector_types.h",
		"surface_types.h", "texture_types.h", "library_types.h", "device_types.h", "driver_functions.h",
		"cuda_profiler_api.h"}},
	{"cuda_driver.txt", []string{"cuda.h", "cudaProfiler.h"}},
}

var apiLine = regexp.MustCompile(`^(func|enum|field|typedef|macro|struct|union|enumtype) ([A-Za-z_][\w.]*)(?: = (-?\d+))?$`)

func readAPIList(t *testing.T, file string, headers []string) *apiList {
	t.Helper()
	f, err := os.Open(filepath.Join("apinames", file))
	require.NoError(t, err)
	defer f.Close()
	l := &apiList{file: file, headers: headers}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if s, ok := strings.CutPrefix(line, "# source: "); ok {
			l.sources = append(l.sources, s)
			continue
		}
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		m := apiLine.FindStringSubmatch(line)
		require.NotNil(t, m, "%s:%d: not a name line: %q", file, n, line)
		l.entries = append(l.entries, apiName{m[1], m[2], m[3]})
	}
	require.NoError(t, sc.Err())
	return l
}

// checkSource is the C file that uses every name of l, one check a name;
// a "#line i" before each check names the entry (i-1) a diagnostic is about.
func checkSource(l *apiList) string {
	typedefs := map[string]bool{}
	unions := map[string]bool{}
	for _, e := range l.entries {
		switch e.kind {
		case "typedef":
			typedefs[e.name] = true
		case "union":
			unions[e.name] = true
		}
	}
	var b strings.Builder
	b.WriteString("#include <stddef.h>\n")
	for _, h := range l.headers {
		fmt.Fprintf(&b, "#include <%s>\n", h)
	}
	value := func(i int, e apiName) {
		if e.value == "" {
			return
		}
		v := e.value
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && (n > 1<<31-1 || n < -1<<31) {
			v += "LL"
		}
		fmt.Fprintf(&b, "#line %d \"chk\"\ntypedef char value_%d[((%s) == (%s)) ? 1 : -1];\n", i+1, i, e.name, v)
	}
	for i, e := range l.entries {
		switch e.kind {
		case "func":
			fmt.Fprintf(&b, "#line %d \"chk\"\nvoid check_%d(void) { (void)&%s; }\n", i+1, i, e.name)
		case "enum":
			fmt.Fprintf(&b, "#line %d \"chk\"\nvoid check_%d(void) { (void)(%s); }\n", i+1, i, e.name)
			value(i, e)
		case "macro":
			fmt.Fprintf(&b, "#ifndef %s\n#line %d \"chk\"\n#error missing macro %s\n#endif\n", e.name, i+1, e.name)
			value(i, e)
		case "typedef":
			fmt.Fprintf(&b, "#line %d \"chk\"\ntypedef %s *check_%d;\n", i+1, e.name, i)
		case "struct", "union":
			fmt.Fprintf(&b, "#line %d \"chk\"\nvoid check_%d(void) { (void)sizeof(%s %s); }\n", i+1, i, e.kind, e.name)
		case "enumtype":
			fmt.Fprintf(&b, "#line %d \"chk\"\nvoid check_%d(void) { (void)sizeof(enum %s); }\n", i+1, i, e.name)
		case "field":
			owner, member, _ := strings.Cut(e.name, ".")
			typ := owner
			switch {
			case typedefs[owner]:
			case unions[owner]:
				typ = "union " + owner
			default:
				typ = "struct " + owner
			}
			fmt.Fprintf(&b, "#line %d \"chk\"\nvoid check_%d(%s *p) { (void)p->%s; }\n", i+1, i, typ, member)
		}
	}
	return b.String()
}

var (
	chkDiag   = regexp.MustCompile(`^chk:(\d+):(?:\d+:)? (?:fatal )?error: (.*)$`)
	errorDiag = regexp.MustCompile(`^([^:]+):\d+:(?:\d+:)? (?:fatal )?error: `)
)

// missingNames compiles l's checks against the headers in dir and returns
// the entries the compiler rejects, with its first complaint about each. An
// error in the headers themselves fails the test.
func missingNames(t *testing.T, l *apiList, dir string) map[apiName]string {
	t.Helper()
	cmd := exec.Command(cCompiler(t), "-fsyntax-only", "-std=gnu11", "-w", "-fmax-errors=0",
		"-I", dir, "-x", "c", "-")
	cmd.Stdin = strings.NewReader(checkSource(l))
	out, err := cmd.CombinedOutput()
	missing := map[apiName]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if m := errorDiag.FindStringSubmatch(line); m != nil && m[1] != "chk" {
			t.Errorf("the headers do not compile: %s", line)
		}
		m := chkDiag.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		if i < 1 || i > len(l.entries) {
			continue
		}
		if _, seen := missing[l.entries[i-1]]; !seen {
			missing[l.entries[i-1]] = m[2]
		}
	}
	if err != nil && len(missing) == 0 {
		t.Fatalf("the checks do not compile, and no diagnostic names an entry:\n%s", out)
	}
	return missing
}

// Every name of the HIP runtime, CUDA runtime and CUDA driver APIs is
// declared by hiplint's headers, with the real value.
func TestRuntimeDeclarationsCoverage(t *testing.T) {
	for _, al := range apiLists {
		t.Run(strings.TrimSuffix(al.file, ".txt"), func(t *testing.T) {
			l := readAPIList(t, al.file, al.headers)
			missing := missingNames(t, l, fixtureDir)
			covered := len(l.entries) - len(missing)
			t.Logf("%s: %d of %d names declared (%.2f%%)", al.file, covered, len(l.entries),
				100*float64(covered)/float64(len(l.entries)))
			var lines []string
			for e, why := range missing {
				lines = append(lines, fmt.Sprintf("%s: %s", e, why))
			}
			sort.Strings(lines)
			if len(lines) > 0 {
				t.Errorf("%d names of %s are not declared as listed by testdata/include:\n\t%s",
					len(lines), al.file, strings.Join(lines, "\n\t"))
			}
		})
	}
}

// The lists are whole: each records its sources with their commits, and
// holds the names the issue that asked for them named.
func TestAPIListsRecordSources(t *testing.T) {
	commit := regexp.MustCompile(`\b[0-9a-f]{40}\b`)
	want := map[string][]string{
		"hip.txt":          {"enum hipJitOptionNumOptions", "field hipDeviceProp_t.gcnArch", "func make_hipExtent", "macro HIP_INCLUDE_HIP_HIP_RUNTIME_H", "func hipMalloc"},
		"cuda_runtime.txt": {"func make_cudaExtent", "func make_cudaPitchedPtr", "func make_cudaPos", "macro __CUDA_RUNTIME_H__", "macro __CUDA_RUNTIME_API_H__", "func cudaMalloc"},
		"cuda_driver.txt":  {"enum CU_JIT_NUM_OPTIONS", "enum CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS", "macro __cuda_cuda_h__", "func cuMemAlloc"},
	}
	for _, al := range apiLists {
		l := readAPIList(t, al.file, al.headers)
		assert.Greater(t, len(l.entries), 1500, "%s", al.file)
		withCommit := 0
		for _, s := range l.sources {
			if commit.MatchString(s) {
				withCommit++
			}
		}
		// The HIP list's other source is a Debian package, named by its
		// version.
		assert.GreaterOrEqual(t, withCommit, 1, "%s: its sources must name their commits: %q", al.file, l.sources)
		assert.GreaterOrEqual(t, len(l.sources), 2, "%s: %q", al.file, l.sources)
		names := map[string]bool{}
		for _, e := range l.entries {
			names[e.kind+" "+e.name] = true
		}
		for _, w := range want[al.file] {
			assert.True(t, names[w], "%s lacks %q", al.file, w)
		}
	}
}

// The coverage check fails when a declaration is taken away or given
// another value: each edit of a copy of the headers is reported as
// exactly the entry it breaks.
func TestRuntimeDeclarationsCoverageFailsOnRemoval(t *testing.T) {
	cases := []struct {
		list, file, old, new string
		want                 apiName
	}{
		{"hip.txt", "hip/hip_runtime_api.h", "hipJitOptionNumOptions", "hipJitOptionRemoved",
			apiName{kind: "enum", name: "hipJitOptionNumOptions", value: "17"}},
		{"hip.txt", "hip/hip_runtime_api.h", "hipError_t hipMalloc(", "hipError_t hipMallocRemoved(",
			apiName{kind: "func", name: "hipMalloc"}},
		{"hip.txt", "hip/hip_runtime_api.h", "int gcnArch;", "int gcnArchRemoved;",
			apiName{kind: "field", name: "hipDeviceProp_t.gcnArch"}},
		{"cuda_driver.txt", "cuda.h", "CU_JIT_NUM_OPTIONS = 34", "CU_JIT_NUM_OPTIONS = 35",
			apiName{kind: "enum", name: "CU_JIT_NUM_OPTIONS", value: "34"}},
		{"cuda_runtime.txt", "cuda_runtime.h", "#define __CUDA_RUNTIME_H__", "#define __CUDA_RUNTIME_H_REMOVED",
			apiName{kind: "macro", name: "__CUDA_RUNTIME_H__"}},
		{"cuda_runtime.txt", "driver_functions.h", "make_cudaExtent(", "make_cudaExtentRemoved(",
			apiName{kind: "func", name: "make_cudaExtent"}},
	}
	for _, c := range cases {
		t.Run(c.want.name, func(t *testing.T) {
			var headers []string
			for _, al := range apiLists {
				if al.file == c.list {
					headers = al.headers
				}
			}
			l := readAPIList(t, c.list, headers)
			dir := t.TempDir()
			require.NoError(t, os.CopyFS(dir, os.DirFS(fixtureDir)))
			path := filepath.Join(dir, c.file)
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, 1, strings.Count(string(src), c.old), "%s must hold %q once", c.file, c.old)
			require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(src), c.old, c.new, 1)), 0o644))
			before := missingNames(t, l, fixtureDir)
			missing := missingNames(t, l, dir)
			var got []string
			for e := range missing {
				if _, ok := before[e]; !ok {
					got = append(got, e.String())
				}
			}
			sort.Strings(got)
			if len(got) > 10 {
				got = append(got[:10], fmt.Sprintf("... %d more", len(got)-10))
			}
			assert.Equal(t, []string{c.want.String()}, got, "what the check reports after %s: %q -> %q", c.file, c.old, c.new)
		})
	}
}
