package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/mod/semver"
)

// hiplint explain prints the check's page from the binary, and ends with
// the address of the same page online: the SARIF rule's helpUri.
func TestExplain(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile(filepath.Join(repoRoot, "docs", "checks", "HL2002.md"))
	require.NoError(t, err)
	res := hiplint(t, t.TempDir(), "explain", "HL2002")
	require.Equal(t, exitClean, res.code)
	assert.Empty(t, res.stderr)
	firstLine := strings.SplitN(string(want), "\n", 2)[0]
	assert.True(t, strings.HasPrefix(res.stdout, firstLine+"\n"), "the page, from its title")
	assert.Contains(t, res.stdout, "## The rule")
	assert.NotRegexp(t, `\]\((?:HL\d{4}|\.\./)[^)]*\)`, res.stdout, "relative links are made absolute")
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	url := regexp.MustCompile(`https://\S+`).FindString(lines[len(lines)-1])
	assert.Equal(t, "https://github.com/hiplint/hiplint/blob/main/docs/checks/HL2002.md", url)

	// The same address as the SARIF rule's helpUri.
	dir := sharedFixture(t)
	sarif := hiplint(t, dir, "-sarif", "-checks", "all", "./...")
	var doc struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version, SemanticVersion string
					Rules                    []struct {
						ID      string
						HelpURI string
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(sarif.stdout), &doc))
	rules := doc.Runs[0].Tool.Driver.Rules
	require.Len(t, rules, 1, "one result, one rule: the log is lean")
	explained := hiplint(t, dir, "explain", rules[0].ID)
	assert.True(t, strings.HasSuffix(strings.TrimSpace(explained.stdout), rules[0].HelpURI), "explain %s names the rule's helpUri %s", rules[0].ID, rules[0].HelpURI)
	assert.Less(t, len(sarif.stdout), 40_000, "a one-result log (130 KB with every rule's page)")

	// SARIF's tool version is hiplint's version, a semantic version.
	v := hiplint(t, dir, "version")
	assert.Equal(t, "hiplint version "+doc.Runs[0].Tool.Driver.Version+"\n", v.stdout)
	assert.NotEqual(t, "devel", doc.Runs[0].Tool.Driver.Version)
	assert.True(t, semver.IsValid(doc.Runs[0].Tool.Driver.Version), doc.Runs[0].Tool.Driver.Version)
	assert.Equal(t, strings.TrimPrefix(doc.Runs[0].Tool.Driver.Version, "v"), doc.Runs[0].Tool.Driver.SemanticVersion)

	for _, bad := range [][]string{{"explain"}, {"explain", "HL9999"}, {"explain", "HL2001", "HL2002"}} {
		res := hiplint(t, dir, bad...)
		assert.Equal(t, exitUsage, res.code, "%v", bad)
		assert.Empty(t, res.stdout)
	}
	lower := hiplint(t, dir, "explain", "hl2002")
	assert.Equal(t, res.stdout, lower.stdout)
}

// -version and hiplint version print the same real version; a release
// build stamps it with -ldflags.
func TestVersionFlagAndStamp(t *testing.T) {
	t.Parallel()
	flag := hiplint(t, t.TempDir(), "-version")
	sub := hiplint(t, t.TempDir(), "version")
	require.Equal(t, exitClean, flag.code)
	assert.Equal(t, sub.stdout, flag.stdout)
	assert.Regexp(t, `^hiplint version v\d+\.\d+\.\d+\S*\n$`, flag.stdout)
	assert.True(t, semver.IsValid(strings.Fields(flag.stdout)[2]))

	bin := filepath.Join(t.TempDir(), "hiplint")
	out, err := exec.Command("go", "build", "-ldflags", "-X main.stampedVersion=v1.2.3", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	res := run(t, t.TempDir(), bin, "-version")
	assert.Equal(t, "hiplint version v1.2.3\n", res.stdout)
}

func TestVersionOf(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "v1.4.0", versionOf(&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}))
	assert.Equal(t, baseVersion+"-devel", versionOf(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}))
	v := versionOf(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "6493647a1b2c3d4e5f60718293a4b5c6d7e8f901"}, {Key: "vcs.modified", Value: "true"}}})
	assert.Equal(t, baseVersion+"-devel+6493647a1b2c.dirty", v)
	assert.True(t, semver.IsValid(v), v)
}

// hiplint help lists every subcommand.
func TestHelpListsSubcommands(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "help")
	require.Equal(t, exitClean, res.code)
	for name := range subcommands {
		assert.Regexp(t, `\n\thiplint `+name+`\b`, res.stdout, name)
	}
	assert.Contains(t, res.stdout, "\n  -version")
	assert.Contains(t, res.stdout, "\n  -checks")
}

// -json gives related positions the extent SARIF's related regions have
// (they have no end of their own: to the end of the line), not zero width.
// On every example: the runs the other tests of the examples read
// (onExamples).
func TestJSONRelatedAsWideAsSARIF(t *testing.T) {
	t.Parallel()
	js := onExamples(t, "-json")
	require.Equal(t, exitFindings, js.code)
	var tree map[string]map[string][]jsonDiagnostic
	require.NoError(t, json.Unmarshal([]byte(js.stdout), &tree))
	var jsonEnds []string
	for _, byAnalyzer := range tree {
		for _, diags := range byAnalyzer {
			for _, d := range diags {
				for _, r := range d.Related {
					assert.NotEqual(t, r.Posn, r.End, "a related position has a width")
					_, endLine, endCol := splitPosn(t, r.End)
					jsonEnds = append(jsonEnds, fmt.Sprintf("%d:%d", endLine, endCol))
				}
			}
		}
	}
	sarif := onExamples(t, "-sarif")
	var doc struct {
		Runs []struct {
			Results []struct {
				RelatedLocations []struct {
					PhysicalLocation struct {
						Region struct{ EndLine, EndColumn int }
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(sarif.stdout), &doc))
	var sarifEnds []string
	for _, r := range doc.Runs[0].Results {
		for _, rl := range r.RelatedLocations {
			sarifEnds = append(sarifEnds, fmt.Sprintf("%d:%d", rl.PhysicalLocation.Region.EndLine, rl.PhysicalLocation.Region.EndColumn))
		}
	}
	require.NotEmpty(t, sarifEnds)
	slices.Sort(jsonEnds)
	slices.Sort(sarifEnds)
	assert.Equal(t, sarifEnds, jsonEnds, "the examples are ASCII: byte and UTF-16 columns agree")
}

func splitPosn(t *testing.T, s string) (string, int, int) {
	t.Helper()
	m := regexp.MustCompile(`^(.*):(\d+):(\d+)$`).FindStringSubmatch(s)
	require.NotNil(t, m, s)
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	return m[1], line, col
}
