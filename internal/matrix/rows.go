// Package matrix is the construct × check matrix of docs/coverage.md: the Go
// constructs real GPU code uses (rows), the four check families (columns), and
// the reader of the markers in testdata/src/matrix that say which testdata
// hazard and safe twin cover each cell.
//
// A cell is marked by a line comment directly above a top-level declaration
// of a package under testdata/src/matrix/<family>[...]:
//
//	//matrix:hazard ROW    the declaration holds a hazard of ROW, with its // want
//	//matrix:twin ROW      the declaration is its safe twin: no // want inside
//	//matrix:gap ROW: why  a hazard of ROW that the analyzer does not report yet
//
// and anywhere in such a file by
//
//	//matrix:na ROW: why   the cell cannot occur for this family
//
// Every cell needs a hazard and a twin, a gap and a twin, or an na.
package matrix

// A Group is a heading of the matrix: a kind of construct.
type Group struct {
	Name string
	Rows []Row
}

// A Row is one construct.
type Row struct {
	Slug  string // as written in the markers
	Title string // as shown in docs/coverage.md
}

// Families are the columns, in order: the directory under testdata/src/matrix
// and the analyzer whose findings the cell's wants are.
var Families = []struct{ Dir, Title, Analyzer string }{
	{"copysync", "copy sync (HL1xxx)", "memcpysync"},
	{"modules", "module balance (HL2xxx)", "modulebalance"},
	{"graphfree", "graph free (HL3xxx)", "graphfree"},
	{"xnack", "XNACK (HL4xxx)", "xnack"},
}

// Groups are the rows of the matrix.
var Groups = []Group{
	{"Calls", []Row{
		{"call-direct", "direct call of a wrapper"},
		{"call-method-value", "method value (`f := b.Do; f()`)"},
		{"call-method-expr", "method expression (`(*T).Do(b)`)"},
		{"call-promoted-value", "promoted method through an embedded value field"},
		{"call-promoted-pointer", "promoted method through an embedded pointer field"},
		{"call-promoted-two", "promoted method through two levels of embedding"},
		{"call-iface-local", "interface call, implementation in the package"},
		{"call-iface-cross", "interface call, implementation in another package"},
		{"call-func-field", "function value in a struct field"},
		{"call-func-map", "function value in a map"},
		{"call-options", "functional options"},
		{"call-generic-func", "instantiated generic function"},
		{"call-generic-method", "method of a generic type"},
	}},
	{"Closures", []Row{
		{"closure-in-place", "closure called in place"},
		{"closure-stored", "closure stored in a variable, called later"},
		{"closure-deferred", "deferred closure"},
		{"closure-go", "closure started with `go`"},
		{"closure-helper", "closure passed to a helper that calls it"},
		{"closure-cleanup", "`t.Cleanup` closure"},
	}},
	{"Control", []Row{
		{"defer-loop", "defer in a loop"},
		{"defer-cond", "conditional defer"},
		{"defer-named-result", "defer with named results"},
		{"defer-recover", "defer with `recover`"},
		{"early-return", "early return"},
		{"goto", "goto"},
		{"labelled-break", "labelled break / continue"},
		{"switch-fallthrough", "switch with fallthrough"},
		{"type-switch", "type switch"},
		{"select-branch", "select, per branch"},
		{"panic-path", "panic path"},
		{"range-slice", "range over a slice"},
		{"range-map", "range over a map"},
		{"range-chan", "range over a channel"},
		{"range-int", "range over an integer"},
		{"range-func", "range over a function (iterator)"},
		{"two-loops", "two loops over the same slice"},
	}},
	{"Data", []Row{
		{"data-local", "local variable"},
		{"data-field-local", "field of a local struct"},
		{"data-field-receiver", "field of the receiver"},
		{"data-field-pkg", "field of a package-level struct"},
		{"data-pkgvar-wrapper", "package-level variable reached through a no-argument wrapper"},
		{"data-append-loop", "slice or map grown by `append` in a loop"},
		{"data-chan", "channel carrying a handle or buffer"},
		{"data-return-struct", "value returned in a struct"},
		{"data-return-tuple", "value returned in a tuple"},
	}},
	{"Concurrency", []Row{
		{"conc-waitgroup", "goroutines joined by `sync.WaitGroup`"},
		{"conc-chan-join", "goroutines joined by a channel"},
		{"conc-errgroup", "`errgroup`-style helper"},
		{"conc-pkg-handles", "events and streams kept in package variables"},
	}},
	{"Program order", []Row{
		{"order-init", "`init` functions across files (run in file-name order)"},
		{"order-testmain", "`TestMain`"},
		{"order-subtest", "subtests (`t.Run`)"},
		{"order-example", "examples (one without an output comment is never run)"},
		{"order-benchmark", "benchmarks"},
	}},
	{"Runtime ordering", []Row{
		{"rt-blocking-stream", "blocking vs non-blocking streams"},
		{"rt-legacy-stream", "the legacy (null) stream"},
		{"rt-event-wrapper", "events recorded and waited through wrappers"},
		{"rt-runtime-kind", "copy kind known only at run time"},
		{"rt-capture-free", "free recorded by stream capture (a graph free node)"},
	}},
}
