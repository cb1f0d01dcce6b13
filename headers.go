// Package hiplint holds what the hiplint commands share at the module root:
// the runtime API declarations hiplint supplies when a machine has no GPU
// headers (see internal/headerless).
package hiplint

import "embed"

// Headers are hiplint's own declarations of the public HIP runtime API (HIP
// 6.2), CUDA runtime and CUDA driver APIs (CUDA 12.4): functions, types,
// enums, macros and struct layouts, written by us from the API
// documentation (testdata/include, declarations only). Tests compile
// fixtures against them; the linter hands them to cgo when the real headers
// are missing.
//
//go:embed testdata/include
var Headers embed.FS
