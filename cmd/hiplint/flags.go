package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hiplint/hiplint/internal/config"

	"golang.org/x/tools/go/analysis"
)

// options are the standalone command line, parsed.
type options struct {
	format    string // "text", "json" or "sarif"
	json      bool   // -json: -format json
	sarif     bool   // -sarif: -format sarif
	fix       bool
	diff      bool
	tags      string
	tests     bool
	debug     bool
	strictC   bool                 // -strict-ctypes: a package analyzed without its C types fails the run
	headers   string               // "auto", "system" or "hiplint": where cgo finds the GPU headers
	analyzers []*analysis.Analyzer // the ones selected by the per-analyzer flags
	patterns  []string
	profiles  profiles // -cpuprofile, -memprofile
	checks    string   // -checks, as written
	version   bool     // -version
	override  *config.Override
	cache     string // -cache: "on" or "off" (docs/cache.md)
}

// errUsage is a command-line error that has already been printed.
var errUsage = errors.New("bad command line")

// parseFlags parses a standalone command line. Its errors have been printed.
func (p *program) parseFlags(args []string) (*options, error) {
	o := &options{}
	fs, enabled := p.newFlagSet(o)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	// -json and -sarif are shorthands for -format; asking for two different
	// formats is an error.
	formats := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "format":
			formats[o.format] = true
		case "json", "sarif":
			if f.Value.String() == "true" {
				formats[f.Name] = true
			}
		}
	})
	switch {
	case len(formats) > 1:
		p.errorf("-format, -json and -sarif ask for different output formats")
		return nil, errUsage
	case o.json:
		o.format = "json"
	case o.sarif:
		o.format = "sarif"
	}
	switch o.format {
	case "text", "json", "sarif":
	default:
		p.errorf("-format %s: want text, json or sarif", o.format)
		return nil, errUsage
	}
	if err := p.checkHeaders(o.headers); err != nil {
		return nil, err
	}
	if o.cache != "on" && o.cache != "off" {
		p.errorf("-cache %s: want on or off", o.cache)
		return nil, errUsage
	}
	if o.fix && o.diff {
		p.errorf("-fix and -diff cannot be combined: -diff prints the fixes and changes no file, -fix writes them")
		return nil, errUsage
	}
	if o.format != "text" && (o.fix || o.diff) {
		p.errorf("-%s cannot be combined with -fix or -diff", o.format)
		return nil, errUsage
	}

	var anyTrue bool
	for _, a := range p.analyzers {
		anyTrue = anyTrue || *enabled[a] == setTrue
	}
	for _, a := range p.analyzers {
		if state := *enabled[a]; state == setTrue || (!anyTrue && state != setFalse) {
			o.analyzers = append(o.analyzers, a)
		}
	}

	// -checks and the analyzer flags set on the command line apply after
	// each package's hiplint.toml (internal/config).
	var err error
	if o.override, err = checksOverride(o.checks); err != nil {
		p.errorf("-%v", err)
		return nil, errUsage
	}
	fs.Visit(func(f *flag.Flag) {
		if strings.Contains(f.Name, ".") {
			o.override.Flags[f.Name] = f.Value.String()
		}
	})

	o.patterns = fs.Args()
	if len(o.patterns) == 0 {
		o.patterns = []string{"."} // as go vet does
	}
	return o, nil
}

// checksOverride returns the override of a -checks value ("": the
// hiplint.toml files decide), checked against the known checks.
func checksOverride(checks string) (*config.Override, error) {
	o := &config.Override{Flags: map[string]string{}}
	if checks == "" {
		return o, nil
	}
	o.Checks = config.SplitChecks(checks)
	if o.Checks == nil {
		o.Checks = []string{}
	}
	return o, config.ValidateChecks(o.Checks, true)
}

// checkHeaders reports a -headers value other than auto, system or hiplint
// as a usage error.
func (p *program) checkHeaders(mode string) error {
	switch mode {
	case "auto", "system", "hiplint":
		return nil
	}
	p.errorf("-headers %s: want auto, system or hiplint", mode)
	return errUsage
}

