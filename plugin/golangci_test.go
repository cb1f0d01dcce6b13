package plugin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// golangciVersion is the golangci-lint the integration test builds the
// plugin into. docs/golangci-lint.md names the same version.
const golangciVersion = "v2.15.0"

// TestGolangciLintCustom builds a golangci-lint with the plugin the way users
// do, with `golangci-lint custom` and the .custom-gcl.yml of docs/, and runs
// it on the examples: it must report exactly the hazards they mark, under
// the linter name hiplint, and leave //nolint to golangci-lint.
//
// It needs golangci-lint itself (from PATH when it is the right version,
// else installed with go install through the Go module proxy into the user
// cache) and minutes of build time. `golangci-lint custom` clones
// golangci-lint's git repository from GitHub; where GitHub cannot be
// reached, the test gives git a mirror of the same tag made from the module
// source the Go module proxy serves (git's url.<base>.insteadOf, passed in
// GIT_CONFIG_* variables, which golangci-lint hands on to git), and says so.
// It runs only in the whole suite (HIPLINT_LONGTESTS=1, which .ci/run's
// full-machine run sets: internal/testenv.Long) or with HIPLINT_GOLANGCI=1
// (this test alone): the README's go test ./... must finish in minutes on
// two cores with no test over a minute, and this one alone takes minutes. TestPluginOnTheExamples checks
// the plugin's findings on the examples in every run. It skips, saying why,
// under -short, when golangci-lint cannot be installed, and when the build
// does not finish before the test's -timeout.
func TestGolangciLintCustom(t *testing.T) {
	if os.Getenv("HIPLINT_GOLANGCI") == "" && !testenv.Long(t) {
		t.Skip("set HIPLINT_LONGTESTS=1 (the whole suite) or HIPLINT_GOLANGCI=1 to build golangci-lint with the plugin (minutes) and run it on the examples; TestPluginOnTheExamples checks the plugin's findings without it")
	}
	if testing.Short() {
		t.Skip("-short: this test builds golangci-lint with the plugin, which takes minutes")
	}
	ctx := context.Background()
	if deadline, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-30*time.Second))
		defer cancel()
	}
	repoRoot, err := filepath.Abs("..")
	require.NoError(t, err)

	gcl := golangciLint(ctx, t)
	work := t.TempDir()
	cfg := filepath.Join(work, ".custom-gcl.yml")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`version: %s
name: custom-gcl
destination: %s
plugins:
  - module: github.com/hiplint/hiplint
    import: github.com/hiplint/hiplint/plugin
    path: %s
`, golangciVersion, filepath.Join(work, "bin"), repoRoot)), 0o644))

	out, err := command(ctx, work, nil, gcl, "custom", "-v")
	if err != nil && cloneFailed(out) {
		t.Logf("golangci-lint custom could not clone golangci-lint from GitHub:\n%s\nretrying with a git mirror of %s made from the Go module proxy's source", lastLines(out, 5), golangciVersion)
		mirror := mirrorFromModuleProxy(ctx, t)
		env := []string{
			"GIT_CONFIG_COUNT=1",
			"GIT_CONFIG_KEY_0=url.file://" + mirror + ".insteadOf",
			"GIT_CONFIG_VALUE_0=https://github.com/golangci/golangci-lint.git",
		}
		out, err = command(ctx, work, env, gcl, "custom", "-v")
	}
	if ctx.Err() != nil {
		t.Skipf("the golangci-lint build did not finish before the test's -timeout; run go test -timeout 60m ./plugin/")
	}
	require.NoError(t, err, "golangci-lint custom:\n%s", out)
	custom := filepath.Join(work, "bin", "custom-gcl")

	// The shipped .golangci.yml, its hiplint settings verbatim: only
	// golangci-lint's own linters are turned off and its issue limits
	// lifted, so that the result is exactly hiplint's findings.
	golangciYML := filepath.Join(work, ".golangci.yml")
	shipped := string(mustRead(t, filepath.Join(repoRoot, "docs", "golangci-lint", ".golangci.yml")))
	require.Contains(t, shipped, "linters:\n  enable:\n")
	require.Contains(t, shipped, "          disable: []\n")
	require.Contains(t, shipped, "memcpysync:\n              strict: false\n")
	ours := strings.Replace(shipped, "linters:\n  enable:\n", "linters:\n  default: none\n  enable:\n", 1) + `run:
  relative-path-mode: wd
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
`
	require.NoError(t, os.WriteFile(golangciYML, []byte(strings.Replace(ours, "          disable: []\n", "          disable: [HL9999]\n", 1)), 0o644))
	// An unknown check ID in the settings is an error that names it.
	out, err = command(ctx, repoRoot, nil, custom, "run", "--config", golangciYML, "./examples/...")
	assert.Error(t, err)
	assert.Contains(t, out, `unknown analyzer or check ID "HL9999"`)

	require.NoError(t, os.WriteFile(golangciYML, []byte(ours), 0o644))
	found := runCustom(ctx, t, custom, golangciYML, repoRoot, "./examples/...")
	want := hazards(t, repoRoot)
	assert.Equal(t, want, found, "golangci-lint reports exactly the marked hazards")

	// //nolint:hiplint is golangci-lint's: a copy of an example with one on
	// a hazard's line loses that finding and keeps the others.
	require.NotEmpty(t, want)
	first := want[0]
	mod := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		require.NoError(t, os.WriteFile(filepath.Join(mod, name), mustRead(t, filepath.Join(repoRoot, name)), 0o644))
	}
	for _, name := range []string{"examples", "testdata/include"} {
		require.NoError(t, os.CopyFS(filepath.Join(mod, name), os.DirFS(filepath.Join(repoRoot, name))), name)
	}
	file := filepath.Join(mod, first.file)
	lines := strings.Split(string(mustRead(t, file)), "\n")
	// The line ends in its `// hazard:` comment; //nolint must start a
	// comment of its own, so it goes in front.
	require.Contains(t, lines[first.line-1], "// hazard:")
	lines[first.line-1] = strings.Replace(lines[first.line-1], "// hazard:", "//nolint:hiplint // hazard:", 1)
	require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644))

	// hiplint's own directive works under golangci-lint too: the analyzers
	// apply it. Another hazard gets one on the line above.
	var second mark
	for _, m := range want {
		if m.file != first.file {
			second = m
			break
		}
	}
	require.NotEmpty(t, second.file)
	id := hazardComment.FindStringSubmatch(string(lineOf(t, filepath.Join(mod, second.file), second.line)))[1]
	file = filepath.Join(mod, second.file)
	lines = strings.Split(string(mustRead(t, file)), "\n")
	lines[second.line-1] = "//hiplint:ignore " + strings.Join(strings.Fields(strings.ReplaceAll(id, ",", " ")), ",") + " checked by hand\n" + lines[second.line-1]
	require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644))

	found = runCustom(ctx, t, custom, golangciYML, mod, "./examples/...")
	var rest []mark
	for _, m := range want {
		switch {
		case m.file == first.file && m.line == first.line:
		case m.file == second.file && m.line == second.line:
		case m.file == second.file && m.line > second.line:
			rest = append(rest, mark{m.file, m.line + 1}) // below the inserted directive
		default:
			rest = append(rest, m)
		}
	}
	assert.Equal(t, sortMarks(rest), found, "//nolint:hiplint and //hiplint:ignore suppress the findings of their lines, related positions included")
}

