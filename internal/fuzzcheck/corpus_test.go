package fuzzcheck

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// seeds are added to the corpus in code; the committed files under
// testdata/fuzz/FuzzAnalyzers hold the rest.
var seeds = [][]byte{
	nil,
	[]byte("hiplint"),
	bytes.Repeat([]byte{0}, 64),
	bytes.Repeat([]byte{255}, 64),
}

const corpusDir = "testdata/fuzz/FuzzAnalyzers"

func parseCorpusFile(data []byte) ([]byte, error) {
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	if len(lines) != 2 || string(lines[0]) != "go test fuzz v1" {
		return nil, errors.New("not a go test fuzz v1 file with one []byte value")
	}
	v := string(lines[1])
	if len(v) < len("[]byte()") || v[:7] != "[]byte(" || v[len(v)-1] != ')' {
		return nil, fmt.Errorf("not a []byte value: %s", v)
	}
	s, err := strconv.Unquote(v[7 : len(v)-1])
	return []byte(s), err
}

func corpusFile(input []byte) []byte {
	return []byte("go test fuzz v1\n[]byte(" + strconv.Quote(string(input)) + ")\n")
}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the seed corpus: random inputs that together reach every check the generator can provoke")

var checkID = regexp.MustCompile(`\((HL\d{4})\)`)

// idsOf returns the check IDs a result reports.
func idsOf(res *Result) map[string]bool {
	ids := map[string]bool{}
	for _, l := range res.Lines {
		if m := checkID.FindStringSubmatch(l); m != nil {
			ids[m[1]] = true
		}
	}
	return ids
}

// TestSeedCorpus checks that the committed corpus parses and that together
// its programs provoke most of the suite's checks, so that the short run in
// CI exercises the analyzers' reporting paths and not only their fast paths.
// With -update-corpus it first writes a new corpus.
func TestSeedCorpus(t *testing.T) {
	if *updateCorpus {
		writeCorpus(t)
	}
	entries, err := os.ReadDir(corpusDir)
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	covered := map[string]bool{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(corpusDir, e.Name()))
		require.NoError(t, err)
		input, err := parseCorpusFile(data)
		require.NoError(t, err, e.Name())
		res, err := Analyze(Generate(input), analyzers.Suite())
		require.NoError(t, err, e.Name())
		for id := range idsOf(res) {
			covered[id] = true
		}
	}
	var all, missing []string
	for _, c := range analyzers.Checks() {
		if strings.HasPrefix(c.ID, "HL0") {
			continue // the driver's own checks (directives), not the analyzers'
		}
		all = append(all, c.ID)
		if !covered[c.ID] {
			missing = append(missing, c.ID)
		}
	}
	t.Logf("the seed corpus provokes %d of %d checks; not: %v", len(all)-len(missing), len(all), missing)
	assert.GreaterOrEqual(t, len(all)-len(missing), len(all)*2/3, "the seed corpus provokes too few checks")
}

// writeCorpus replaces the corpus with random inputs, each kept only when it
// provokes a check no earlier one did (plus a few plain ones).
func writeCorpus(t *testing.T) {
	require.NoError(t, os.RemoveAll(corpusDir))
	require.NoError(t, os.MkdirAll(corpusDir, 0o755))
	rng := rand.New(rand.NewPCG(1, 2))
	covered := map[string]bool{}
	kept := 0
	for i := 0; i < 2000 && kept < 40; i++ {
		input := make([]byte, 200+rng.IntN(1800))
		for j := range input {
			input[j] = byte(rng.UintN(256))
		}
		res, err := Analyze(Generate(input), analyzers.Suite())
		require.NoError(t, err)
		var fresh []string
		for id := range idsOf(res) {
			if !covered[id] {
				fresh = append(fresh, id)
			}
		}
		if len(fresh) == 0 && i%500 != 0 {
			continue
		}
		slices.Sort(fresh)
		for _, id := range fresh {
			covered[id] = true
		}
		name := fmt.Sprintf("seed-%02d", kept)
		require.NoError(t, os.WriteFile(filepath.Join(corpusDir, name), corpusFile(input), 0o644))
		t.Logf("%s: %d bytes, new checks %v", name, len(input), fresh)
		kept++
	}
}

// TestRandomPrograms runs a fixed sample of random inputs: a broader short
// run than the seed corpus, and a check that the generator always produces
// programs that type-check.
func TestRandomPrograms(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 10
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		input := make([]byte, rng.IntN(3000))
		for j := range input {
			input[j] = byte(rng.UintN(256))
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) { checkProgram(t, Generate(input)) })
	}
}

var timeDir = flag.String("time-dir", "", "analyze every corpus file in this directory (for example the fuzzer's cache) and print how long each took")

// TestTimeDir reports the slowest inputs of a corpus directory.
func TestTimeDir(t *testing.T) {
	if *timeDir == "" {
		t.Skip("no -time-dir")
	}
	entries, err := os.ReadDir(*timeDir)
	require.NoError(t, err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(*timeDir, e.Name()))
		require.NoError(t, err)
		input, err := parseCorpusFile(data)
		require.NoError(t, err)
		start := time.Now()
		res, err := Analyze(Generate(input), analyzers.Suite())
		require.NoError(t, err, e.Name())
		t.Logf("%s: %d bytes, %v (slowest %s %v), %d lines", e.Name(), len(input), time.Since(start), res.SlowestWhat, res.Slowest, len(res.Lines))
	}
}
