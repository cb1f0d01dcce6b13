package matrix

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// GPUDir is the module of GPU cases (hazard and safe twin per test), relative
// to the repository root; GPUVerdictsFile is the committed copy of the
// verdicts runtimecheck/gpu/check.sh writes on a GPU host.
const (
	GPUDir          = "runtimecheck/testdata/gpu"
	GPUVerdictsFile = "runtimecheck/gpu/verdicts.tsv"
)

// A GPUCase is a test of the GPU module marked
//
//	//matrix:gpu ROW FAMILY hazard|twin
//
// directly above its func: it runs the hazard (or its safe twin) of that cell
// on a real GPU, through the HIP-on-CUDA mapping.
type GPUCase struct {
	Row, Family, Role string
	Test              string // package directory and test, "modunload.TestLaunchEvicted"
	File              string // slash path relative to the repository root
	Line              int
}

// A GPUVerdict is one line of verdicts.tsv: what a GPU case's test did
// uninstrumented (Baseline: pass, fail, skip, not run) and what hiplint
// confirm said of the sites of its family it reached (Verdict: the one that
// decides, Detail: every verdict with its count).
type GPUVerdict struct {
	GPUCase
	Baseline, Verdict, Detail string
}

// GPURun is a verdicts.tsv: its header (date, card, commit) and its lines.
type GPURun struct {
	Header   string
	Verdicts []GPUVerdict
}

// ReadGPUCases reads the //matrix:gpu markers of the GPU module's tests.
func ReadGPUCases(root string) ([]GPUCase, []string, error) {
	var out []GPUCase
	var problems []string
	base := filepath.Join(root, filepath.FromSlash(GPUDir))
	err := filepath.WalkDir(base, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		pkgDir, _ := filepath.Rel(base, filepath.Dir(path))
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				rest, ok := strings.CutPrefix(c.Text, "//matrix:gpu ")
				if !ok {
					continue
				}
				pos := fset.Position(c.Pos())
				fields := strings.Fields(rest)
				if len(fields) != 3 || !knownRow(fields[0]) || !knownFamily(fields[1]) || fields[2] != "hazard" && fields[2] != "twin" {
					problems = append(problems, fmt.Sprintf("%s: want //matrix:gpu ROW FAMILY hazard|twin with a known row and family: %s", pos, c.Text))
					continue
				}
				name := ""
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fset.Position(fd.Pos()).Line == fset.Position(cg.End()).Line+1 {
						name = fd.Name.Name
					}
				}
				if !strings.HasPrefix(name, "Test") {
					problems = append(problems, fmt.Sprintf("%s: //matrix:gpu stands above no test func", pos))
					continue
				}
				out = append(out, GPUCase{Row: fields[0], Family: fields[1], Role: fields[2],
					Test: filepath.ToSlash(pkgDir) + "." + name, File: filepath.ToSlash(rel), Line: pos.Line + 1})
			}
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Test < out[j].Test })
	return out, problems, err
}

func knownFamily(dir string) bool {
	for _, fam := range Families {
		if fam.Dir == dir {
			return true
		}
	}
	return false
}

// familyPrefix maps a family directory to its check IDs' prefix.
var familyPrefix = map[string]string{"copysync": "HL1", "modules": "HL2", "graphfree": "HL3", "xnack": "HL4"}

// BaselineOutcomes reads `go test -v` output of several packages of the GPU
// module and returns each test's outcome (pass, fail, skip) by "dir.TestX",
// dir relative to the module whose path is modPath.
func BaselineOutcomes(r io.Reader, modPath string) map[string]string {
	out := map[string]string{}
	var pending []string // "TestX outcome" since the last package line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		for prefix, outcome := range map[string]string{"--- PASS: ": "pass", "--- FAIL: ": "fail", "--- SKIP: ": "skip"} {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				name, _, _ := strings.Cut(rest, " ")
				if !strings.Contains(name, "/") {
					pending = append(pending, name+" "+outcome)
				}
			}
		}
		// "ok  \texample.com/gpu/pkg\t1.2s" or "FAIL\texample.com/gpu/pkg ..."
		fields := strings.Fields(line)
		if len(fields) >= 2 && (fields[0] == "ok" || fields[0] == "FAIL") && strings.HasPrefix(fields[1], modPath+"/") {
			dir := strings.TrimPrefix(fields[1], modPath+"/")
			for _, p := range pending {
				name, outcome, _ := strings.Cut(p, " ")
				out[dir+"."+name] = outcome
			}
			pending = nil
		}
	}
	return out
}

