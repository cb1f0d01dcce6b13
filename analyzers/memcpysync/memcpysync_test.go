package memcpysync_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/analyzers/memcpysync"
	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"github.com/hiplint/hiplint/internal/testenv/sharedrun"
	"golang.org/x/tools/go/analysis/analysistest"
)

func testdata() string {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		panic(err)
	}
	return dir
}

// fixtures is one analysistest run, with the analyzer's default flags,
// over the fixtures of every test below but TestStrict's: each test checks
// its own packages' want comments and results.
var fixtures = &sharedrun.Run{Dir: testdata(), Analyzer: memcpysync.Analyzer, Patterns: []string{
	"memcpysync/hazards", "memcpysync/safe", "memcpysync/wrap", "memcpysync/app",
	"memcpysync/patterns", "memcpysync/twinhip", "memcpysync/twincuda", "memcpysync/twinuser",
	"memcpysync/cudart", "memcpysync/cudrv", "memcpysync/realwrap", "memcpysync/realapp",
	"memcpysync/realshapes", "memcpysync/streamtype", "matrix/copysync", "matrix/copysynclib",
	"memcpysync/libstream", "memcpysync/libstreamlocal", "memcpysync/tensor", "memcpysync/tensorapp",
	"memcpysync/kindenum", "memcpysync/kindenumapp", "memcpysync/devpool", "memcpysync/devpoolapp",
	"memcpysync/dptrain", "memcpysync/stagepipe",
}}

func TestHazards(t *testing.T) {
	fixtures.Check(t, "memcpysync/hazards")
}

func TestSafe(t *testing.T) {
	fixtures.Check(t, "memcpysync/safe")
}

func TestWrappersAcrossPackages(t *testing.T) {
	fixtures.Check(t, "memcpysync/wrap", "memcpysync/app")
}

// TestPatterns runs the hazards and their correct twins in the styles real
// Go GPU code is written in (wrapped calls, closures, buffer types, uintptr
// handles, hand-declared prototypes, interfaces, twin files, map caches).
func TestPatterns(t *testing.T) {
	fixtures.Check(t, "memcpysync/patterns",
		"memcpysync/twinhip", "memcpysync/twincuda", "memcpysync/twinuser")
}

func TestCUDARuntime(t *testing.T) {
	fixtures.Check(t, "memcpysync/cudart")
}

func TestCUDADriver(t *testing.T) {
	fixtures.Check(t, "memcpysync/cudrv")
}

func TestStrict(t *testing.T) {
	require.NoError(t, memcpysync.Analyzer.Flags.Set("strict", "true"))
	defer memcpysync.Analyzer.Flags.Set("strict", "false")
	analysistest.Run(t, testdata(), memcpysync.Analyzer, "memcpysync/strict")
}

func TestChecks(t *testing.T) {
	require.Len(t, memcpysync.Checks, 2)
	for _, c := range memcpysync.Checks {
		assert.Equal(t, "memcpysync", c.Analyzer)
		assert.True(t, strings.HasPrefix(c.ID, "HL100"), c.ID)
		assert.FileExists(t, filepath.Join("../../docs/checks", c.ID+".md"))
	}
	assert.Equal(t, "memcpysync", memcpysync.Analyzer.Name)
}

