// Package headerless lets hiplint lint cgo packages on machines without the
// GPU headers. CI runners rarely have ROCm or CUDA installed, yet cgo must
// preprocess each file's preamble before a package can be type-checked.
//
// When the C compiler cannot find a runtime header, hiplint writes its own
// declarations (the embedded testdata/include) to a directory and adds it to
// CGO_CFLAGS with -idirafter: searched after every other include directory,
// so a real header, wherever it is, still wins.
//
// The directory's path must not change between runs: CGO_CFLAGS is part of
// the go command's cache key for every cgo package, so a fresh temporary
// directory each run would redo cgo for all of them every time (measured:
// 7x slower on a warm cache, docs/performance.md). It is named by a hash of
// the headers, under the user's cache directory.
package headerless

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hiplint/hiplint"
	"golang.org/x/tools/go/packages"
)

// Names are the headers hiplint can supply that code includes directly, as
// it includes them: the note on the fallback names those a package includes.
var Names = []string{
	"hip/hip_runtime.h", "hip/hip_runtime_api.h",
	"cuda.h", "cuda_runtime.h", "cuda_runtime_api.h",
}

// Ships reports whether hiplint's declarations include the header name,
// relative to an include directory ("cuda.h", "hip/hip_runtime.h").
func Ships(name string) bool {
	_, err := fs.Stat(hiplint.Headers, "testdata/include/"+filepath.ToSlash(filepath.Clean(name)))
	return err == nil && !strings.Contains(name, "..")
}

// Missing returns the headers of Names that the C compiler cannot find with
// the given environment (CC, CGO_CPPFLAGS and CGO_CFLAGS are honoured). One
// run of the preprocessor answers for all of them.
func Missing(env []string) []string {
	cc, flags := CompilerArgs(env)
	args := append(flags, "-E", "-P", "-x", "c", "-")
	// Only whether a file is found matters, not whether it preprocesses on
	// its own: the real HIP header insists on a platform macro that the
	// package's own #cgo CFLAGS provide.
	var src strings.Builder
	for i, name := range Names {
		fmt.Fprintf(&src, "#if !__has_include(<%s>)\nhiplint_missing_%d\n#endif\n", name, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cc, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(src.String())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		// No working C compiler: every header is missing, and cgo will say why.
		return slices.Clone(Names)
	}
	var missing []string
	for i, name := range Names {
		if strings.Contains(stdout.String(), fmt.Sprintf("hiplint_missing_%d\n", i)) {
			missing = append(missing, name)
		}
	}
	return missing
}

// CompilerArgs returns the C compiler's program and the arguments cgo gives
// it before a package's own flags, in the go command's order: CC's own
// arguments, CGO_CPPFLAGS, CGO_CFLAGS ("-O2 -g" when unset).
func CompilerArgs(env []string) (cc string, args []string) {
	ccf := splitFields(lookup(env, "CC"))
	if len(ccf) == 0 {
		ccf = []string{"gcc"}
	}
	cflags, ok := lookupOK(env, "CGO_CFLAGS")
	if !ok {
		cflags = "-O2 -g"
	}
	args = append(ccf[1:], splitFields(lookup(env, "CGO_CPPFLAGS"))...)
	return ccf[0], append(args, splitFields(cflags)...)
}

// MissingFrom returns the headers of Names found in none of dirs: Missing's
// answer when dirs are every directory the compiler searches for a
// <name> header.
func MissingFrom(dirs []string) []string {
	var missing []string
	for _, name := range Names {
		found := false
		for _, d := range dirs {
			if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, name)
		}
	}
	return missing
}

func lookup(env []string, key string) string {
	v, _ := lookupOK(env, key)
	return v
}

