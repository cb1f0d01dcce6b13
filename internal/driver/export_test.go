package driver

import "go/token"

// FileCallsRuntime is fileCallsRuntime, for the external tests.
func FileCallsRuntime(name string, data []byte) bool {
	return fileCallsRuntime(token.NewFileSet(), name, data)
}
