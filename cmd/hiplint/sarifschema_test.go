package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// A structural check of a SARIF log against the SARIF 2.1.0 JSON schema
// (OASIS, sarif-schema-2.1.0.json), for the objects hiplint writes: each
// object's required properties, the type of each property, enums, integer
// minimums and additionalProperties false (a misspelt property is an
// error). The schema cannot be downloaded at test time; this is written
// from it by hand, not generated.

// A check validates one JSON value at path and returns the problems.
type check func(path string, v any) []string

func problem(path, format string, args ...any) []string {
	return []string{path + ": " + fmt.Sprintf(format, args...)}
}

func anyValue(string, any) []string { return nil }

func str(path string, v any) []string {
	if _, ok := v.(string); !ok {
		return problem(path, "want a string, have %T", v)
	}
	return nil
}

func boolean(path string, v any) []string {
	if _, ok := v.(bool); !ok {
		return problem(path, "want a boolean, have %T", v)
	}
	return nil
}

func enum(values ...string) check {
	return func(path string, v any) []string {
		s, ok := v.(string)
		if !ok || !slices.Contains(values, s) {
			return problem(path, "want one of %q, have %v", values, v)
		}
		return nil
	}
}

func integer(minimum int) check {
	return func(path string, v any) []string {
		f, ok := v.(float64)
		if !ok || f != float64(int64(f)) {
			return problem(path, "want an integer, have %v", v)
		}
		if int(f) < minimum {
			return problem(path, "want at least %d, have %v", minimum, f)
		}
		return nil
	}
}

// uri checks format "uri" (absolute) or, with ref, "uri-reference".
func uri(ref bool) check {
	return func(path string, v any) []string {
		s, ok := v.(string)
		if !ok {
			return problem(path, "want a URI string, have %T", v)
		}
		u, err := url.Parse(s)
		if err != nil {
			return problem(path, "%v", err)
		}
		if !ref && !u.IsAbs() {
			return problem(path, "want an absolute URI, have %q", s)
		}
		return nil
	}
}

func array(item check, unique bool) check {
	return func(path string, v any) []string {
		list, ok := v.([]any)
		if !ok {
			return problem(path, "want an array, have %T", v)
		}
		var out []string
		seen := map[string]bool{}
		for i, x := range list {
			out = append(out, item(fmt.Sprintf("%s[%d]", path, i), x)...)
			if unique {
				key, _ := json.Marshal(x)
				if seen[string(key)] {
					out = append(out, problem(path, "items must be unique; [%d] repeats one", i)...)
				}
				seen[string(key)] = true
			}
		}
		return out
	}
}

func dictionary(value check) check {
	return func(path string, v any) []string {
		m, ok := v.(map[string]any)
		if !ok {
			return problem(path, "want an object, have %T", v)
		}
		var out []string
		for _, k := range sortedKeys(m) {
			out = append(out, value(path+"."+k, m[k])...)
		}
		return out
	}
}

// object describes a schema definition: its properties (every other one is
// an error unless open), those required, and alternatives of which at least
// one set must be present (the schema's anyOf of required lists).
type object struct {
	props    map[string]check
	required []string
	anyOf    [][]string
	open     bool
}

