package flow

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Budget bounds what one analyzer spends on one package, function by
// function (issue 29: a pathological function must turn into a note naming
// it, and the run must go on). Solve spends it: each visit of a block costs
// the block's nodes plus one, times one plus the state's size
// (Problem.Size), so that a function's work is bounded by a constant times
// its size (WorkPerNode). A function whose solving overruns the work, its
// time (FuncTime), the package's time (PkgTime) or the heap limit
// (HeapLimit), or whose solution has a block still changing after
// maxVisits visits, is over budget: the analyzer leaves out its findings
// and its summary, and Notes names it. The time and heap limits are
// safety nets far above any function the work bound lets through: time
// depends on the machine, and only they make a run's output depend on it.
//
// A Budget is not safe for concurrent use: each analyzer makes its own for
// each package (NewBudget).
type Budget struct {
	Limits
	start time.Time // of the package's analysis
	// The function being analyzed (Begin), and what it spent.
	cur      *ast.BlockStmt
	curPos   token.Pos
	curName  string
	curStart time.Time
	curWork  int
	curNodes int
	over     string // why the current function is over budget; "" if it is not
	visits   int    // since the last heap check
	skipped  map[*ast.BlockStmt]bool
	notes    []Note
	spent    []Note // functions not analyzed because the package's budget was spent
}

// Limits are a Budget's bounds.
type Limits struct {
	// WorkPerNode: a function's solving may spend this much per node and
	// block of its graphs (a visit of a block costs its nodes plus one, times
	// one plus the state's size).
	WorkPerNode int
	// FuncTime bounds one function's solving; PkgTime the analysis of the
	// package.
	FuncTime, PkgTime time.Duration
	// HeapLimit: solving stops when the live heap exceeds this many bytes.
	HeapLimit uint64
}

// defaultLimits are the limits of NewBudget, unless the environment
// variable HIPLINT_BUDGET overrides some of them, as comma-separated
// key=value pairs: work=N (WorkPerNode), func=DURATION, pkg=DURATION,
// heap=BYTES (for tests and for measuring; docs/reliability.md).
var defaultLimits = Limits{
	// maxVisits visits of a state of 64 entries per node: what the
	// analyzers' bounded states (memcpysync's maxPendingCopies) can need.
	WorkPerNode: maxVisits * 64,
	FuncTime:    2 * time.Minute,
	PkgTime:     10 * time.Minute,
	HeapLimit:   4 << 30,
}

var envLimits = sync.OnceValue(func() Limits { return parseLimits(os.Getenv("HIPLINT_BUDGET"), defaultLimits) })

// parseLimits overrides l with the settings of s (HIPLINT_BUDGET's form);
// malformed settings are ignored.
func parseLimits(s string, l Limits) Limits {
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			continue
		}
		switch k {
		case "work":
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				l.WorkPerNode = n
			}
		case "func", "pkg":
			if d, err := time.ParseDuration(v); err == nil && d > 0 {
				if k == "func" {
					l.FuncTime = d
				} else {
					l.PkgTime = d
				}
			}
		case "heap":
			if n, err := strconv.ParseUint(v, 10, 64); err == nil && n > 0 {
				l.HeapLimit = n
			}
		}
	}
	return l
}

// NewBudget returns the budget of one analyzer on one package, its time
// counted from now.
func NewBudget() *Budget { return &Budget{Limits: envLimits(), start: time.Now()} }

// A Note names a function that was not analyzed, and why.
type Note struct {
	Pos  token.Pos // the function's
	Func string    // its name: "F", "T.M", "a function literal"
	Why  string
}

// Noted is what an analyzer's result implements to hand its notes to the
// driver (internal/driver prints them as it prints the tier-3 notes).
type Noted interface{ BudgetNotes() []Note }

// Notes is an analyzer result that is only notes.
type Notes []Note

// BudgetNotes returns the notes.
func (n Notes) BudgetNotes() []Note { return n }

