package runtimecheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// tier3Src stops cgo at an #error, which stands for a failure hiplint
// cannot repair (a missing SDK header it stubs, internal/synth): cgo fails.
// Its first load leaks (HL2001), its second too but is suppressed by a
// directive.
const tier3Src = `package sdk

// #error no_such_sdk_header.h cannot be repaired
import "C"

import (
	"errors"
	"unsafe"
)

func Load(image unsafe.Pointer) error {
	var m C.hipModule_t
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return errors.New("load failed")
	}
	return nil
}

func LoadQuietly(image unsafe.Pointer) error {
	var m C.hipModule_t
	//hiplint:ignore HL2001 the module lives as long as the process
	if C.hipModuleLoadData(&m, image) != C.hipSuccess {
		return errors.New("load failed")
	}
	return nil
}
`

// TestFindingsThroughTheDriver: confirm's findings step is the command
// line's pipeline (internal/driver): a package whose cgo step fails is
// analyzed at tier 3, with a note, not an error; the suppression directives
// apply; the tier-3 package is not handed on to be built and planned.
func TestFindingsThroughTheDriver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/rc\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sdk"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sdk", "sdk.go"), []byte(tier3Src), 0o644))

	for _, silent := range []bool{false, true} {
		l, err := findingsOf(t.Context(), dir, withEnv(os.Environ(), "GOFLAGS="), []string{"./..."}, silent)
		require.NoError(t, err)
		assert.Empty(t, l.errs, "a cgo failure is no error")
		require.Len(t, l.notes, 1)
		assert.Contains(t, l.notes[0], "example.com/rc/sdk: note: cgo failed")
		assert.Empty(t, l.pkgs, "confirm cannot build a tier-3 package")
		var got []string
		for _, f := range l.findings {
			if !f.Silent {
				got = append(got, f.ID+" "+f.Posn)
			}
		}
		assert.Equal(t, []string{"HL2001 " + filepath.Join(dir, "sdk", "sdk.go") + ":13:5"}, got,
			"silent=%v: the leak at tier 3; the suppressed one is not confirmed", silent)
	}
}
