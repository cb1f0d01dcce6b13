package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"runtime/debug"
	"text/tabwriter"

	"github.com/hiplint/hiplint/internal/headerless"
)

// checksCommand lists every check ID: a table, or a JSON array with -json.
func (p *program) checksCommand(args []string) int {
	fs := flag.NewFlagSet("hiplint checks", flag.ContinueOnError)
	fs.SetOutput(p.stderr)
	asJSON := fs.Bool("json", false, "print a JSON array")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		p.errorf("checks takes no arguments")
		return exitUsage
	}

	if *asJSON {
		type jsonCheck struct {
			ID       string `json:"id"`
			Analyzer string `json:"analyzer"`
			Title    string `json:"title"`
			Severity string `json:"severity"`
			URL      string `json:"url"`
		}
		list := make([]jsonCheck, 0, len(p.checks))
		for _, c := range p.checks {
			list = append(list, jsonCheck{c.ID, c.Analyzer, c.Title, string(c.Severity), c.URL()})
		}
		return p.writeJSON(list)
	}

	tw := tabwriter.NewWriter(p.stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tANALYZER\tTITLE\tDOCS")
	for _, c := range p.checks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Severity, c.Analyzer, c.Title, c.URL())
	}
	if err := tw.Flush(); err != nil {
		return exitError // a write error on stdout: program.main reports it
	}
	return exitClean
}

// headersCommand prints the include directory of hiplint's declarations of
// the GPU runtime APIs (materialized in the user cache by internal/headerless),
// for go vet on a machine without the SDKs:
//
//	CGO_CFLAGS="-idirafter $(hiplint headers)" go vet -vettool=$(which hiplint) ./...
func (p *program) headersCommand(args []string) int {
	fs := flag.NewFlagSet("hiplint headers", flag.ContinueOnError)
	fs.SetOutput(p.stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		p.errorf("headers takes no arguments")
		return exitUsage
	}
	dir, err := headerless.Dir()
	if err != nil {
		p.errorf("hiplint's headers: %v", err)
		return exitError
	}
	if _, err := fmt.Fprintln(p.stdout, dir); err != nil {
		p.errorf("%v", err)
		return exitError
	}
	return exitClean
}

func (p *program) versionCommand(args []string) int {
	if len(args) > 0 {
		p.errorf("version takes no arguments")
		return exitUsage
	}
	fmt.Fprintf(p.stdout, "hiplint version %s\n", version())
	return exitClean
}

func (p *program) helpCommand(args []string) int {
	fs, _ := p.newFlagSet(&options{})
	p.usage(p.stdout, fs)
	return exitClean
}

// baseVersion is the release this source tree leads up to: the version of
// a build that has neither a module version nor a stamp, with the commit
// as build metadata when the go command recorded it.
const baseVersion = "v0.9.0"

// stampedVersion is set at link time, for release builds:
//
//	go build -ldflags "-X main.stampedVersion=v1.0.0" ./cmd/hiplint
var stampedVersion string

// version returns hiplint's version, a semantic version with a leading v:
// the -ldflags stamp; else the main module's version as the go command
// recorded it (go install module@version, or a pseudo-version); else
// baseVersion as a pre-release, "v0.9.0-devel", with the VCS revision
// the go command records for a build in a git work tree as build metadata
// ("v0.9.0-devel+6493647a1b2c", ".dirty" when the tree had changes).
func version() string {
	if stampedVersion != "" {
		return stampedVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return baseVersion + "-devel"
	}
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	v := baseVersion + "-devel"
	if rev != "" {
		v += "+" + rev[:min(12, len(rev))]
		if dirty {
			v += ".dirty"
		}
	}
	return v
}

// writeJSON prints v indented, with a final newline.
func (p *program) writeJSON(v any) int {
	data, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		p.errorf("internal error: %v", err)
		return exitError
	}
	fmt.Fprintf(p.stdout, "%s\n", data)
	return exitClean
}
