package runtimecheck

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

//go:embed hipcuda/include
var hipcudaHeaders embed.FS

// Platform is the GPU runtime the instrumented tests are built against.
type Platform struct {
	Name string   // "rocm", "cuda" (HIP-named code through the mapping), or "none"
	Env  []string // CGO_CFLAGS/CGO_LDFLAGS additions
	Note string   // one line for the user
}

// detectPlatform finds ROCm, else CUDA, in the environment. With CUDA and no
// ROCm, HIP-named code builds through hiplint's HIP-on-CUDA mapping headers,
// written to mapDir.
func detectPlatform(env []string, mapDir string) (Platform, error) {
	get := func(k string) string { return lookupEnv(env, k) }
	rocm := get("ROCM_PATH")
	if rocm == "" {
		if _, err := os.Stat("/opt/rocm/include/hip/hip_runtime_api.h"); err == nil {
			rocm = "/opt/rocm"
		}
	}
	want := get("HIPLINT_PLATFORM")
	if rocm != "" && (want == "" || want == "rocm") {
		inc, err := goFlag("-I", filepath.Join(rocm, "include"))
		if err != nil {
			return Platform{}, fmt.Errorf("ROCM_PATH: %v", err)
		}
		lib, err := goFlag("-L", filepath.Join(rocm, "lib"))
		if err != nil {
			return Platform{}, fmt.Errorf("ROCM_PATH: %v", err)
		}
		return Platform{Name: "rocm", Env: []string{
			"CGO_CFLAGS=" + strings.TrimSpace(get("CGO_CFLAGS")+" -D__HIP_PLATFORM_AMD__ "+inc),
			"CGO_LDFLAGS=" + strings.TrimSpace(get("CGO_LDFLAGS")+" "+lib+" -lamdhip64"),
		}, Note: "ROCm at " + rocm}, nil
	}
	inc, lib := get("CUDA_INC"), get("CUDA_LIB")
	for _, d := range []string{"/usr/local/cuda/include", "/usr/local/cuda/targets/x86_64-linux/include"} {
		if _, err := os.Stat(filepath.Join(d, "cuda_runtime_api.h")); err == nil && inc == "" {
			inc = d
		}
	}
	for _, d := range []string{"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"} {
		if _, err := os.Stat(filepath.Join(d, "libcudart.so")); err == nil && lib == "" {
			lib = d
		}
	}
	if inc != "" && lib != "" && (want == "" || want == "cuda") {
		if err := installMapping(mapDir); err != nil {
			return Platform{}, err
		}
		mapInc, err := goFlag("-I", mapDir)
		if err != nil {
			return Platform{}, fmt.Errorf("the temporary directory: %v", err)
		}
		incFlag, err := goFlag("-I", inc)
		if err != nil {
			return Platform{}, fmt.Errorf("CUDA_INC: %v", err)
		}
		libFlag, err := goFlag("-L", lib)
		if err != nil {
			return Platform{}, fmt.Errorf("CUDA_LIB: %v", err)
		}
		return Platform{Name: "cuda", Env: []string{
			"CGO_CFLAGS=" + strings.TrimSpace(get("CGO_CFLAGS")+" "+mapInc+" "+incFlag),
			"CGO_LDFLAGS=" + strings.TrimSpace(get("CGO_LDFLAGS")+" "+libFlag+" -lcudart -lcuda"),
		}, Note: fmt.Sprintf("CUDA at %s; HIP-named code runs through hiplint's HIP-on-CUDA mapping", filepath.Dir(inc))}, nil
	}
	// Whether the tests link is not known before they are built: a package
	// may link a runtime (or a stand-in) of its own. Confirm says what it
	// found here, and after the runs whether they built (buildSummary).
	return Platform{Name: "none", Note: "no ROCm and no CUDA found (ROCM_PATH, /opt/rocm, CUDA_INC and CUDA_LIB, /usr/local/cuda): the tests are built with their packages' own cgo flags only"}, nil
}

// goFlag returns the compiler flag opt+path as one word of a CGO_CFLAGS or
// CGO_LDFLAGS value. The go command splits those at spaces, except inside a
// word that starts with a quote (cmd/internal/quoted): a path with a space,
// a tab or a quote is written as one quoted word ("-I/opt/my rocm/include"),
// with the quote the path does not contain (there is no escaping inside a
// quoted word); a path holding both quotes cannot be passed and is an error.
func goFlag(opt, path string) (string, error) {
	arg := opt + path
	if !strings.ContainsAny(arg, " \t\n\r'\"") {
		return arg, nil
	}
	switch {
	case !strings.Contains(arg, `"`):
		return `"` + arg + `"`, nil
	case !strings.Contains(arg, "'"):
		return "'" + arg + "'", nil
	}
	return "", fmt.Errorf("the path %q cannot be passed to the C compiler through CGO_CFLAGS or CGO_LDFLAGS (it holds both quote characters)", path)
}

// installMapping writes the HIP-on-CUDA headers to dir.
func installMapping(dir string) error {
	const root = "hipcuda/include"
	return fs.WalkDir(hipcudaHeaders, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		target := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := hipcudaHeaders.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// withEnv returns env with the given KEY=value entries replacing existing ones.
func withEnv(env []string, kv ...string) []string {
	out := make([]string, 0, len(env)+len(kv))
	keys := map[string]bool{}
	for _, e := range kv {
		k, _, _ := strings.Cut(e, "=")
		keys[k] = true
	}
	for _, e := range env {
		k, _, _ := strings.Cut(e, "=")
		if !keys[k] {
			out = append(out, e)
		}
	}
	return append(out, kv...)
}
