package lsp

import (
	"io"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// pipe is a synchronous, in-memory, full-duplex connection, as net.Pipe
// makes one, of two io.Pipes: the tests need no more, and package net
// would bring its cgo run and 20 packages into the build of the test
// binaries (docs/performance.md, "The cold build without testify").
// Closing one end ends the other's reads (io.EOF) and writes
// (io.ErrClosedPipe).
func pipe() (a, b io.ReadWriteCloser) {
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	return pipeEnd{ar, aw}, pipeEnd{br, bw}
}

type pipeEnd struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func (e pipeEnd) Read(p []byte) (int, error)  { return e.r.Read(p) }
func (e pipeEnd) Write(p []byte) (int, error) { return e.w.Write(p) }

// Close closes both directions at this end.
func (e pipeEnd) Close() error {
	e.r.Close()
	return e.w.Close()
}

// TestPipe: bytes written at one end are read at the other, both ways,
// and closing an end ends the other's reads and writes, as with net.Pipe.
func TestPipe(t *testing.T) {
	a, b := pipe()
	go func() { a.Write([]byte("to b")) }()
	buf := make([]byte, 10)
	n, err := b.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "to b", string(buf[:n]))
	go func() { b.Write([]byte("to a")) }()
	n, err = a.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "to a", string(buf[:n]))

	require.NoError(t, a.Close())
	_, err = b.Read(buf)
	assert.ErrorIs(t, err, io.EOF)
	_, err = b.Write([]byte("x"))
	assert.ErrorIs(t, err, io.ErrClosedPipe)
	_, err = a.Write([]byte("x"))
	assert.ErrorIs(t, err, io.ErrClosedPipe)
}
