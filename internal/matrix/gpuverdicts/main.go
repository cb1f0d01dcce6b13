// Command gpuverdicts writes the GPU column's verdict list (verdicts.tsv) from
// a run of runtimecheck/gpu/check.sh: the //matrix:gpu markers of the GPU
// module's tests, the uninstrumented baseline (go test -v output) and
// hiplint confirm's JSON.
//
//	go run ./internal/matrix/gpuverdicts -baseline out/baseline.txt -confirm out/confirm.json \
//	    -header "2026-12-07, NVIDIA H100 80GB HBM3, commit abc1234" > out/verdicts.tsv
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/hiplint/hiplint/internal/matrix"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	baseline := flag.String("baseline", "", "go test -v output of the GPU module's packages, uninstrumented")
	confirm := flag.String("confirm", "", "hiplint confirm -json output for the GPU module (positions relative to it)")
	header := flag.String("header", "", "date, card and commit of the run")
	mod := flag.String("module", "example.com/gpu", "the GPU module's path")
	flag.Parse()
	if err := run(*root, *baseline, *confirm, *header, *mod); err != nil {
		fmt.Fprintln(os.Stderr, "gpuverdicts:", err)
		os.Exit(1)
	}
}

func run(root, baselinePath, confirmPath, header, mod string) error {
	cases, problems, err := matrix.ReadGPUCases(root)
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "gpuverdicts:", p)
	}
	outcomes := map[string]string{}
	if f, err := os.Open(baselinePath); err == nil {
		outcomes = matrix.BaselineOutcomes(f, mod)
		f.Close()
	} else {
		fmt.Fprintln(os.Stderr, "gpuverdicts: no baseline:", err)
	}
	data, err := os.ReadFile(confirmPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpuverdicts: no confirm JSON:", err)
		data = nil
	}
	verdicts, err := matrix.JudgeGPUCases(cases, outcomes, data)
	if err != nil {
		return err
	}
	return matrix.WriteGPUVerdicts(os.Stdout, header, verdicts)
}
