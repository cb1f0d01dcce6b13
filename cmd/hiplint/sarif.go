package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"go/token"
	"golang.org/x/mod/semver"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hiplint/hiplint/docs"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/fixes"
	"golang.org/x/tools/go/packages"
)

// -format sarif prints one SARIF 2.1.0 log with one run: a rule per check
// ID, and a result per finding with repository-relative locations and a
// partial fingerprint that survives lines moving. It is what GitHub code
// scanning (github/codeql-action/upload-sarif) and other SARIF viewers read.
// See https://docs.oasis-open.org/sarif/sarif/v2.1.0/ for the format.

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	srcRoot      = "%SRCROOT%"
	// fingerprintKey names hiplint's partial fingerprint; "/v1" changes
	// when the way it is computed does.
	fingerprintKey = "hiplint/v1"
	informationURI = "https://github.com/hiplint/hiplint"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Invocations        []sarifInvocation                `json:"invocations"`
	Results            []sarifResult                    `json:"results"`
	ColumnKind         string                           `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	Name                 string              `json:"name"`
	ShortDescription     sarifMessage        `json:"shortDescription"`
	FullDescription      sarifMessage        `json:"fullDescription"`
	Help                 sarifMessage        `json:"help"`
	HelpURI              string              `json:"helpUri"`
	DefaultConfiguration sarifConfiguration  `json:"defaultConfiguration"`
	Properties           sarifRuleProperties `json:"properties"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifRuleProperties struct {
	Tags      []string `json:"tags"`
	Precision string   `json:"precision"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               int                   `json:"id,omitempty"` // related locations only, from 1
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

// sarif builds the SARIF log of res. failed says whether a package failed to
// load or type-check.
func (p *program) sarif(res *results, moduleDir string, failed, strict bool) *sarifLog {
	root := p.sourceRoot(moduleDir)

	rules, index := p.sarifRules()
	ruleOf := func(f *outFinding) int {
		id := cmp.Or(f.Category, f.Analyzer)
		if i, ok := index[id]; ok {
			return i
		}
		// A check this binary does not list (a test analyzer): a rule of its own.
		index[id] = len(rules)
		rules = append(rules, sarifRule{
			ID: id, Name: ruleName(id),
			ShortDescription:     sarifMessage{Text: "reported by the " + f.Analyzer + " analyzer"},
			FullDescription:      sarifMessage{Text: "reported by the " + f.Analyzer + " analyzer"},
			Help:                 sarifMessage{Text: "reported by the " + f.Analyzer + " analyzer"},
			HelpURI:              cmp.Or(f.URL, informationURI),
			DefaultConfiguration: sarifConfiguration{Level: "warning"},
			Properties:           sarifRuleProperties{Tags: []string{"hiplint", f.Analyzer}, Precision: "high"},
		})
		return index[id]
	}

	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "hiplint",
			Version:        version(),
			InformationURI: informationURI,
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: !failed && len(res.errors) == 0 && !(strict && len(res.degraded) > 0)}},
		Results:     []sarifResult{},
		ColumnKind:  "utf16CodeUnits",
	}
	if v := version(); semver.IsValid(v) {
		run.Tool.Driver.SemanticVersion = strings.TrimPrefix(v, "v")
	}
	if root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{
			srcRoot: {URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(root) + "/"}).String()},
		}
	}
	for _, e := range res.errors {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifMessage{Text: e.String()}})
	}
	if failed {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifMessage{Text: "some packages did not load or type-check and were not analyzed; hiplint printed why on standard error"}})
	}

	// A package analyzed without its C types: a warning, an error that
	// fails the invocation with -strict-ctypes (failed is then set too).
	level := "warning"
	if strict {
		level = "error"
	}
	for _, path := range slices.Sorted(maps.Keys(res.degraded)) {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: level, Message: sarifMessage{Text: res.degraded[path]}})
	}

	occurrences := map[string]int{} // base fingerprint -> results so far
	for _, f := range res.out {
		i := ruleOf(f)
		rule := rules[i]
		r := sarifResult{
			RuleID:    rule.ID,
			RuleIndex: i,
			Level:     rule.DefaultConfiguration.Level,
			Message:   sarifMessage{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: f.Span.physical(root)}},
		}
		for j, rel := range f.Related {
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
				ID:               j + 1,
				PhysicalLocation: rel.Span.physical(root),
				Message:          &sarifMessage{Text: rel.Message},
			})
		}
		base := fingerprint(rule.ID, r.Locations[0].PhysicalLocation.ArtifactLocation.URI, f.Line)
		occurrences[base]++
		r.PartialFingerprints = map[string]string{fingerprintKey: base + ":" + strconv.Itoa(occurrences[base])}
		run.Results = append(run.Results, r)
	}
	run.Tool.Driver.Rules = usedRules(rules, run.Results)
	return &sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

// usedRules returns the rules that results use, in their order, and
// renumbers the results' ruleIndex to match. A rule carries its check's
// whole page as help: the 18 rules made a two-result log 130 KB.
func usedRules(rules []sarifRule, results []sarifResult) []sarifRule {
	newIndex := make([]int, len(rules))
	for i := range newIndex {
		newIndex[i] = -1
	}
	for _, r := range results {
		newIndex[r.RuleIndex] = 0
	}
	out := []sarifRule{}
	for i, rule := range rules {
		if newIndex[i] == 0 {
			newIndex[i] = len(out)
			out = append(out, rule)
		}
	}
	for i := range results {
		results[i].RuleIndex = newIndex[results[i].RuleIndex]
	}
	return out
}

// sarifRules returns a rule for every check the binary knows, and the index
// of each by ID.
func (p *program) sarifRules() ([]sarifRule, map[string]int) {
	rules := make([]sarifRule, 0, len(p.checks))
	index := make(map[string]int, len(p.checks))
	for _, c := range p.checks {
		full := c.Title + "."
		help := sarifMessage{Text: full + " See " + c.URL()}
		if page, ok := docs.CheckPage(c.ID); ok {
			if rule := docs.RuleText(page); rule != "" {
				full = rule
			}
			help = sarifMessage{Text: full + " See " + c.URL(), Markdown: docs.AbsoluteLinks(page, diag.DocsBase)}
		}
		level := "warning"
		if c.Severity == diag.Error {
			level = "error"
		}
		index[c.ID] = len(rules)
		rules = append(rules, sarifRule{
			ID:                   c.ID,
			Name:                 ruleName(c.Title),
			ShortDescription:     sarifMessage{Text: c.Title},
			FullDescription:      sarifMessage{Text: full},
			Help:                 help,
			HelpURI:              c.URL(),
			DefaultConfiguration: sarifConfiguration{Level: level},
			Properties:           sarifRuleProperties{Tags: []string{"hiplint", c.Analyzer}, Precision: "high"},
		})
	}
	return rules, index
}

// ruleName turns a title into an identifier: "module unloaded twice" is
// ModuleUnloadedTwice.
func ruleName(title string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		r, n := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[n:])
	}
	return b.String()
}

// sourceRoot is the directory that result URIs are relative to: the git
// work tree that holds the working directory, else the main module's root,
// else the working directory. GitHub code scanning wants paths relative to
// the repository's root.
func (p *program) sourceRoot(moduleDir string) string {
	for dir := p.dir; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if moduleDir != "" {
		return moduleDir
	}
	return p.dir
}

// sarifSpan is a SARIF location before its file is named relative to
// the source root: the file, absolute, and the region (nil: none).
type sarifSpan struct {
	File   string
	Region *sarifRegion `json:",omitempty"`
}

// physical is s with its file named relative to root.
func (s sarifSpan) physical(root string) sarifPhysicalLocation {
	return sarifPhysicalLocation{ArtifactLocation: artifactLocation(root, s.File), Region: s.Region}
}

// sarifSpanOf is the location of [pos, end) of pkg in the user's file.
// An end that cannot be placed exactly (cgo rewrote the text around it) or
// is not after the start ends the region at the end of the start's line.
func sarifSpanOf(src *fixes.Sources, pkg *packages.Package, pos, end token.Pos) sarifSpan {
	start, stop, exact := userSpan(src, pkg, pos, end)
	loc := sarifSpan{File: start.Filename}
	if !start.IsValid() || start.Line <= 0 {
		return loc
	}
	line, ok := sourceLine(src, pkg, start)
	reg := &sarifRegion{StartLine: start.Line, StartColumn: utf16Column(line, start.Column)}
	switch {
	case exact:
		stopLine := line
		if stop.Line != start.Line {
			stopLine, _ = sourceLine(src, pkg, stop)
		}
		reg.EndLine, reg.EndColumn = stop.Line, utf16Column(stopLine, stop.Column)
	case ok:
		reg.StartColumn = utf16Column(line, min(start.Column, len(line)+1))
		reg.EndLine, reg.EndColumn = start.Line, utf16Column(line, len(line)+1)
	default: // an unreadable file: an empty region at the start
		reg.EndLine, reg.EndColumn = start.Line, reg.StartColumn
	}
	loc.Region = reg
	return loc
}

// userSpan returns the positions of pos and end in the user's file, and
// whether both were placed exactly, with end after pos. The analyzers
// report positions in cgo's output, whose //line directives give the
// user's line and the column of a few tokens only: the column of a call's
// end there counts the generated text. internal/fixes places a position
// exactly wherever the text before or after it on the line is the user's
// own, as the language server does. Without an exact end, stop is start,
// and start is the adjusted position when it cannot be placed either.
func userSpan(src *fixes.Sources, pkg *packages.Package, pos, end token.Pos) (start, stop token.Position, exact bool) {
	start = pkg.Fset.Position(pos)
	s, okStart := placeExactly(src, pkg, pos)
	if okStart {
		start = s
	}
	if end.IsValid() && end != pos {
		e, okEnd := placeExactly(src, pkg, end)
		if okStart && okEnd && s.Filename == e.Filename && s.Offset < e.Offset {
			return s, e, true
		}
	}
	return start, start, false
}

// placeExactly returns the position of pos in one of pkg's own files.
func placeExactly(src *fixes.Sources, pkg *packages.Package, pos token.Pos) (token.Position, bool) {
	if !pos.IsValid() || !ownFile(pkg, pkg.Fset.Position(pos).Filename) {
		return token.Position{}, false
	}
	file, offset, err := src.Locate(pkg.Fset, pos)
	if err != nil || !ownFile(pkg, file) {
		return token.Position{}, false
	}
	content, err := src.Read(file)
	if err != nil || offset > len(content) {
		return token.Position{}, false
	}
	before := content[:offset]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return token.Position{
		Filename: file,
		Offset:   offset,
		Line:     bytes.Count(before, []byte{'\n'}) + 1,
		Column:   offset - lineStart + 1,
	}, true
}

// ownFile reports whether name is one of pkg's source files, the only files
// whose lines hiplint reads for its output: a //line directive can name any
// file at all.
func ownFile(pkg *packages.Package, name string) bool {
	return slices.Contains(pkg.GoFiles, name) || slices.Contains(pkg.CompiledGoFiles, name)
}

// artifactLocation names file relative to root, with %SRCROOT% as its base,
// or by an absolute file URI when it is outside root.
func artifactLocation(root, file string) sarifArtifactLocation {
	if root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return sarifArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: srcRoot}
		}
	}
	return sarifArtifactLocation{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()}
}

// sourceLine returns the text of posn's line in its file, without the line
// ending, and whether it could be read: only the package's own files are.
func sourceLine(src *fixes.Sources, pkg *packages.Package, posn token.Position) (string, bool) {
	if posn.Line <= 0 || !ownFile(pkg, posn.Filename) {
		return "", false
	}
	data, err := src.Read(posn.Filename)
	if err != nil {
		return "", false
	}
	for i := 1; i < posn.Line; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return "", false
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return strings.TrimSuffix(string(data), "\r"), true
}

// utf16Column converts a 1-based byte column of line to the 1-based column
// in UTF-16 code units that SARIF counts by default.
func utf16Column(line string, byteCol int) int {
	if byteCol <= 1 {
		return 1
	}
	n := fixes.UTF16Len([]byte(line[:min(byteCol-1, len(line))]))
	return n + 1 + max(0, byteCol-1-len(line)) // a column past the end stays past it
}

// fingerprint identifies a finding independently of its line number: the
// rule, the file, and the text of the flagged line with its spacing
// normalized. Findings with the same fingerprint are told apart by their
// order in the file, which the caller appends.
func fingerprint(ruleID, uri, line string) string {
	h := sha256.New()
	for _, s := range []string{ruleID, uri, strings.Join(strings.Fields(line), " ")} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