func (o *object) check(path string, v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return problem(path, "want an object, have %T", v)
	}
	var out []string
	for _, r := range o.required {
		if _, ok := m[r]; !ok {
			out = append(out, problem(path, "required property %q is missing", r)...)
		}
	}
	if len(o.anyOf) > 0 && !slices.ContainsFunc(o.anyOf, func(set []string) bool {
		for _, r := range set {
			if _, ok := m[r]; !ok {
				return false
			}
		}
		return true
	}) {
		out = append(out, problem(path, "needs one of the property sets %q", o.anyOf)...)
	}
	for _, k := range sortedKeys(m) {
		c, ok := o.props[k]
		switch {
		case ok:
			out = append(out, c(path+"."+k, m[k])...)
		case !o.open:
			out = append(out, problem(path, "property %q is not in the schema", k)...)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// others lists properties of a definition that hiplint never writes: their
// presence is allowed, their content is not checked here.
func others(props map[string]check, names ...string) map[string]check {
	for _, n := range names {
		props[n] = anyValue
	}
	return props
}

var sarifLogSchema = func() check {
	level := enum("none", "note", "warning", "error")
	propertyBag := (&object{open: true, props: map[string]check{"tags": array(str, true)}}).check
	message := (&object{
		props:    map[string]check{"text": str, "markdown": str, "id": str, "arguments": array(str, false), "properties": propertyBag},
		anyOf:    [][]string{{"text"}, {"id"}},
		required: nil,
	}).check
	multiformat := (&object{
		props:    map[string]check{"text": str, "markdown": str, "properties": propertyBag},
		required: []string{"text"},
	}).check
	artifactLocation := (&object{props: map[string]check{
		"uri": uri(true), "uriBaseId": str, "index": integer(-1), "description": message, "properties": propertyBag,
	}}).check
	region := (&object{props: others(map[string]check{
		"startLine": integer(1), "startColumn": integer(1), "endLine": integer(1), "endColumn": integer(1),
		"charOffset": integer(-1), "charLength": integer(0), "byteOffset": integer(-1), "byteLength": integer(0),
		"message": message, "sourceLanguage": str, "properties": propertyBag,
	}, "snippet")}).check
	physicalLocation := (&object{
		props: others(map[string]check{
			"artifactLocation": artifactLocation, "region": region, "contextRegion": region, "properties": propertyBag,
		}, "address"),
		anyOf: [][]string{{"address"}, {"artifactLocation"}},
	}).check
	location := (&object{props: others(map[string]check{
		"id": integer(-1), "physicalLocation": physicalLocation, "message": message, "properties": propertyBag,
	}, "logicalLocations", "annotations", "relationships")}).check
	reportingConfiguration := (&object{props: others(map[string]check{
		"enabled": boolean, "level": level, "properties": propertyBag,
	}, "rank", "parameters")}).check
	reportingDescriptor := (&object{
		props: others(map[string]check{
			"id": str, "name": str, "shortDescription": multiformat, "fullDescription": multiformat,
			"help": multiformat, "helpUri": uri(false), "defaultConfiguration": reportingConfiguration,
			"properties": propertyBag,
		}, "deprecatedIds", "guid", "deprecatedGuids", "deprecatedNames", "messageStrings", "relationships"),
		required: []string{"id"},
	}).check
	toolComponent := (&object{
		props: others(map[string]check{
			"name": str, "version": str, "semanticVersion": str, "informationUri": uri(false),
			"rules": array(reportingDescriptor, true), "shortDescription": multiformat, "fullDescription": multiformat,
			"properties": propertyBag,
		}, "guid", "organization", "product", "productSuite", "fullName", "dottedQuadFileVersion",
			"releaseDateUtc", "downloadUri", "globalMessageStrings", "notifications", "taxa", "locations",
			"language", "contents", "isComprehensive", "localizedDataSemanticVersion",
			"minimumRequiredLocalizedDataSemanticVersion", "associatedComponent", "translationMetadata",
			"supportedTaxonomies"),
		required: []string{"name"},
	}).check
	tool := (&object{
		props:    map[string]check{"driver": toolComponent, "extensions": array(toolComponent, true), "properties": propertyBag},
		required: []string{"driver"},
	}).check
	notification := (&object{
		props: others(map[string]check{
			"level": level, "message": message, "locations": array(location, true), "properties": propertyBag,
		}, "timeUtc", "exception", "descriptor", "associatedRule", "threadId"),
		required: []string{"message"},
	}).check
	invocation := (&object{
		props: others(map[string]check{
			"executionSuccessful": boolean, "exitCode": integer(-1 << 31),
			"toolExecutionNotifications":     array(notification, false),
			"toolConfigurationNotifications": array(notification, false),
			"properties":                     propertyBag,
		}, "commandLine", "arguments", "responseFiles", "startTimeUtc", "endTimeUtc", "exitCodeDescription",
			"exitSignalName", "exitSignalNumber", "processStartFailureMessage", "ruleConfigurationOverrides",
			"notificationConfigurationOverrides", "exitSignal", "machine", "account", "processId",
			"executableLocation", "workingDirectory", "environmentVariables", "stdin", "stdout", "stderr",
			"stdoutStderr"),
		required: []string{"executionSuccessful"},
	}).check
	result := (&object{
		props: others(map[string]check{
			"ruleId": str, "ruleIndex": integer(-1), "kind": enum("notApplicable", "pass", "fail", "review", "open", "informational"),
			"level": level, "message": message, "locations": array(location, false),
			"relatedLocations": array(location, true), "partialFingerprints": dictionary(str),
			"fingerprints": dictionary(str), "properties": propertyBag,
		}, "rule", "analysisTarget", "guid", "correlationGuid", "occurrenceCount", "stacks", "codeFlows",
			"graphs", "graphTraversals", "suppressions", "baselineState", "rank", "attachments",
			"hostedViewerUri", "workItemUris", "provenance", "fixes", "taxa", "webRequest", "webResponse"),
		required: []string{"message"},
	}).check
	run := (&object{
		props: others(map[string]check{
			"tool": tool, "invocations": array(invocation, false), "results": array(result, false),
			"originalUriBaseIds": dictionary(artifactLocation),
			"columnKind":         enum("utf16CodeUnits", "unicodeCodePoints"),
			"properties":         propertyBag,
		}, "conversion", "language", "versionControlProvenance", "artifacts", "logicalLocations", "graphs",
			"automationDetails", "runAggregates", "baselineGuid", "redactionTokens", "defaultEncoding",
			"defaultSourceLanguage", "newlineSequences", "externalPropertyFileReferences",
			"threadFlowLocations", "taxonomies", "addresses", "translations", "policies", "webRequests",
			"webResponses", "specialLocations"),
		required: []string{"tool"},
	}).check
	return (&object{
		props: others(map[string]check{
			"$schema": uri(false), "version": enum("2.1.0"), "runs": array(run, false), "properties": propertyBag,
		}, "inlineExternalProperties"),
		required: []string{"version", "runs"},
	}).check
}()

// validateSARIF returns the schema violations of a SARIF log.
func validateSARIF(data []byte) []string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return []string{err.Error()}
	}
	return sarifLogSchema("$", v)
}

