package driver

import (
	"bytes"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
)

func TestReadIncludes(t *testing.T) {
	src := `#include <a.h>
  #  include "b.h" // trailing
#include_next <c.h>
#import "d.h"
#if __has_include(<e.h>) && defined(X)
#elif __has_include_next ( "f.h" )
#endif
#define HAS_G __has_include(<g.h>)
/* #include <in-comment.h>
   #include <still-comment.h> */
// #include <line-comment.h>
#if 0
#include <in-dead-branch.h>
#endif
const char *s = "/* not a comment";
#include <after-string.h>
const char *u = "a\"b /* still a string";
#include <after-escaped-quote.h>
#inc\
lude <continued.h>
#error don't stop
#include <after-apostrophe.h>
#embed "data.bin"
#ifdef __has_include
# if defined(__has_include) && __has_include ("linux/x.h")
# endif
#endif
`
	h, ok := readIncludes([]byte(src))
	if !ok {
		t.Fatal("declined")
	}
	var got []string
	for _, r := range h.refs {
		n := r.name
		if r.quoted {
			n = `"` + n + `"`
		}
		got = append(got, n)
	}
	want := []string{"a.h", `"b.h"`, "c.h", `"d.h"`, "e.h", `"f.h"`, "g.h", "in-dead-branch.h", "after-string.h", "after-escaped-quote.h", "continued.h", "after-apostrophe.h", `"data.bin"`, `"linux/x.h"`}
	if !slices.Equal(got, want) {
		t.Errorf("includes:\n got %q\nwant %q", got, want)
	}

	for _, bad := range []string{
		"#include HEADER\n",
		"#define H <x.h>\n#include H\n",
		"#if __has_include(HEADER)\n#endif\n",
		"%:include <x.h>\n",
		"??=include <x.h>\n",
		"#include <unterminated.h\n",
	} {
		if _, ok := readIncludes([]byte(bad)); ok {
			t.Errorf("%q: read, want declined", bad)
		}
	}
}

func TestIncludeDirs(t *testing.T) {
	dirs, ok := includeDirs([]string{"-O2", "-g", "-I./include/", "-I", "/abs/a", "-iquote", "q", "-isystem/sys", "-idirafter", "/after", "-DX=1", "-D", "Y", "-Wall", "-march=native", "-std=gnu11"}, "/pkg")
	if !ok {
		t.Fatal("declined")
	}
	want := []string{"/pkg/include", "/abs/a", "/pkg/q", "/sys", "/after"}
	if !slices.Equal(dirs, want) {
		t.Errorf("dirs: got %q, want %q", dirs, want)
	}
	for _, bad := range [][]string{
		{"-include", "x.h"}, {"-imacros", "x.h"}, {"-nostdinc"}, {"--sysroot=/s"}, {"-isysroot", "/s"},
		{"-m32"}, {"-I-"}, {"-I=/inc"}, {"-I"}, {"-Wp,-I/x"}, {"-iprefix", "/p"}, {"-fmodules"}, {"--target=arm"}, {"-B/x"},
	} {
		if _, ok := includeDirs(bad, "/pkg"); ok {
			t.Errorf("%q: accepted, want declined", bad)
		}
	}
}

func TestParseSearchList(t *testing.T) {
	out := `Using built-in specs.
ignoring nonexistent directory "/usr/local/include/x86_64-linux-gnu"
ignoring duplicate directory "/usr/include"
#include "..." search starts here:
 /quote/dir
#include <...> search starts here:
 /usr/lib/gcc/x86_64-linux-gnu/12/include
 /usr/local/include
 /usr/include
End of search list.
`
	d, ok := parseSearchList([]byte(out))
	if !ok {
		t.Fatal("not read")
	}
	if want := []string{"/quote/dir", "/usr/lib/gcc/x86_64-linux-gnu/12/include", "/usr/local/include", "/usr/include"}; !slices.Equal(d.Dirs, want) {
		t.Errorf("dirs %q, want %q", d.Dirs, want)
	}
	if want := []string{"/usr/local/include/x86_64-linux-gnu"}; !slices.Equal(d.Ignored, want) {
		t.Errorf("ignored %q, want %q", d.Ignored, want)
	}
	for _, bad := range []string{
		"no list at all\n",
		"#include <...> search starts here:\n /usr/include\n",                                                     // no end
		"#include <...> search starts here:\n /S/Library/Frameworks (framework directory)\nEnd of search list.\n", // macOS
		"#include <...> search starts here:\n relative\nEnd of search list.\n",
	} {
		if _, ok := parseSearchList([]byte(bad)); ok {
			t.Errorf("%q: read, want declined", bad)
		}
	}
}