// newFlagSet defines the standalone flags, storing into o. It uses its own
// flag set, not the global one, because vet mode hands the global set to
// unitchecker. The map holds the per-analyzer enable flags.
func (p *program) newFlagSet(o *options) (*flag.FlagSet, map[*analysis.Analyzer]*triState) {
	fs := flag.NewFlagSet("hiplint", flag.ContinueOnError)
	fs.SetOutput(p.stderr)
	fs.Usage = func() { p.usage(p.stderr, fs) }
	fs.StringVar(&o.format, "format", "text", "output format: text, json (the go/analysis JSON form) or sarif (SARIF 2.1.0, for code scanning)")
	fs.BoolVar(&o.json, "json", false, "print findings in the go/analysis JSON form: -format json")
	fs.BoolVar(&o.sarif, "sarif", false, "print findings as SARIF 2.1.0: -format sarif")
	fs.BoolVar(&o.fix, "fix", false, "apply the suggested fixes to the source files")
	fs.BoolVar(&o.diff, "diff", false, "print the suggested fixes as a unified diff; change no file")
	fs.StringVar(&o.checks, "checks", "", "checks to report, staticcheck's syntax: \"all,-HL4002\", \"HL2*\", \"inherit,-HL1002\" (inherit: the hiplint.toml's); default: the hiplint.toml's, else all (docs/config.md)")
	fs.StringVar(&o.tags, "tags", "", "comma-separated build tags")
	fs.BoolVar(&o.tests, "test", true, "analyze test files too")
	fs.BoolVar(&o.debug, "debug", false, "print stack traces of internal errors")
	fs.BoolVar(&o.version, "version", false, "print hiplint's version and exit (as hiplint version)")
	fs.BoolVar(&o.strictC, "strict-ctypes", false, "fail (exit status 1 without findings) when a package is analyzed without its C types (tier 3): for CI gates")
	o.profiles.register(fs)
	fs.StringVar(&o.cache, "cache", "on", "on: answer unchanged packages from the result cache (docs/cache.md); off: analyze everything, read and write no cache")
	fs.StringVar(&o.headers, "headers", "auto", "GPU headers for cgo: auto (hiplint's declarations for the ones the C compiler cannot find), system (only the installed ones), hiplint (always hiplint's)")

	// One flag per analyzer, as in go vet: -NAME=false turns NAME off; if any
	// -NAME is set true, only those run. Analyzer flags become -NAME.FLAG.
	enabled := make(map[*analysis.Analyzer]*triState, len(p.analyzers))
	for _, a := range p.analyzers {
		enabled[a] = new(triState)
		fs.Var(enabled[a], a.Name, fmt.Sprintf("enable the %s analyzer", a.Name))
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	return fs, enabled
}

// triState is a boolean flag that remembers whether it was set at all, so
// that -NAME (enable only NAME) differs from no flag (enable all).
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) Set(value string) error {
	b, err := strconv.ParseBool(value)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	*ts = setFalse
	if b {
		*ts = setTrue
	}
	return nil
}

func (ts *triState) String() string {
	if ts != nil && *ts == setFalse {
		return "false"
	}
	return "true"
}

func (ts *triState) IsBoolFlag() bool { return true }

// usage prints the help text, with the flags of fs when it is not nil.
func (p *program) usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `hiplint finds misuse of the HIP and CUDA runtime APIs in Go code that calls them through cgo.

Usage:
	hiplint [flags] [packages]      analyze packages (default: the current directory)
	hiplint checks [-json]          list every check with its documentation link
	hiplint explain ID              print a check's documentation page (hiplint explain HL2001)
	hiplint confirm [flags] [packages]
	                                run the flagged code paths on a GPU and judge each finding
	                                (hiplint confirm -h; docs/runtimecheck.md)
	hiplint lsp [-tags t] [-headers h] [-checks c]
	                                serve findings and quick fixes to an editor (LSP on stdio)
	hiplint headers                 print the include directory of hiplint's GPU runtime declarations
	                                (CGO_CFLAGS="-idirafter $(hiplint headers)" for go vet without SDKs)
	hiplint version                 print the version (also: hiplint -version)
	hiplint help                    print this help

	go vet -vettool=$(which hiplint) [packages]

Exit status: 0 no findings, 1 error, 2 bad command line, 3 findings.

Flags:
`)
	if fs != nil {
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}