// TestSuggestedFix checks the inserted synchronize: the family's call, on its
// own line, right before the statement holding the read. Edits refer to the
// analyzed (cgo-processed) file; its line maps back to the user's file.
func TestSuggestedFix(t *testing.T) {
	results := fixtures.Check(t, "memcpysync/hazards", "memcpysync/cudart", "memcpysync/cudrv")
	want := map[string]string{ // function of the read → inserted text
		"hazards.go:26": "\tC.hipDeviceSynchronize()\n",
		"cudart.go:24":  "\tC.cudaDeviceSynchronize()\n",
		"cudrv.go:24":   "\tC.cuCtxSynchronize()\n",
	}
	found := map[string]bool{}
	var withoutFix []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			pos := r.Pass.Fset.Position(d.Pos)
			key := filepath.Base(pos.Filename) + ":" + itoa(pos.Line)
			if len(d.SuggestedFixes) == 0 {
				withoutFix = append(withoutFix, key)
			}
			text, ok := want[key]
			if !ok {
				continue
			}
			found[key] = true
			require.Len(t, d.SuggestedFixes, 1, key)
			edits := d.SuggestedFixes[0].TextEdits
			require.Len(t, edits, 1)
			assert.Equal(t, text, string(edits[0].NewText), key)
			assert.Equal(t, edits[0].Pos, edits[0].End)
			// Compare lines in the analyzed file: the edit is at the start
			// of the read's line there.
			at := r.Pass.Fset.PositionFor(edits[0].Pos, false)
			assert.Equal(t, r.Pass.Fset.PositionFor(d.Pos, false).Line, at.Line, "inserted on the read's line, before it")
			assert.Equal(t, 1, at.Column, "inserted at a line start")
			require.Len(t, d.Related, 1)
			assert.Equal(t, "device-to-device copy issued here", d.Related[0].Message)
		}
	}
	for k := range want {
		assert.True(t, found[k], "no diagnostic at %s", k)
	}
	// Not mechanical: after hipSetDevice(1) a device synchronize would wait
	// for the wrong device.
	assert.Contains(t, withoutFix, "hazards.go:85")
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}

// TestRealShapes runs the shapes of library-style code (issue 19): wrappers
// that read their parameters on the device, and event and stream wrappers.
func TestRealShapes(t *testing.T) {
	fixtures.Check(t, "memcpysync/realwrap", "memcpysync/realapp")
}

// TestRealShapesLocal runs the one-package shapes of issue 19: method values
// in struct fields, copy kinds from a switch or a variable, view accessors,
// and kernels on another device.
func TestRealShapesLocal(t *testing.T) {
	fixtures.Check(t, "memcpysync/realshapes")
}

// TestStreamType: a stream as a Go struct reached through a method
// (gorgonia/cu's Stream); the same value orders the copy and the read.
func TestStreamType(t *testing.T) {
	fixtures.Check(t, "memcpysync/streamtype")
}

// TestMatrix runs the copy-sync column of the construct × check matrix
// (docs/coverage.md, internal/matrix): a hazard and its safe twin for every
// construct.
func TestMatrix(t *testing.T) {
	fixtures.Check(t, "matrix/copysync", "matrix/copysynclib")
}

// A library routine without a stream argument runs on the stream its handle
// was bound to (blas_set_stream, blasSetStream): ordered after a copy on that
// stream, not after one the host did not wait for. libstreamlocal binds
// them while both are locals of the constructor (flow.Index.FieldPairs).
func TestLibraryHandleStream(t *testing.T) {
	fixtures.Check(t, "memcpysync/libstream", "memcpysync/libstreamlocal")
}

// TestTensorLibrary runs a tensor library whose Clone and Snapshot allocate,
// copy on the device and return what they copied into, and an importer that
// reads it (through facts): on the host, on a non-blocking stream, through
// slices grown in loops; each hazard with its synchronized twin.
func TestTensorLibrary(t *testing.T) {
	fixtures.Check(t, "memcpysync/tensor", "memcpysync/tensorapp")
}

// TestLibraryKindEnum runs a backend layer with its own copy-kind enum,
// translated into the runtime's by a helper (a switch, an if-chain, and a
// table no reader follows), behind an interface: what a caller passes
// decides whether the copy is device to device, through facts.
func TestLibraryKindEnum(t *testing.T) {
	fixtures.Check(t, "memcpysync/kindenum", "memcpysync/kindenumapp")
}

// TestDevPool runs a tensor runtime with pooled buffers, a non-blocking copy
// stream, copy helpers returning events, and an application using it
// (testdata/src/memcpysync/devpool, devpoolapp).
func TestDevPool(t *testing.T) {
	fixtures.Check(t, "memcpysync/devpool", "memcpysync/devpoolapp")
}

// TestDataParallel runs a data-parallel trainer: peer copies issued from
// goroutines joined by an errgroup-style helper (testdata/src/memcpysync/dptrain).
func TestDataParallel(t *testing.T) {
	fixtures.Check(t, "memcpysync/dptrain")
}

// TestStagePipeline runs a pipeline of stages connected by channels
// carrying device frames (testdata/src/memcpysync/stagepipe).
func TestStagePipeline(t *testing.T) {
	fixtures.Check(t, "memcpysync/stagepipe")
}
