package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// A finding's hint must be advice that works: each test here follows one,
// as a user would, lints again, and checks that the finding is gone and
// that nothing new appeared.

// kernelcacheRel is the example whose HL2001 is tested: HasKernel leaks
// its module on one error return and unloads it on the success path.
const kernelcacheRel = "examples/kernelcache/kernelcache.go"

// editKernelcache returns a copy of examples/kernelcache in a module of its
// own with each old replaced by its new (each must occur once), and the
// package's directory.
func editKernelcache(t *testing.T, pairs ...string) string {
	t.Helper()
	file := filepath.Join(exampleModule(t, kernelcacheRel), kernelcacheRel)
	src := readFile(t, file)
	for i := 0; i < len(pairs); i += 2 {
		require.Equal(t, 1, strings.Count(src, pairs[i]), "%q", pairs[i])
		src = strings.Replace(src, pairs[i], pairs[i+1], 1)
	}
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	return filepath.Dir(file)
}

const (
	// hasKernelCheck is the load's error check in HasKernel.
	hasKernelCheck = "\t\treturn false, fmt.Errorf(\"load %s: %w\", path, err)\n\t}\n"
	// hasKernelLeak is the return that leaks.
	hasKernelLeak = "\t\treturn false, fmt.Errorf(\"kernel %s in %s: %w\", name, path, err)\n"
	// hasKernelUnload is the unload on the success path.
	hasKernelUnload = "\treturn true, check(C.hipModuleUnload(m))\n"
)

func TestHL2001HintInKernelcacheWorks(t *testing.T) {
	t.Parallel()
	res := hiplint(t, filepath.Dir(filepath.Join(exampleModule(t, kernelcacheRel), kernelcacheRel)), ".")
	require.Equal(t, exitFindings, res.code)
	findings := regexp.MustCompile(`(?m)^\S+: .*\(HL\d{4}\)$`).FindAllString(res.stdout, -1)
	require.Len(t, findings, 1, "the marked HL2001")
	assert.Contains(t, findings[0], "(HL2001)")
	assert.Contains(t, findings[0], "unload it on this path too, or replace the function's unloads with one defer C.hipModuleUnload(m) right after the load's error check",
		"HasKernel unloads on its success path: the hint does not say to add a defer beside that unload")

	t.Run("unload on this path too", func(t *testing.T) {
		t.Parallel()
		dir := editKernelcache(t, hasKernelLeak, "\t\tC.hipModuleUnload(m)\n"+hasKernelLeak)
		res := hiplint(t, dir, ".")
		assert.Equal(t, exitClean, res.code)
		assert.Empty(t, res.stdout)
	})
	t.Run("one defer in place of the unloads", func(t *testing.T) {
		t.Parallel()
		dir := editKernelcache(t,
			hasKernelCheck, hasKernelCheck+"\tdefer C.hipModuleUnload(m)\n",
			hasKernelUnload, "\treturn true, nil\n")
		res := hiplint(t, dir, ".")
		assert.Equal(t, exitClean, res.code)
		assert.Empty(t, res.stdout)
	})
	// What the hint said before (issue 21): a defer beside the unload that
	// is there already unloads twice on the success path.
	t.Run("a defer beside the unload is HL2002", func(t *testing.T) {
		t.Parallel()
		dir := editKernelcache(t, hasKernelCheck, hasKernelCheck+"\tdefer C.hipModuleUnload(m)\n")
		res := hiplint(t, dir, ".")
		assert.Equal(t, exitFindings, res.code)
		assert.Regexp(t, `(?m)^kernelcache\.go:\d+:\d+: .*\(HL2002\)$`, res.stdout)
		assert.NotContains(t, res.stdout, "(HL2001)")
	})
}