// lookupOK returns the value of key in env (the last one, as the go command
// reads it) and whether it is set.
func lookupOK(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// Install returns a directory holding hiplint's headers and a function to
// call when they are no longer needed. The directory is
// <user cache dir>/hiplint/headers-<hash of the headers>, created once and
// reused, so that the go command's cache keys stay the same from one run to
// the next; its cleanup does nothing. Where that directory cannot be used,
// the headers go to a new private temporary directory that cleanup removes;
// when the reason is that the cache is not private to this user (a symbolic
// link, another owner, writable by others), a note on standard error says so.
func Install() (dir string, cleanup func(), err error) {
	files, err := headerFiles()
	if err != nil {
		return "", nil, err
	}
	dir, err = installCached("headers", files)
	if err == nil {
		return dir, func() {}, nil
	}
	var unsafe *unsafeError
	if errors.As(err, &unsafe) {
		notef("hiplint: note: not using the header cache: %v; using a private temporary directory", err)
	}
	dir, err = os.MkdirTemp("", "hiplint-headers-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	if _, ok := quoteField(dir); !ok {
		cleanup()
		return "", nil, fmt.Errorf("temporary directory %q cannot be passed in CGO_CFLAGS", dir)
	}
	if err := writeFiles(dir, files); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

// Dir returns the header cache directory of Install, creating it when
// needed, or an error where it cannot be used: it never falls back to a
// temporary directory, since its caller prints the path for later use
// (hiplint headers).
func Dir() (string, error) {
	files, err := headerFiles()
	if err != nil {
		return "", err
	}
	return installCached("headers", files)
}

// notef prints a note for the user; tests replace it.
var notef = func(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

// headerFiles returns the embedded headers by path relative to the include
// directory.
func headerFiles() (map[string][]byte, error) {
	const root = "testdata/include"
	files := map[string][]byte{}
	err := fs.WalkDir(hiplint.Headers, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := hiplint.Headers.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		files[rel] = data
		return nil
	})
	return files, err
}

// unsafeError says why a path of the cache is not private to this user.
type unsafeError struct{ path, why string }

func (e *unsafeError) Error() string { return e.path + " " + e.why }

// installCached returns the content-addressed directory of files, creating
// it when it does not exist. Every path it creates or uses below the user
// cache directory must be this user's, private: a real directory or regular
// file (never a symbolic link), owned by this user and writable by no one
// else, else it returns an *unsafeError and uses nothing there. It also
// fails when the directory holds something else than files.
func installCached(prefix string, files map[string][]byte) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	if err := cacheBase(base); err != nil {
		return "", err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(files[name]))
		h.Write(files[name])
	}
	top := filepath.Join(base, "hiplint")
	dir := filepath.Join(top, fmt.Sprintf("%s-%x", prefix, h.Sum(nil)[:12]))
	if _, ok := quoteField(dir); !ok {
		return "", fmt.Errorf("%q cannot be passed in CGO_CFLAGS", dir)
	}
	// Mkdir, not MkdirAll: it never follows a symbolic link put in its
	// place, and private checks what is there either way.
	if err := os.Mkdir(top, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	if err := private(top, true); err != nil {
		return "", err
	}
	removeStale(top, time.Now())
	if _, err := os.Lstat(dir); err == nil {
		err := holds(dir, files)
		var unsafe *unsafeError
		if err == nil || errors.As(err, &unsafe) {
			return dir, err // a foreign or shared entry is never touched
		}
		// A damaged entry of ours (a file altered, missing or added, a
		// run killed half-way through an older hiplint's write): set it
		// aside and write it anew, rather than fall back to a temporary
		// directory on every later run.
		aside, aerr := os.MkdirTemp(top, "tmp-headers-damaged-")
		if aerr != nil {
			return "", err
		}
		if os.Rename(dir, filepath.Join(aside, "old")) != nil {
			os.RemoveAll(aside)
			return "", err
		}
		os.RemoveAll(aside)
	}
	// Populate a sibling and rename it into place, so that a concurrent
	// hiplint never sees a half-written directory.
	tmp, err := os.MkdirTemp(top, "tmp-headers-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := writeFiles(tmp, files); err != nil {
		return "", err
	}
	_ = os.Rename(tmp, dir) // fails when another process got there first
	return dir, holds(dir, files)
}

// staleAfter is how old a tmp-headers-* directory must be for removeStale
// to take it for the leftover of a killed run: a live run renames its own
// into place within a second.
const staleAfter = 10 * time.Minute

// removeStale removes the tmp-headers-* directories under top that a killed
// hiplint left (older than staleAfter), each only when it is private to
// this user.
func removeStale(top string, now time.Time) {
	entries, err := os.ReadDir(top)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "tmp-headers-") {
			continue
		}
		path := filepath.Join(top, e.Name())
		info, err := os.Lstat(path)
		if err != nil || now.Sub(info.ModTime()) < staleAfter || private(path, true) != nil {
			continue
		}
		os.RemoveAll(path)
	}
}

