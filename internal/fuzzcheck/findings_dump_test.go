package fuzzcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// TestFindingsDump writes what the suite reports on the programs of the seed
// corpus (the in-code seeds and every file of the corpus directory) to the
// file named by $HIPLINT_FINDINGS_DUMP, for bench/findings/diff.sh, which
// compares the findings of two versions of the analyzers. Without the
// variable it is skipped. $HIPLINT_FINDINGS_CORPUS names another corpus
// directory (the script passes one tree's corpus to both versions).
//
// One line per diagnostic, "F\t<input>: <package>: <analyzer>: <position>:
// <message> (<ID>)", related positions and fixes joined onto it with " | ";
// facts are left out (an engine may encode them differently and report the
// same). An input the harness rejects gives one "E\t<input>: error: ..." line.
//
// The file depends only on Generate, Analyze, parseCorpusFile and seeds, so
// the script can copy it into an older tree that lacks it.
func TestFindingsDump(t *testing.T) {
	out := os.Getenv("HIPLINT_FINDINGS_DUMP")
	if out == "" {
		t.Skip("HIPLINT_FINDINGS_DUMP not set")
	}
	dir := os.Getenv("HIPLINT_FINDINGS_CORPUS")
	if dir == "" {
		dir = corpusDir
	}
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for i, s := range seeds {
		inputs = append(inputs, input{fmt.Sprintf("seeds[%d]", i), s})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		in, err := parseCorpusFile(data)
		require.NoError(t, err, e.Name())
		inputs = append(inputs, input{e.Name(), in})
	}

	var lines []string
	for _, in := range inputs {
		res, err := Analyze(Generate(in.data), analyzers.Suite())
		if err != nil {
			lines = append(lines, "E\t"+in.name+": error: "+oneLine(err.Error()))
			continue
		}
		for _, l := range res.Lines {
			// "pkg: analyzer: fact ..." is a fact; a diagnostic has a
			// position after the analyzer's name.
			if parts := strings.SplitN(l, ": ", 3); len(parts) == 3 && strings.HasPrefix(parts[2], "fact ") {
				continue
			}
			lines = append(lines, "F\t"+in.name+": "+oneLine(l))
		}
	}
	slices.Sort(lines)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	require.NoError(t, os.WriteFile(out, []byte(b.String()), 0o644))
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n\t", " | "), "\n", " | ")
}
