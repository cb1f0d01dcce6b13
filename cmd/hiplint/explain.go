package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/hiplint/hiplint/docs"
	"github.com/hiplint/hiplint/internal/diag"
)

// explainCommand prints a check's documentation page, embedded in the
// binary (docs/checks/ID.md), so that it can be read without the network:
// the page in Markdown, its relative links made absolute, and the address
// of the same page online, which is also the SARIF rule's helpUri and the
// URL of `hiplint checks`.
func (p *program) explainCommand(args []string) int {
	fs := flag.NewFlagSet("hiplint explain", flag.ContinueOnError)
	fs.SetOutput(p.stderr)
	fs.Usage = func() {
		fmt.Fprintln(p.stderr, "usage: hiplint explain ID   (e.g. hiplint explain HL2001; hiplint checks lists the IDs)")
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitClean
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	id := strings.ToUpper(strings.TrimSpace(fs.Arg(0)))
	var check *diag.Check
	for i := range p.checks {
		if p.checks[i].ID == id {
			check = &p.checks[i]
		}
	}
	page, ok := docs.CheckPage(id)
	if check == nil || !ok {
		p.errorf("explain: unknown check ID %q; `hiplint checks` lists them", fs.Arg(0))
		return exitUsage
	}
	page = strings.TrimRight(docs.AbsoluteLinks(page, diag.DocsBase), "\n")
	fmt.Fprintf(p.stdout, "%s\n\n---\n%s (%s, %s analyzer): %s\n", page, check.ID, check.Severity, check.Analyzer, check.URL())
	return exitClean
}