// InstallGenerated returns the path of a header holding data, named name,
// in a directory of its own named by a hash of its contents under the
// user's cache directory (<user cache dir>/hiplint/gen-<hash>/name), checked
// and created as Install's: the same contents get the same path from one run
// to the next, so that the go command's cache keys of the cgo packages that
// include it stay the same. Where the cache cannot be used, the header goes
// to a new private temporary directory that cleanup removes.
func InstallGenerated(name string, data []byte) (path string, cleanup func(), err error) {
	files := map[string][]byte{name: data}
	dir, err := installCached("gen", files)
	if err == nil {
		return filepath.Join(dir, name), func() {}, nil
	}
	dir, err = os.MkdirTemp("", "hiplint-gen-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	if err := writeFiles(dir, files); err != nil {
		cleanup()
		return "", nil, err
	}
	return filepath.Join(dir, name), cleanup, nil
}

// cacheBase creates the user cache directory privately when it does not
// exist. An existing one may be a symbolic link (a home directory's cache on
// another disk), but it must be owned by this user or root, and writable by
// others only with the sticky bit (as /tmp), so that nobody else can move
// hiplint's directory away and put their own in its place.
func cacheBase(base string) error {
	if err := os.MkdirAll(base, 0o700); err != nil {
		return err
	}
	fi, err := os.Stat(base)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &unsafeError{base, "is not a directory"}
	}
	if uid, ok := owner(fi); ok && uid != os.Getuid() && uid != 0 {
		return &unsafeError{base, fmt.Sprintf("is owned by another user (uid %d)", uid)}
	}
	if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		return &unsafeError{base, "is writable by other users"}
	}
	return nil
}

// private checks that path, as it is (a symbolic link is not followed), is a
// directory (dir) or a regular file owned by this user and writable by no
// one else.
func private(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return &unsafeError{path, "is a symbolic link"}
	case dir && !fi.IsDir():
		return &unsafeError{path, "is not a directory"}
	case !dir && !fi.Mode().IsRegular():
		return &unsafeError{path, "is not a regular file"}
	}
	if uid, ok := owner(fi); ok && uid != os.Getuid() {
		return &unsafeError{path, fmt.Sprintf("is owned by another user (uid %d)", uid)}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return &unsafeError{path, "is writable by other users"}
	}
	return nil
}

// holds checks that dir holds exactly files (for the files' names, with
// their contents), each directory and file private to this user, so that a
// damaged, altered or foreign directory is never used.
func holds(dir string, files map[string][]byte) error {
	if err := private(dir, true); err != nil {
		return err
	}
	seen := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		if err := private(path, d.IsDir()); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		want, ok := files[rel]
		if !ok {
			return fmt.Errorf("%s: not one of hiplint's headers", path)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s: altered", path)
		}
		seen++
		return nil
	})
	if err == nil && seen != len(files) {
		err = fmt.Errorf("%s: headers missing", dir)
	}
	return err
}