// TestResolverCoversCompiler: for preambles of the shapes cgo packages
// use, every header the C compiler reads (`cc -M`) is among those the
// resolver lists. The resolver may list more (every branch, every match),
// never fewer.
func TestResolverCoversCompiler(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc):", err)
	}
	root, err := filepath.Abs("../../testdata/include")
	if err != nil {
		t.Fatal(err)
	}
	pkg := t.TempDir()
	other := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A package directory with its own include directory (icicle's
	// shape), a header found next to the including header, an
	// include_next chain and a conditional.
	write(filepath.Join(pkg, "include", "curve.h"), "#pragma once\n#include \"field.h\"\n#include <stdint.h>\n")
	write(filepath.Join(pkg, "include", "field.h"), "#ifdef WIDE\n#include <wide.h>\n#else\n#include <narrow.h>\n#endif\n")
	write(filepath.Join(other, "narrow.h"), "#include_next <narrow.h>\n")
	write(filepath.Join(other, "next", "narrow.h"), "#define NARROW 1\n")
	write(filepath.Join(pkg, "local.h"), "#include <stddef.h>\n")

	cases := []struct {
		name, preamble string
		flags          []string
	}{
		{"libc", "#include <stdlib.h>\n#include <stdio.h>\n#include <string.h>\n", nil},
		// glibc's unistd.h and sys/stat.h test #ifdef __has_include.
		{"posix", "#include <unistd.h>\n#include <sys/stat.h>\n#include <pthread.h>\n#include <sys/mman.h>\n#include <dlfcn.h>\n", nil},
		{"hip", "#include <hip/hip_runtime.h>\n#include <stdlib.h>\n", []string{"-I" + root}},
		{"quoted", "#include \"local.h\"\n#include \"curve.h\"\n", []string{"-I./include/", "-I", other, "-I", filepath.Join(other, "next")}},
		{"conditional", "#if __has_include(<stdatomic.h>)\n#include <stdatomic.h>\n#endif\n#include <math.h>\n", []string{"-O2", "-g", "-DWIDE"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := &keyer{cfg: &Config{Dir: pkg}, env: map[string]string{"CC": cc}, headers: map[string][32]byte{}, manifest: map[string]headerScan{}}
			req := scanRequest{cc: cc, flags: c.flags, dir: pkg, preamble: c.preamble}
			own, ok := k.ownScan(req)
			if !ok {
				t.Fatal("the resolver declined")
			}
			out := k.runScan(cc, req.args(true), pkg, c.preamble)
			deps, ok := parseMakeDeps(out)
			if !ok || len(deps) == 0 {
				t.Fatalf("cc -M: %s", out)
			}
			have := map[string]bool{}
			for _, d := range own.deps {
				have[resolvedPath(d)] = true
			}
			for _, d := range deps {
				if !filepath.IsAbs(d) {
					d = filepath.Join(pkg, d)
				}
				if !have[resolvedPath(d)] {
					t.Errorf("cc -M reads %s; the resolver does not list it", d)
				}
			}
		})
	}
}

func resolvedPath(p string) string {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return r
}

// TestResolverKeyFollowsFiles: a header created where the compiler would
// find it, an edit of a header in a branch no macro may take, and an edit
// of a header another header includes each change the scan's sum; an
// unrelated file does not.
func TestResolverKeyFollowsFiles(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc):", err)
	}
	pkg := t.TempDir()
	inc := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(inc, "top.h"), "#include \"mid.h\"\n#if 0\n#include <dead.h>\n#endif\n#include <later.h>\n")
	write(filepath.Join(inc, "mid.h"), "#define MID 1\n")
	write(filepath.Join(inc, "dead.h"), "#define DEAD 1\n")
	sum := func() [32]byte {
		t.Helper()
		k := &keyer{cfg: &Config{Dir: pkg}, env: map[string]string{"CC": cc}, headers: map[string][32]byte{}, manifest: map[string]headerScan{}}
		s, ok := k.ownScan(scanRequest{cc: cc, flags: []string{"-I", inc}, dir: pkg, preamble: "#include <top.h>\n"})
		if !ok {
			t.Fatal("the resolver declined")
		}
		return s.sum
	}
	s0 := sum()
	if sum() != s0 {
		t.Fatal("the same files give another sum")
	}
	write(filepath.Join(inc, "unrelated.h"), "#define U 1\n")
	if sum() != s0 {
		t.Error("a header nothing includes changed the sum")
	}
	steps := []struct{ what, file, text string }{
		{"a missing header created", filepath.Join(pkg, "later.h"), "#define LATER 1\n"},
		{"a header in a dead branch edited", filepath.Join(inc, "dead.h"), "#define DEAD 2\n"},
		{"an indirectly included header edited", filepath.Join(inc, "mid.h"), "#define MID 2\n"},
	}
	prev := s0
	for _, s := range steps {
		write(s.file, s.text)
		if got := sum(); got == prev {
			t.Errorf("%s: the sum did not change", s.what)
		} else {
			prev = got
		}
	}
}

// TestExecutableHashStreams: the executable's hash is that of its bytes,
// computed without holding them: a cold run's peak memory once grew by the
// executable's size (17 MB for hiplint).
func TestExecutableHashStreams(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Skip(err)
	}
	if len(data) < 8<<20 {
		t.Skipf("test binary of %d bytes: too small to tell", len(data))
	}
	want := sha256.Sum256(data)
	data = nil
	executableID.once = sync.Once{}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := ExecutableHash(nil)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want[:]) {
		t.Errorf("hash %x, want %x", got, want)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 2<<20 {
		t.Errorf("hashing allocated %d bytes: the executable is read whole", n)
	}
}
