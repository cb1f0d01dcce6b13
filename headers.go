// Package hiplint holds what the hiplint commands share at the module root:
// the runtime API declarations hiplint supplies when a machine has no GPU
// headers (see internal/headerless).
package hiplint

import "embed"

// Headers are hiplint's own declarations of the HIP runtime, CUDA runtime and
// CUDA driver API subsets its checks model (testdata/include, written by us,
// declarations only). Tests compile fixtures against them; the linter hands
// them to cgo when the real headers are missing.
//
//go:embed testdata/include
var Headers embed.FS
