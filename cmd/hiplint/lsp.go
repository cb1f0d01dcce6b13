package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/hiplint/hiplint/internal/lsp"
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
	checks := fs.String("checks", "", "checks to report, as hiplint's -checks (docs/config.md); the editor's initializationOptions {\"checks\": ...} apply after it")
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
	override, err := checksOverride(*checks)
	if err != nil {
		p.errorf("-%v", err)
		return exitUsage
	}

	env, missing, cleanup, err := p.headerEnv(*headers)
	if err != nil {
		p.errorf("%v", err)
		return exitError
	}
	defer cleanup()
	var notes []string
	if len(missing) > 0 {
		notes = append(notes, fmt.Sprintf("the C compiler finds no <%s>; cgo uses hiplint's declarations of the runtime API instead (-headers=system turns this off)",
			strings.Join(missing, ">, <")))
	}
	err = lsp.Serve(context.Background(), lsp.Stdio(os.Stdin, p.stdout), lsp.Options{
		Analyzers: p.analyzers,
		Debug:     *debug,
		NoTier3:   *headers == "system",
		Checks:    p.checks,
		Tags:      *tags,
		Tests:     *tests,
		Env:       env,
		Notes:     notes,
		Log:       p.stderr,
		Version:   version(),
		Override:  override,
	})
	if err != nil {
		p.errorf("lsp: %v", err)
		return exitError
	}
	return exitClean
}