// Start starts the analysis of fn and reports whether to analyze it: not
// when an earlier analysis of it went over budget (an analyzer analyzes a
// function several times: summary rounds, reporting), nor when the
// package's budget is spent. A nil Budget analyzes everything.
func (b *Budget) Start(fn Func) bool {
	if b == nil {
		return true
	}
	if b.skipped[fn.Body] {
		return false
	}
	b.cur, b.curPos, b.curName = fn.Body, fn.Node().Pos(), funcName(fn)
	b.curStart, b.curWork, b.curNodes, b.over = time.Now(), 0, 0, ""
	if b.PkgTime > 0 && time.Since(b.start) > b.PkgTime {
		b.skip()
		b.spent = append(b.spent, Note{Pos: b.curPos, Func: b.curName})
		return false
	}
	return true
}

// Over reports whether the function being analyzed went over budget; it
// then records the note, and Start refuses the function from then on.
func (b *Budget) Over() bool {
	if b == nil || b.over == "" {
		return false
	}
	if !b.skipped[b.cur] {
		b.skip()
		b.notes = append(b.notes, Note{Pos: b.curPos, Func: b.curName, Why: b.over})
	}
	return true
}

func (b *Budget) skip() {
	if b.skipped == nil {
		b.skipped = map[*ast.BlockStmt]bool{}
	}
	b.skipped[b.cur] = true
}

// graph adds a graph of nodes nodes and blocks (counted together) to what
// the current function may spend, and reports whether it is still within
// budget.
func (b *Budget) graph(nodes int) bool {
	if b == nil {
		return true
	}
	b.curNodes += nodes
	return b.over == ""
}

// spend spends work on the current function and reports whether it is
// still within budget.
func (b *Budget) spend(work int) bool {
	if b == nil {
		return true
	}
	if b.over != "" {
		return false
	}
	b.curWork += work
	switch {
	case b.WorkPerNode > 0 && b.curWork > b.WorkPerNode*max(b.curNodes, 1):
		b.over = fmt.Sprintf("its solving took more than %d steps per node (%d nodes)", b.WorkPerNode, b.curNodes)
	case b.FuncTime > 0 && time.Since(b.curStart) > b.FuncTime:
		b.over = fmt.Sprintf("its solving took more than %v", b.FuncTime)
	case b.PkgTime > 0 && time.Since(b.start) > b.PkgTime:
		b.over = fmt.Sprintf("the package's analysis took more than %v", b.PkgTime)
	}
	if b.visits++; b.visits >= 4096 && b.over == "" && b.HeapLimit > 0 {
		b.visits = 0
		if h := liveHeap(); h > b.HeapLimit {
			b.over = fmt.Sprintf("the heap grew past %d MiB", b.HeapLimit>>20)
		}
	}
	return b.over == ""
}

// cut records that Solve stopped visiting a block whose state still
// changed (maxVisits).
func (b *Budget) cut() {
	if b != nil && b.over == "" {
		b.over = fmt.Sprintf("a block's state still changed after %d visits", maxVisits)
	}
}

// Notes returns the notes of the functions that were not analyzed, in the
// order they were met; the functions refused because the package's budget
// was spent make one note, naming the first few.
func (b *Budget) Notes() Notes {
	if b == nil {
		return nil
	}
	out := Notes(append([]Note(nil), b.notes...))
	if len(b.spent) > 0 {
		names := make([]string, 0, 4)
		for i, n := range b.spent {
			if i == 3 {
				names = append(names, fmt.Sprintf("and %d more", len(b.spent)-3))
				break
			}
			names = append(names, n.Func)
		}
		out = append(out, Note{Pos: b.spent[0].Pos, Func: b.spent[0].Func,
			Why: fmt.Sprintf("the package's analysis took more than %v; not analyzed: %s", b.PkgTime, strings.Join(names, ", "))})
	}
	return out
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
var heapMu sync.Mutex

// liveHeap is the heap's objects, live and not yet swept, in bytes.
func liveHeap() uint64 {
	heapMu.Lock()
	defer heapMu.Unlock()
	metrics.Read(heapSample)
	if heapSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return heapSample[0].Value.Uint64()
}

// funcName names fn for a note: its name, with its receiver's type for a
// method, or "a function literal".
func funcName(fn Func) string {
	if fn.Decl == nil {
		return "a function literal"
	}
	name := fn.Decl.Name.Name
	if fn.Decl.Recv != nil && len(fn.Decl.Recv.List) > 0 {
		t := fn.Decl.Recv.List[0].Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		switch x := t.(type) {
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		if id, ok := t.(*ast.Ident); ok {
			name = id.Name + "." + name
		}
	}
	return name
}