func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		target := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// Env returns env with dir added to CGO_CFLAGS as an -idirafter directory:
// searched after every other include directory, so that an installed header
// still wins.
func Env(env []string, dir string) []string {
	return addFlag(env, "CGO_CFLAGS", "-O2 -g", "-idirafter", dir, false)
}

// Override returns env with dir added in front of CGO_CPPFLAGS as an -I
// directory: searched before every include directory of the environment, of
// the packages' #cgo directives and of the system, so that hiplint's
// declarations are used even where headers are installed (-headers=hiplint).
// The go command passes CGO_CPPFLAGS to the C compiler first.
func Override(env []string, dir string) []string {
	return addFlag(env, "CGO_CPPFLAGS", "", "-I", dir, true)
}

// addFlag returns env with flag and dir added to the variable key (before
// its flags with first, else after them), dir quoted as the go command
// splits the variable. An unset variable has the go command's default
// value def.
func addFlag(env []string, key, def, flag, dir string, first bool) []string {
	old, ok := lookupOK(env, key)
	if !ok {
		old = def
	}
	q, _ := quoteField(dir) // Install returns only directories that can be quoted
	flags := strings.TrimSpace(old + " " + flag + " " + q)
	if first {
		flags = strings.TrimSpace(flag + " " + q + " " + old)
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+flags)
}

// quoteField returns s as one field of a flags variable as the go command
// splits CGO_CFLAGS and CC (cmd/internal/quoted): fields are separated by
// white space, and a field that starts with a single or double quote runs to
// the next such quote, with no escapes. It reports false for a string that
// cannot be written so (white space and both quotes).
func quoteField(s string) (string, bool) {
	switch {
	case s != "" && !strings.ContainsAny(s, " \t\n\r") && s[0] != '\'' && s[0] != '"':
		return s, true
	case !strings.Contains(s, "'"):
		return "'" + s + "'", true
	case !strings.Contains(s, `"`):
		return `"` + s + `"`, true
	}
	return "", false
}

// splitFields splits a flags variable as the go command does (quoteField).
// An unterminated quote runs to the end.
func splitFields(s string) []string {
	var fields []string
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return fields
		}
		if q := s[0]; q == '\'' || q == '"' {
			field, rest, _ := strings.Cut(s[1:], string(q))
			fields = append(fields, field)
			s = rest
			continue
		}
		i := strings.IndexAny(s, " \t\n\r")
		if i < 0 {
			i = len(s)
		}
		fields = append(fields, s[:i])
		s = s[i:]
	}
}

// Auto returns env as `hiplint -headers=auto` runs the go command: unchanged
// where the C compiler finds the GPU runtime headers, else with hiplint's
// declarations installed and added (Install, Env). Call cleanup when done.
// The benchmark drivers load packages through it, exactly as hiplint does.
func Auto(env []string) (out []string, cleanup func(), err error) {
	if len(Missing(env)) == 0 {
		return env, func() {}, nil
	}
	dir, cleanup, err := Install()
	if err != nil {
		return nil, nil, err
	}
	return Env(env, dir), cleanup, nil
}

// platformError is the text of the #error HIP's own header stops at when
// neither HIP platform macro is defined.
const platformError = "Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"

// PlatformHint returns a hint when a package among pkgs and their
// dependencies failed in cgo at the installed HIP header's platform #error,
// and "" otherwise.
func PlatformHint(pkgs []*packages.Package) string {
	found := false
	packages.Visit(pkgs, nil, func(pkg *packages.Package) {
		for _, e := range pkg.Errors {
			found = found || strings.Contains(e.Msg, platformError)
		}
	})
	if !found {
		return ""
	}
	return "the installed HIP header needs a platform macro: add `#cgo CFLAGS: -D__HIP_PLATFORM_AMD__` to the package's cgo preamble " +
		"(or set CGO_CFLAGS=-D__HIP_PLATFORM_AMD__), or lint with -headers=hiplint to use hiplint's declarations instead"
}
