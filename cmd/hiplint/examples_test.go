package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The example programs mark each line where hiplint must report with a
// comment `// hazard: HL2001` (several IDs may follow). These tests read the
// marks, so they stay true when the examples change.

// A mark is one expected or reported finding: file relative to the
// repository root, with slashes, line and check ID.
type mark struct {
	file string
	line int
	id   string
}

func (m mark) String() string { return m.file + ":" + strconv.Itoa(m.line) + ": " + m.id }

var hazardComment = regexp.MustCompile(`// hazard: (HL\d{4}(?:[ ,]+HL\d{4})*)`)

// hazards returns the marks of every Go file under examples/.
func hazards(t *testing.T) []mark {
	t.Helper()
	var marks []mark
	err := filepath.WalkDir(filepath.Join(repoRoot, "examples"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, err := filepath.Rel(repoRoot, path)
		if err != nil {
			return err
		}
		marks = append(marks, markedHazards(t, filepath.ToSlash(rel))...)
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, marks, "the examples mark no hazard")
	return sortedMarks(marks)
}

// markedHazards returns the marks of one file, named relative to the
// repository root.
func markedHazards(t *testing.T, rel string) []mark {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, rel))
	require.NoError(t, err)
	var marks []mark
	for i, line := range strings.Split(string(data), "\n") {
		if m := hazardComment.FindStringSubmatch(line); m != nil {
			for _, id := range regexp.MustCompile(`HL\d{4}`).FindAllString(m[1], -1) {
				marks = append(marks, mark{rel, i + 1, id})
			}
		}
	}
	return marks
}

func sortedMarks(marks []mark) []mark {
	sort.Slice(marks, func(i, j int) bool { return marks[i].String() < marks[j].String() })
	return marks
}

// A reported finding, parsed from text output.
type reported struct {
	mark
	message string
}

var (
	textFinding = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (.*) \((HL\d{4})\)$`)
	vetFinding  = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (.*)$`)
)

// parseText parses hiplint's text output; every line is a finding or a
// related position below one.
func parseText(t *testing.T, out string) []reported {
	t.Helper()
	var found []reported
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "\t") {
			continue
		}
		m := textFinding.FindStringSubmatch(line)
		if !assert.NotNil(t, m, "unexpected output line %q", line) {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		found = append(found, reported{mark{relToRoot(t, m[1]), n, m[5]}, m[4]})
	}
	return found
}

// parseVet parses go vet's output: `# package` headers, then findings
// without IDs; related positions have a message starting with a tab.
func parseVet(t *testing.T, out string) []reported {
	t.Helper()
	var found []reported
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := vetFinding.FindStringSubmatch(line)
		if !assert.NotNil(t, m, "unexpected go vet output line %q", line) || strings.HasPrefix(m[4], "\t") {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		found = append(found, reported{mark{file: relToRoot(t, m[1]), line: n}, m[4]})
	}
	return found
}

// relToRoot turns a file name as a tool printed it into a mark's file name.
func relToRoot(t *testing.T, file string) string {
	if filepath.IsAbs(file) {
		rel, err := filepath.Rel(repoRoot, file)
		require.NoError(t, err)
		file = rel
	}
	return filepath.ToSlash(filepath.Clean(file))
}

func marksOf(found []reported) []mark {
	marks := make([]mark, len(found))
	for i, f := range found {
		marks[i] = f.mark
	}
	return sortedMarks(marks)
}

func TestExamplesReportExactlyTheMarkedHazards(t *testing.T) {
	t.Parallel()
	res := onExamples(t)
	assert.Equal(t, exitFindings, res.code, "exit status")
	assert.Equal(t, headersNote(t, hipHeader), res.stderr)
	assert.Equal(t, hazards(t), marksOf(parseText(t, res.stdout)))
}

func TestGoVetReportsWhatStandaloneReports(t *testing.T) {
	t.Parallel()
	standalone := parseText(t, onExamples(t).stdout)
	vet := run(t, repoRoot, "go", "vet", "-vettool="+hiplintBin, "./examples/...")
	assert.NotEqual(t, 0, vet.code, "go vet exit status with findings")

	// go vet prints no check IDs: compare file, line and message.
	key := func(found []reported) []string {
		var keys []string
		for _, f := range found {
			keys = append(keys, f.file+":"+strconv.Itoa(f.line)+": "+f.message)
		}
		sort.Strings(keys)
		return keys
	}
	require.NotEmpty(t, standalone)
	assert.Equal(t, key(standalone), key(parseVet(t, vet.stderr)))
}

func TestJSONOutputHasCategories(t *testing.T) {
	t.Parallel()
	res := onExamples(t, "-json")
	assert.Equal(t, exitFindings, res.code, "exit status")

	var tree map[string]map[string][]struct {
		Category string `json:"category"`
		Posn     string `json:"posn"`
		Message  string `json:"message"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &tree))
	var marks []mark
	for pkg, byAnalyzer := range tree {
		assert.True(t, strings.HasPrefix(pkg, "github.com/hiplint/hiplint/examples/"), pkg)
		for analyzer, diags := range byAnalyzer {
			assert.Contains(t, []string{"memcpysync", "modulebalance", "graphfree", "xnack"}, analyzer)
			for _, d := range diags {
				assert.NotEmpty(t, d.Message)
				i := strings.LastIndex(d.Posn, ":")
				j := strings.LastIndex(d.Posn[:i], ":")
				require.Positive(t, j, d.Posn)
				line, err := strconv.Atoi(d.Posn[j+1 : i])
				require.NoError(t, err)
				marks = append(marks, mark{relToRoot(t, d.Posn[:j]), line, d.Category})
			}
		}
	}
	assert.Equal(t, hazards(t), sortedMarks(marks))
}