// The check itself catches what it is for.
func TestSARIFSchemaCheckFindsViolations(t *testing.T) {
	t.Parallel()
	good := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x","rules":[{"id":"A","shortDescription":{"text":"a"}}]}},
		"results":[{"ruleId":"A","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},
		"region":{"startLine":1,"startColumn":1,"endLine":1,"endColumn":2}}}],"partialFingerprints":{"k":"v"}}]}]}`
	assert.Empty(t, validateSARIF([]byte(good)))
	for _, tc := range []struct{ from, to, want string }{
		{`"version":"2.1.0",`, ``, `required property "version"`},
		{`"version":"2.1.0"`, `"version":"2.0.0"`, `$.version: want one of`},
		{`"name":"x",`, ``, `required property "name"`},
		{`"startColumn":1,`, `"startColumn":0,`, `startColumn: want at least 1`},
		{`"endColumn":2`, `"endColumn":2.5`, `endColumn: want an integer`},
		{`"message":{"text":"m"}`, `"message":{"markdown":"m"}`, `needs one of the property sets`},
		{`"ruleId":"A",`, `"ruleId":"A","severity":"high",`, `property "severity" is not in the schema`},
		{`{"id":"A","shortDescription":{"text":"a"}}`, `{"id":"A","shortDescription":{"markdown":"a"}}`, `required property "text"`},
		{`"partialFingerprints":{"k":"v"}`, `"partialFingerprints":{"k":1}`, `partialFingerprints.k: want a string`},
	} {
		require.Equal(t, 1, strings.Count(good, tc.from), tc.from)
		errs := validateSARIF([]byte(strings.Replace(good, tc.from, tc.to, 1)))
		assert.True(t, slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tc.want) }),
			"%s -> %s: want %q among %q", tc.from, tc.to, tc.want, errs)
	}
}

// Issue 21: the SARIF that hiplint writes, on the examples (findings,
// related locations, a rule per check) and on a clean package (no result),
// is valid against the schema.
func TestSARIFMatchesTheSchema(t *testing.T) {
	t.Parallel()
	res := onExamples(t, "-sarif")
	require.Equal(t, exitFindings, res.code)
	assert.Empty(t, validateSARIF([]byte(res.stdout)), "./examples/...")
	res = hiplint(t, ".", "-sarif", "./testdata/clean")
	assert.Empty(t, validateSARIF([]byte(res.stdout)), "./testdata/clean")
}

// Issue 21 item 2: the end of a cgo call's region was the column of the
// call's end in cgo's rewritten line (startColumn 44, endColumn 165 on a
// 128-byte line). Every region of the examples' SARIF now lies within its
// source lines, and every -json end on its line, not before its start.
func TestSARIFAndJSONPositionsLieWithinTheirLines(t *testing.T) {
	t.Parallel()
	lines := map[string][]string{}
	lineOf := func(file string, n int) (string, bool) {
		if lines[file] == nil {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			lines[file] = strings.Split(string(data), "\n")
		}
		if n < 1 || n > len(lines[file]) {
			return "", false
		}
		return lines[file][n-1], true
	}
	utf16Len := func(s string) int { return len(utf16.Encode([]rune(s))) }

	res := onExamples(t, "-sarif")
	require.Equal(t, exitFindings, res.code)
	doc := parseSARIF(t, res.stdout)
	var regions, calls int
	for _, r := range doc.Runs[0].Results {
		for i, l := range append(slices.Clone(r.Locations), r.RelatedLocations...) {
			file := filepath.Join(repoRoot, filepath.FromSlash(l.PhysicalLocation.ArtifactLocation.URI))
			reg := l.PhysicalLocation.Region
			require.NotNil(t, reg)
			where := fmt.Sprintf("%s %s:%d (location %d)", *r.RuleID, file, reg.StartLine, i)
			startLine, ok := lineOf(file, reg.StartLine)
			require.True(t, ok, where)
			endLine, ok := lineOf(file, reg.EndLine)
			require.True(t, ok, where)
			assert.LessOrEqual(t, reg.StartColumn, utf16Len(startLine)+1, where)
			assert.LessOrEqual(t, reg.EndColumn, utf16Len(endLine)+1, where)
			assert.True(t, reg.EndLine > reg.StartLine || reg.EndColumn >= reg.StartColumn, where)
			regions++
			// A region that starts at a C call covers the call, to its
			// closing parenthesis.
			if i == 0 && reg.EndLine == reg.StartLine && strings.HasPrefix(startLine[reg.StartColumn-1:], "C.") {
				text := startLine[reg.StartColumn-1 : reg.EndColumn-1] // the examples' lines are ASCII
				assert.Regexp(t, `^C\.\w+\(.*\)$`, text, where)
				assert.Equal(t, strings.Count(text, "("), strings.Count(text, ")"), "%s: %q", where, text)
				calls++
			}
		}
	}
	assert.Positive(t, regions)
	assert.GreaterOrEqual(t, calls, 8, "most example findings are on C calls")

	res = onExamples(t, "-json")
	require.Equal(t, exitFindings, res.code)
	var tree map[string]map[string][]jsonDiagnostic
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &tree))
	posn := regexp.MustCompile(`^(.*):(\d+):(\d+)$`)
	parse := func(s string) (string, int, int) {
		m := posn.FindStringSubmatch(s)
		require.NotNil(t, m, s)
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		return m[1], line, col
	}
	var ends int
	for _, byAnalyzer := range tree {
		for _, diags := range byAnalyzer {
			for _, d := range diags {
				pairs := [][2]string{{d.Posn, d.End}}
				for _, r := range d.Related {
					pairs = append(pairs, [2]string{r.Posn, r.End})
				}
				for _, pe := range pairs {
					file, line, col := parse(pe[0])
					endFile, endLine, endCol := parse(pe[1])
					assert.Equal(t, file, endFile)
					assert.True(t, endLine > line || endLine == line && endCol >= col, "%s .. %s", pe[0], pe[1])
					text, ok := lineOf(endFile, endLine)
					require.True(t, ok, pe[1])
					assert.LessOrEqual(t, endCol, len(text)+1, "%s .. %s: past the end of the line", pe[0], pe[1])
					ends++
				}
			}
		}
	}
	assert.Positive(t, ends)
}
