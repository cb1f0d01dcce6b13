// Package check defines what a hiplint check is: a stable ID with its title,
// severity and documentation page. It depends on nothing else in hiplint, so
// that both internal/diag (which reports) and internal/directive (which
// parses the suppression directives diag applies, and declares the checks
// about directives themselves) can use it; the analyzers use it through the
// aliases in internal/diag.
package check

// DocsBase is where the per-check documentation pages live.
const DocsBase = "https://github.com/hiplint/hiplint/blob/main/docs/checks/"

// Severity of a check's findings.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Check is one stable check ID with its documentation.
type Check struct {
	ID       string   // stable identifier, e.g. HL2001
	Analyzer string   // name of the analyzer that reports it
	Title    string   // one line: what is wrong
	Severity Severity // error or warning
}

// URL is the documentation page of the check.
func (c Check) URL() string { return DocsBase + c.ID + ".md" }