// confirmResult is the part of hiplint confirm's JSON the GPU column reads.
type confirmResult struct {
	Finding struct {
		ID     string `json:"id"`
		Posn   string `json:"posn"`
		Silent bool   `json:"silent"`
	} `json:"finding"`
	Verdict string   `json:"verdict"`
	Tests   []string `json:"tests"`
}

// JudgeGPUCases (confirmJSON nil: confirm did not run) gives each case its baseline outcome and the verdicts
// hiplint confirm (its -json output, positions relative to the GPU module)
// gave the sites of the case's family in the case's package that its test
// ran, leaving aside the sites the cell's other case also ran (one verdict
// for both tells neither apart). A hazard is observed when a site was confirmed (hiplint reported it)
// or missed (hiplint was silent, the runtime showed it); a twin is refuted
// when its sites were refuted and none was confirmed or missed.
func JudgeGPUCases(cases []GPUCase, baseline map[string]string, confirmJSON []byte) ([]GPUVerdict, error) {
	var results []confirmResult
	if confirmJSON != nil {
		if err := json.Unmarshal(confirmJSON, &results); err != nil {
			return nil, fmt.Errorf("confirm JSON: %v", err)
		}
	}
	var out []GPUVerdict
	for _, c := range cases {
		dir, test, _ := strings.Cut(c.Test, ".")
		// The cell's cases of the other role: a site their tests ran too
		// has one verdict for both, which says nothing of this case alone.
		var others []string
		for _, o := range cases {
			odir, otest, _ := strings.Cut(o.Test, ".")
			if o.Row == c.Row && o.Family == c.Family && o.Role != c.Role && odir == dir {
				others = append(others, otest)
			}
		}
		counts := map[string]int{}
		for _, r := range results {
			if !strings.HasPrefix(r.Finding.ID, familyPrefix[c.Family]) || !strings.HasPrefix(r.Finding.Posn, dir+"/") || !ranTest(r.Tests, test) {
				continue
			}
			shared := false
			for _, o := range others {
				shared = shared || ranTest(r.Tests, o)
			}
			if shared {
				counts["shared: "+r.Verdict]++
				continue
			}
			counts[r.Verdict]++
		}
		v := GPUVerdict{GPUCase: c, Baseline: baseline[c.Test], Verdict: decide(c.Role, counts), Detail: detail(counts)}
		if confirmJSON == nil {
			v.Verdict, v.Detail = "NOT YET RUN", "no confirm output"
		}
		if v.Baseline == "" {
			v.Baseline = "not run"
		}
		out = append(out, v)
	}
	return out, nil
}

func ranTest(tests []string, test string) bool {
	for _, t := range tests {
		if t == test || strings.HasPrefix(t, test+"/") {
			return true
		}
	}
	return false
}

func decide(role string, counts map[string]int) string {
	switch {
	case counts["confirmed"] > 0 && role == "hazard":
		return "CONFIRMED"
	case counts["missed"] > 0 && role == "hazard":
		return "MISSED" // observed, but hiplint did not report it
	case counts["confirmed"]+counts["missed"] > 0:
		return "HAZARD ON TWIN"
	case counts["refuted"] > 0 && role == "twin":
		return "REFUTED"
	case counts["refuted"] > 0:
		return "NOT OBSERVED"
	case counts["inconclusive"] > 0:
		return "INCONCLUSIVE"
	}
	return "NO VERDICT"
}

