//go:build unix

package fixes

import (
	"os"
	"syscall"
)

// openNoWait opens name for reading without waiting for a writer when it
// has become a FIFO since it was checked.
func openNoWait(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
