package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"slices"

	"github.com/hiplint/hiplint/internal/lsp"
	"golang.org/x/tools/go/analysis"
)

// lspCommand serves hiplint's diagnostics and quick fixes to an editor over
// the Language Server Protocol on stdin and stdout (docs/editors.md).
func (p *program) lspCommand(args []string) int {
	fs := flag.NewFlagSet("hiplint lsp", flag.ContinueOnError)
	fs.SetOutput(p.stderr)
	tags := fs.String("tags", "", "comma-separated build tags")
	tests := fs.Bool("test", true, "analyze test files too")
	headers := fs.String("headers", "auto", "GPU headers for cgo: auto, system or hiplint (as for hiplint itself)")
	debug := fs.Bool("debug", false, "log stack traces of internal errors")
	cacheMode := fs.String("cache", "on", "on: publish a directory whose inputs are unchanged from the result cache (docs/cache.md); off: read and write no cache")
	checks := fs.String("checks", "", "checks to report, as hiplint's -checks (docs/config.md); the editor's initializationOptions {\"checks\": ...} apply after it")
	var prof profiles
	prof.register(fs)
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return exitClean
	} else if err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		p.errorf("lsp takes no arguments; editors run it on stdin and stdout")
		return exitUsage
	}
	if p.checkHeaders(*headers) != nil {
		return exitUsage
	}
	if *cacheMode != "on" && *cacheMode != "off" {
		p.errorf("-cache %s: want on or off", *cacheMode)
		return exitUsage
	}
	override, err := checksOverride(*checks)
	if err != nil {
		p.errorf("-%v", err)
		return exitUsage
	}

	env, missing, cleanup, err := p.headerEnv(*headers, *cacheMode == "on")
	if err != nil {
		p.errorf("%v", err)
		return exitError
	}
	defer cleanup()
	analyzers := p.analyzers
	if testAnalyzers != nil {
		analyzers = append(slices.Clip(analyzers), testAnalyzers()...)
	}
	// The server says which headers cgo gets from hiplint once it analyzes
	// code that includes them: a HIP-only module hears nothing of CUDA's.
	opts := lsp.Options{
		Analyzers:      analyzers,
		Debug:          *debug,
		NoTier3:        *headers == "system",
		Checks:         p.checks,
		Tags:           *tags,
		Tests:          *tests,
		Env:            env,
		MissingHeaders: missing,
		Log:            p.stderr,
		Version:        version(),
		Override:       override,
	}
	if *cacheMode == "on" {
		p.lspCache(&opts)
	}
	stop := p.startProfiles(prof)
	err = lsp.Serve(context.Background(), lsp.Stdio(os.Stdin, p.stdout), opts)
	stop()
	if err != nil {
		// Exit status 1, as the protocol asks after an exit that no
		// shutdown preceded, and after a broken stream.
		p.errorf("lsp: %v", err)
		return exitError
	}
	return exitClean
}

// testAnalyzers, when not nil, returns analyzers the language server runs
// after hiplint's: only a binary built with the tag hiplint_testhooks sets
// it (testhooks.go), for the tests that need an analysis that does not end.
var testAnalyzers func() []*analysis.Analyzer