func lineOf(t *testing.T, file string, line int) string {
	t.Helper()
	return strings.Split(string(mustRead(t, file)), "\n")[line-1]
}

type mark struct {
	file string
	line int
}

var hazardComment = regexp.MustCompile(`// hazard: (HL\d{4}(?:[ ,]+HL\d{4})*)`)

// hazards returns the lines of examples/ marked `// hazard: ID`, once per ID.
func hazards(t *testing.T, root string) []mark {
	t.Helper()
	var marks []mark
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(mustRead(t, path)), "\n") {
			if m := hazardComment.FindStringSubmatch(line); m != nil {
				for range regexp.MustCompile(`HL\d{4}`).FindAllString(m[1], -1) {
					marks = append(marks, mark{filepath.ToSlash(rel), i + 1})
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	return sortMarks(marks)
}

// runCustom runs the custom golangci-lint in dir and returns the lines of
// hiplint's findings: one issue each, its related positions in its text.
func runCustom(ctx context.Context, t *testing.T, custom, config, dir string, patterns ...string) []mark {
	t.Helper()
	args := append([]string{"run", "--config", config, "--output.json.path", "stdout", "--show-stats=false"}, patterns...)
	cmd := exec.CommandContext(ctx, custom, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("custom-gcl %v in %s: %v\nstderr:\n%s", args, dir, err, stderr.String())
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &report), "stdout:\n%s", stdout.String())
	var found []mark
	for _, is := range report.Issues {
		assert.Equal(t, "hiplint", is.FromLinter, is.Text)
		// golangci-lint would make an issue of each related position,
		// which //nolint on the finding's line does not reach; the plugin
		// folds them into the finding's message.
		assert.NotContains(t, is.Text, "(related information)")
		found = append(found, mark{filepath.ToSlash(is.Pos.Filename), is.Pos.Line})
	}
	return sortMarks(found)
}

func sortMarks(marks []mark) []mark {
	sort.Slice(marks, func(i, j int) bool {
		if marks[i].file != marks[j].file {
			return marks[i].file < marks[j].file
		}
		return marks[i].line < marks[j].line
	})
	return marks
}

// golangciLint returns a golangci-lint of golangciVersion: the one on PATH
// when it is that version, else one installed into the user cache.
func golangciLint(ctx context.Context, t *testing.T) string {
	t.Helper()
	if path, err := exec.LookPath("golangci-lint"); err == nil {
		if out, err := exec.Command(path, "version", "--short").Output(); err == nil && "v"+strings.TrimPrefix(strings.TrimSpace(string(out)), "v") == golangciVersion {
			return path
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	bin := filepath.Join(cache, "hiplint-test", "golangci-lint@"+golangciVersion)
	exe := filepath.Join(bin, "golangci-lint")
	if _, err := os.Stat(exe); err == nil {
		return exe
	}
	out, err := command(ctx, t.TempDir(), []string{"GOBIN=" + bin}, "go", "install", "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@"+golangciVersion)
	if ctx.Err() != nil {
		t.Skipf("installing golangci-lint %s did not finish before the test's -timeout; run go test -timeout 60m ./plugin/", golangciVersion)
	}
	if err != nil {
		t.Skipf("golangci-lint %s is not on PATH and go install could not build it (is the Go module proxy reachable?):\n%s", golangciVersion, lastLines(out, 10))
	}
	return exe
}

// mirrorFromModuleProxy makes a git repository whose tag golangciVersion
// holds golangci-lint's source as the Go module proxy serves it (the module
// zip of that tag), and returns its directory.
func mirrorFromModuleProxy(ctx context.Context, t *testing.T) string {
	t.Helper()
	out, err := command(ctx, t.TempDir(), nil, "go", "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+golangciVersion)
	if err != nil {
		t.Skipf("golangci-lint custom cannot clone golangci-lint from GitHub here, and its module source could not be downloaded for a mirror either:\n%s", lastLines(out, 10))
	}
	var mod struct{ Dir string }
	require.NoError(t, json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &mod))
	mirror := filepath.Join(t.TempDir(), "golangci-lint.git")
	require.NoError(t, os.CopyFS(mirror, os.DirFS(mod.Dir)))
	require.NoError(t, filepath.WalkDir(mirror, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(path, mode)
	}))
	git := func(args ...string) {
		args = append([]string{"-c", "user.name=hiplint test", "-c", "user.email=test@hiplint.invalid", "-c", "commit.gpgsign=false"}, args...)
		out, err := command(ctx, mirror, nil, "git", args...)
		require.NoError(t, err, "git %v:\n%s", args, out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "golangci-lint "+golangciVersion+" from the Go module proxy")
	git("tag", golangciVersion)
	return mirror
}

func cloneFailed(out string) bool {
	return strings.Contains(out, "clone golangci-lint") || strings.Contains(out, "git clone")
}

// command runs name in dir with env added and returns its combined output.
func command(ctx context.Context, dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return data
}