func detail(counts map[string]int) string {
	if len(counts) == 0 {
		return "no site of the family traced"
	}
	var parts []string
	for v, n := range counts {
		parts = append(parts, fmt.Sprintf("%s %d", v, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// gpuColumns is verdicts.tsv's column line.
const gpuColumns = "ROW\tFAMILY\tROLE\tTEST\tBASELINE\tVERDICT\tDETAIL"

// WriteGPUVerdicts writes a verdicts.tsv: "# " and the header (date, card,
// commit), the column line, one line per case.
func WriteGPUVerdicts(w io.Writer, header string, verdicts []GPUVerdict) error {
	if _, err := fmt.Fprintf(w, "# %s\n%s\n", header, gpuColumns); err != nil {
		return err
	}
	for _, v := range verdicts {
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v.Row, v.Family, v.Role, v.Test, v.Baseline, v.Verdict, v.Detail); err != nil {
			return err
		}
	}
	return nil
}

// ReadGPUVerdicts reads a verdicts.tsv.
func ReadGPUVerdicts(r io.Reader) (*GPURun, error) {
	run := &GPURun{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case n == 1:
			h, ok := strings.CutPrefix(line, "# ")
			if !ok {
				return nil, fmt.Errorf("line 1: want a header line \"# date, card, commit\", got %q", line)
			}
			run.Header = h
		case n == 2:
			if line != gpuColumns {
				return nil, fmt.Errorf("line 2: want the column line %q", gpuColumns)
			}
		case strings.TrimSpace(line) == "":
		default:
			f := strings.Split(line, "\t")
			if len(f) != 7 {
				return nil, fmt.Errorf("line %d: want 7 tab-separated fields, got %d", n, len(f))
			}
			run.Verdicts = append(run.Verdicts, GPUVerdict{GPUCase: GPUCase{Row: f[0], Family: f[1], Role: f[2], Test: f[3]},
				Baseline: f[4], Verdict: f[5], Detail: f[6]})
		}
	}
	if n < 2 {
		return nil, fmt.Errorf("want a header line and a column line")
	}
	return run, sc.Err()
}

// gpuNA says why a cell of a family has no GPU case when it has none.
var gpuNA = map[string]string{
	"copysync":  "no GPU case: the construct changes what the analyzer follows, not the runtime's ordering, which the copysync, copygo and pipe cases show",
	"modules":   "no GPU case: the construct changes what the analyzer follows, not the module's life, which the modules, modset and modunload cases show",
	"graphfree": "no GPU case: the construct changes what the analyzer follows, not the runtime's answer to a free node, which the graphfree, gfree and capture cases show",
	"xnack":     "cannot show on NVIDIA: XNACK is AMD's; an NVIDIA GPU migrates managed memory always and reaches system memory only with HMM/ATS (the xnack and cargs cases record which)",
}

// gpuSection renders the verdicts of the GPU cases, row by row, and says of
// every other cell why it has none.
func (m *Matrix) gpuSection() string {
	if m.GPU == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n## On the GPU\n\n")
	fmt.Fprintf(&b, "The GPU cases (`%s`, a test marked `//matrix:gpu ROW FAMILY hazard|twin` runs the\n", GPUDir)
	b.WriteString("hazard or its safe twin of that cell) run through the HIP-on-CUDA mapping by\n")
	b.WriteString("`runtimecheck/gpu/check.sh`: uninstrumented (baseline: a hazard's test fails, a twin's passes),\n")
	b.WriteString("then under `hiplint confirm -silent`. A hazard is CONFIRMED when hiplint reported it and the run\n")
	b.WriteString("showed it, MISSED when only the run did; a twin is REFUTED. ")
	fmt.Fprintf(&b, "Run: %s (`%s`).\n", escape(m.GPU.Header), GPUVerdictsFile)
	byCell := map[string][]GPUVerdict{}
	for _, v := range m.GPU.Verdicts {
		byCell[v.Row+"|"+v.Family] = append(byCell[v.Row+"|"+v.Family], v)
	}
	for _, c := range m.GPUCases {
		key := c.Row + "|" + c.Family
		found := false
		for _, v := range byCell[key] {
			found = found || v.Test == c.Test
		}
		if !found {
			byCell[key] = append(byCell[key], GPUVerdict{GPUCase: c, Baseline: "not run", Verdict: "NOT YET RUN"})
		}
	}
	for _, g := range Groups {
		rows := false
		for _, r := range g.Rows {
			for _, fam := range Families {
				rows = rows || len(byCell[r.Slug+"|"+fam.Dir]) > 0
			}
		}
		if !rows {
			continue
		}
		tableHead(&b, "### "+g.Name)
		for _, r := range g.Rows {
			rowHead(&b, r)
			for _, fam := range Families {
				vs := byCell[r.Slug+"|"+fam.Dir]
				if len(vs) == 0 {
					if m.Cell(r.Slug, fam.Dir).State() == "na" {
						b.WriteString(" n/a |")
					} else {
						b.WriteString(" – |")
					}
					continue
				}
				sort.SliceStable(vs, func(i, j int) bool { return vs[i].Role < vs[j].Role }) // hazard, then twin
				var parts []string
				for _, v := range vs {
					parts = append(parts, fmt.Sprintf("%s `%s`: %s (baseline %s)", v.Role, v.Test, v.Verdict, v.Baseline))
				}
				fmt.Fprintf(&b, " %s |", escape(strings.Join(parts, " · ")))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\nA cell marked – has no GPU case:\n\n")
	for _, fam := range Families {
		fmt.Fprintf(&b, "- %s: %s.\n", fam.Title, gpuNA[fam.Dir])
	}
	return b.String()
}
