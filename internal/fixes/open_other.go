//go:build !unix

package fixes

import "os"

// openNoWait opens name for reading.
func openNoWait(name string) (*os.File, error) {
	return os.Open(name)
}
