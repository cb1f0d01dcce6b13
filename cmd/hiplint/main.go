// Command hiplint finds misuse of the HIP and CUDA runtime APIs in Go code
// that calls them through cgo.
//
// One binary serves two drivers:
//
//	hiplint [flags] [packages]              load with go/packages and analyze
//	go vet -vettool=$(which hiplint) ./...  analyze one package per process, for go vet
//
// and a few subcommands: hiplint checks, hiplint confirm, hiplint lsp,
// hiplint headers, hiplint version, hiplint help.
//
// Exit status: 0 no findings, 1 error (writing standard output included),
// 2 bad command line, 3 findings.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/runtimecheck"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// Exit statuses, as go vet uses them.
const (
	exitClean    = 0
	exitError    = 1
	exitUsage    = 2
	exitFindings = 3
)

func main() {
	args := os.Args[1:]
	if isVetInvocation(args) {
		// go vet passes no -debug flag through, so the environment is the only
		// way to ask for panic stacks in this mode.
		debug := os.Getenv("HIPLINT_DEBUG") != ""
		if code, ok := vetConfig(args, os.Stdout, os.Stderr); !ok {
			os.Exit(code)
		}
		unitchecker.Main(driver.Guard(analyzers.Suite(), debug)...) // exits
	}
	p := &program{
		analyzers:   analyzers.Suite(),
		checks:      analyzers.Checks(),
		stdout:      os.Stdout,
		stderr:      os.Stderr,
		limitMemory: true,
	}
	os.Exit(p.main(args))
}

// program is one standalone invocation. Tests build it with their own
// analyzers, streams and working directory instead of the real ones.
type program struct {
	analyzers []*analysis.Analyzer
	checks    []diag.Check
	stdout    io.Writer
	stderr    io.Writer
	dir       string // working directory for loading and for relative paths; "" is the process's
	// limitMemory sets a soft memory limit for the analysis (memory.go). It
	// is the process's setting, so only the real command sets it, not the
	// tests that run several drivers in one process at once.
	limitMemory bool
	// hooks are the tests' look into -fix: called after the analysis and
	// just before a file is replaced, when not nil.
	hooks struct {
		analyzed func()
		writing  func(file string)
	}
}

// subcommands are the words that select a subcommand when they are the first
// argument. Anything else is a flag or a package pattern, so that a package
// directory named like an unknown word is never mistaken for a command.
var subcommands = map[string]func(p *program, args []string) int{
	"checks":  (*program).checksCommand,
	"explain": (*program).explainCommand,
	"version": (*program).versionCommand,
	"help":    (*program).helpCommand,
	"confirm": (*program).confirmCommand,
	"lsp":     (*program).lspCommand,
	"headers": (*program).headersCommand,
}

// confirmCommand runs runtimecheck: the flagged code paths on a GPU, with a
// verdict and evidence for each finding.
func (p *program) confirmCommand(args []string) int {
	return runtimecheck.Main(args, p.stdout, p.stderr)
}

// main runs one command line and returns its exit status. Exit status 2 is
// for usage errors only: a failure to write standard output (a full disk,
// /dev/full) is an error, and so is a panic in hiplint's own code, which Go
// would otherwise end with status 2.
func (p *program) main(args []string) (code int) {
	out := &stickyWriter{w: p.stdout}
	p.stdout = out
	defer func() { p.stdout = out.w }()
	defer func() {
		if r := recover(); r != nil {
			p.errorf("internal error: %v\n%s", r, debug.Stack())
			code = exitError
		}
	}()
	defer func() {
		if out.err != nil {
			p.errorf("writing standard output: %v", out.err)
			code = exitError
		}
	}()
	if len(args) > 0 {
		if cmd, ok := subcommands[args[0]]; ok {
			return cmd(p, args[1:])
		}
	}
	return p.lint(args)
}

// stickyWriter remembers the first error writing to w and fails every
// write after it without trying, so that a full disk costs one write.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(b []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(b)
	if err != nil {
		s.err = err
	}
	return n, err
}

// errorf prints one error line in the form every Go tool uses, with its
// control characters other than newline and tab escaped: file names from
// //line directives and the go command's messages reach it.
func (p *program) errorf(format string, args ...any) {
	fmt.Fprintf(p.stderr, "hiplint: %s\n", escapeControls(fmt.Sprintf(format, args...)))
}
