package main

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// The SARIF test checks every property that GitHub code scanning documents
// as required for an uploaded SARIF file ("SARIF support for code scanning":
// version and runs; per run tool.driver.name, tool.driver.rules and results;
// per rule id, shortDescription.text, fullDescription.text and help.text; per
// result ruleId, ruleIndex, message.text, locations (1 to 10) with
// physicalLocation.artifactLocation.uri and region.startLine, and
// partialFingerprints), plus what hiplint promises beyond: helpUri,
// defaultConfiguration.level, repository-relative URIs on %SRCROOT%, full
// regions and related locations. It parses the output generically, as
// GitHub does, not into hiplint's own structs.

type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name           string `json:"name"`
				Version        string `json:"version"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string            `json:"id"`
					Name             string            `json:"name"`
					ShortDescription map[string]string `json:"shortDescription"`
					FullDescription  map[string]string `json:"fullDescription"`
					Help             map[string]string `json:"help"`
					HelpURI          string            `json:"helpUri"`
					Default          struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Results []struct {
			RuleID              *string           `json:"ruleId"`
			RuleIndex           *int              `json:"ruleIndex"`
			Level               string            `json:"level"`
			Message             map[string]string `json:"message"`
			Locations           []sarifLoc        `json:"locations"`
			RelatedLocations    []sarifLoc        `json:"relatedLocations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifLoc struct {
	ID               int `json:"id"`
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region *struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
			EndLine     int `json:"endLine"`
			EndColumn   int `json:"endColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
	Message map[string]string `json:"message"`
}

func parseSARIF(t *testing.T, out string) *sarifDoc {
	t.Helper()
	var doc sarifDoc
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	return &doc
}

// checkGitHubRequired asserts every property code scanning requires and
// the ones hiplint promises, and returns the results as marks.
func checkGitHubRequired(t *testing.T, doc *sarifDoc) []mark {
	t.Helper()
	assert.Equal(t, "2.1.0", doc.Version)
	assert.Contains(t, doc.Schema, "sarif")
	require.Len(t, doc.Runs, 1)
	run := doc.Runs[0]
	d := run.Tool.Driver
	assert.Equal(t, "hiplint", d.Name)
	assert.NotEmpty(t, d.Version)
	assert.NotEmpty(t, d.InformationURI)
	if len(run.Results) > 0 {
		require.NotEmpty(t, d.Rules) // only the rules the results use
	}
	ids := map[string]bool{}
	for _, r := range d.Rules {
		assert.NotEmpty(t, r.ID)
		assert.False(t, ids[r.ID], "rule %s twice", r.ID)
		ids[r.ID] = true
		assert.NotEmpty(t, r.Name, r.ID)
		assert.NotEmpty(t, r.ShortDescription["text"], r.ID)
		assert.NotEmpty(t, r.FullDescription["text"], r.ID)
		assert.NotEmpty(t, r.Help["text"], r.ID)
		assert.Contains(t, r.HelpURI, r.ID, r.ID)
		assert.Contains(t, []string{"error", "warning", "note"}, r.Default.Level, r.ID)
	}
	root, ok := run.OriginalURIBaseIDs["%SRCROOT%"]
	if assert.True(t, ok) {
		assert.True(t, strings.HasPrefix(root.URI, "file:///") && strings.HasSuffix(root.URI, "/"), root.URI)
	}

	checkLoc := func(l sarifLoc) {
		uri := l.PhysicalLocation.ArtifactLocation.URI
		u, err := url.Parse(uri)
		require.NoError(t, err)
		assert.False(t, u.IsAbs() || strings.HasPrefix(uri, "/"), "repository-relative uri %q", uri)
		assert.Equal(t, "%SRCROOT%", l.PhysicalLocation.ArtifactLocation.URIBaseID)
		reg := l.PhysicalLocation.Region
		if assert.NotNil(t, reg) {
			assert.Positive(t, reg.StartLine)
			assert.Positive(t, reg.StartColumn)
			assert.GreaterOrEqual(t, reg.EndLine, reg.StartLine)
			if reg.EndLine == reg.StartLine {
				assert.GreaterOrEqual(t, reg.EndColumn, reg.StartColumn)
			}
		}
	}
	var marks []mark
	for _, r := range run.Results {
		require.NotNil(t, r.RuleID)
		require.NotNil(t, r.RuleIndex)
		require.Less(t, *r.RuleIndex, len(d.Rules))
		assert.Equal(t, *r.RuleID, d.Rules[*r.RuleIndex].ID, "ruleIndex points at the rule")
		assert.Contains(t, []string{"error", "warning", "note"}, r.Level)
		assert.NotEmpty(t, r.Message["text"])
		require.Len(t, r.Locations, 1)
		checkLoc(r.Locations[0])
		for i, rl := range r.RelatedLocations {
			checkLoc(rl)
			assert.Equal(t, i+1, rl.ID)
			assert.NotEmpty(t, rl.Message["text"])
		}
		assert.NotEmpty(t, r.PartialFingerprints)
		for _, v := range r.PartialFingerprints {
			assert.NotEmpty(t, v)
		}
		loc := r.Locations[0].PhysicalLocation
		marks = append(marks, mark{loc.ArtifactLocation.URI, loc.Region.StartLine, *r.RuleID})
	}
	return sortedMarks(marks)
}

func TestSARIFOnTheExamples(t *testing.T) {
	t.Parallel()
	res := onExamples(t, "-sarif")
	assert.Equal(t, exitFindings, res.code)
	doc := parseSARIF(t, res.stdout)
	// The repository root is the git work tree or the module root: both are
	// repoRoot here, so the URIs are the marks' file names.
	assert.Equal(t, hazards(t), checkGitHubRequired(t, doc))

	// The log is lean: only the rules the results use, each once, in the
	// order of the checks; and each rule's text is complete, not cut at
	// the colon that introduces a list.
	var ruleIDs, used []string
	for _, r := range doc.Runs[0].Tool.Driver.Rules {
		ruleIDs = append(ruleIDs, r.ID)
		assert.NotRegexp(t, `:$`, r.FullDescription["text"], r.ID)
	}
	for _, m := range hazards(t) {
		if !slices.Contains(used, m.id) {
			used = append(used, m.id)
		}
	}
	slices.Sort(used)
	assert.Equal(t, used, ruleIDs)
	assert.Less(t, len(res.stdout), 200_000, "the log of %d results", len(hazards(t)))

	same := hiplint(t, repoRoot, "-format", "sarif", "./examples/...")
	assert.Equal(t, res.stdout, same.stdout, "-format sarif is -sarif")
}

func TestSARIFFingerprintsSurviveLineShifts(t *testing.T) {
	t.Parallel()
	before := sharedFixture(t)
	after := sharedFixture(t,
		"// Launch loads", "// Three lines were added here.\n//\n//\n// Launch loads",
		loadLine, "\n"+strings.ReplaceAll(loadLine, "if err", "if  err"))

	results := func(dir string) (map[string]string, map[string]int) {
		res := hiplint(t, dir, "-sarif", "./...")
		require.Equal(t, exitFindings, res.code)
		doc := parseSARIF(t, res.stdout)
		checkGitHubRequired(t, doc)
		fps, lines := map[string]string{}, map[string]int{}
		for _, r := range doc.Runs[0].Results {
			assert.Equal(t, "leak.go", r.Locations[0].PhysicalLocation.ArtifactLocation.URI, "relative to the module root")
			fps[*r.RuleID] = r.PartialFingerprints["hiplint/v1"]
			lines[*r.RuleID] = r.Locations[0].PhysicalLocation.Region.StartLine
		}
		return fps, lines
	}
	fpBefore, linesBefore := results(before)
	fpAfter, linesAfter := results(after)
	require.NotEmpty(t, fpBefore["HL2001"])
	assert.Equal(t, linesBefore["HL2001"]+4, linesAfter["HL2001"], "the finding moved down")
	assert.Equal(t, fpBefore, fpAfter, "and kept its fingerprints")

	changed := sharedFixture(t, loadLine, strings.ReplaceAll(loadLine, "image", "img2"), "image unsafe.Pointer", "img2 unsafe.Pointer")
	fpChanged, _ := results(changed)
	assert.NotEqual(t, fpBefore["HL2001"], fpChanged["HL2001"], "a changed line is a new result")
}

func TestSARIFWithoutFindings(t *testing.T) {
	t.Parallel()
	res := hiplint(t, ".", "-sarif", "./testdata/clean")
	assert.Equal(t, exitClean, res.code)
	doc := parseSARIF(t, res.stdout)
	checkGitHubRequired(t, doc)
	assert.Contains(t, res.stdout, `"results": []`, "an empty array, not null")
	assert.Contains(t, res.stdout, `"rules": []`, "no result, no rule")
}

func TestFormatFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-json", "-sarif"},
		{"-format", "text", "-sarif"},
		{"-format", "json", "-sarif"},
	} {
		res := hiplint(t, ".", append(args, "./testdata/clean")...)
		assert.Equal(t, exitUsage, res.code, "%v", args)
		assert.Contains(t, res.stderr, "different output formats", "%v", args)
	}
	res := hiplint(t, ".", "-format", "xml", "./testdata/clean")
	assert.Equal(t, exitUsage, res.code)
	assert.Contains(t, res.stderr, "want text, json or sarif")

	res = hiplint(t, ".", "-sarif", "-fix", "./testdata/clean")
	assert.Equal(t, exitUsage, res.code)
	assert.Contains(t, res.stderr, "-sarif cannot be combined")

	res = hiplint(t, ".", "-format", "json", "-json", "./testdata/clean")
	assert.Equal(t, exitClean, res.code, "the same format twice is fine")
}

func TestUTF16Column(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 1, utf16Column("abc", 1))
	assert.Equal(t, 3, utf16Column("abc", 3))
	assert.Equal(t, 3, utf16Column("é=x", 4), "é is 2 bytes, 1 UTF-16 unit")
	assert.Equal(t, 4, utf16Column("😀=x", 6), "an emoji is 4 bytes, 2 UTF-16 units")
	assert.Equal(t, 5, utf16Column("ab", 5), "past the end")
}

func TestRuleName(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "ModuleUnloadedTwice", ruleName("module unloaded twice"))
	assert.Equal(t, "HSAXNACKSetTooLate", ruleName("HSA_XNACK set too late"))
}
