package runtimecheck

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// Bounds on what confirm keeps of a test process's output. The process
// writes into a pipe that confirm drains at once, whatever it prints: to a
// file (the first fileLimit bytes), and in memory only the first and last
// tailBytes and go test -v's structure lines.
const (
	tailBytes = 16 << 10 // head and tail kept in memory, each
	fileLimit = 64 << 20 // written to the output file, at most
	lineLimit = 512      // a structure line is cut here
	maxEvents = 4096     // structure lines kept
)

// capture is the output of one test process (stdout and stderr together).
// Its memory is bounded whatever the process prints: head and tail buffers
// of tailBytes, one partial line of at most lineLimit bytes, and at most
// maxEvents structure lines. exec.Cmd calls Write from one goroutine at a
// time when Stdout and Stderr are the same writer.
type capture struct {
	file    *os.File // nil: no file
	path    string
	fileErr error // the first error writing the file: the rest is not written
	total   int64 // bytes written by the process

	head []byte
	ring []byte // the last tailBytes, circular; starts at next once full
	next int
	full bool

	line    []byte // the current line, its first lineLimit bytes
	events  []string
	dropped int // structure lines beyond maxEvents
}

// newCapture returns a capture writing to a new file at path ("": none).
func newCapture(path string) (*capture, error) {
	c := &capture{path: path, head: make([]byte, 0, tailBytes), ring: make([]byte, tailBytes), line: make([]byte, 0, lineLimit)}
	if path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, err
		}
		c.file = f
	}
	return c, nil
}

func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	if c.file != nil && c.fileErr == nil && c.total < fileLimit {
		w := p
		if rest := fileLimit - c.total; int64(len(w)) > rest {
			w = w[:rest]
		}
		if _, err := c.file.Write(w); err != nil {
			c.fileErr = err
		}
	}
	c.total += int64(n)
	if room := tailBytes - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
	}
	c.keepTail(p)
	c.scanLines(p)
	return n, nil
}

// keepTail writes p into the ring of the last tailBytes.
func (c *capture) keepTail(p []byte) {
	if len(p) >= len(c.ring) {
		copy(c.ring, p[len(p)-len(c.ring):])
		c.next, c.full = 0, true
		return
	}
	k := copy(c.ring[c.next:], p)
	if k < len(p) {
		copy(c.ring, p[k:])
		c.full = true
	}
	c.next = (c.next + len(p)) % len(c.ring)
	if c.next == 0 && len(p) > 0 {
		c.full = true
	}
}

// scanLines keeps the structure lines of go test -v: "=== RUN",
// "--- PASS/FAIL/SKIP" and the like, each cut at lineLimit.
func (c *capture) scanLines(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := lineLimit - len(c.line); room > 0 {
			c.line = append(c.line, chunk[:min(room, len(chunk))]...)
		}
		if i < 0 {
			return
		}
		c.endLine()
		p = p[i+1:]
	}
}

func (c *capture) endLine() {
	if structureLine(string(c.line)) {
		if len(c.events) < maxEvents {
			c.events = append(c.events, string(c.line))
		} else {
			c.dropped++
		}
	}
	c.line = c.line[:0]
}

// structureLine reports whether l is one of go test -v's lines about a
// test's run and end.
func structureLine(l string) bool {
	t := strings.TrimSpace(l)
	for _, p := range []string{"=== RUN", "=== NAME", "=== PAUSE", "=== CONT", "--- PASS:", "--- FAIL:", "--- SKIP:"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// close ends the last line and closes the file.
func (c *capture) close() error {
	if len(c.line) > 0 {
		c.endLine()
	}
	if c.file == nil {
		return nil
	}
	err := c.file.Close()
	if c.fileErr != nil {
		err = c.fileErr
	}
	return err
}

// tail returns the last tailBytes written (all of them when fewer).
func (c *capture) tail() []byte {
	if !c.full {
		return append([]byte(nil), c.ring[:c.next]...)
	}
	return append(append([]byte(nil), c.ring[c.next:]...), c.ring[:c.next]...)
}

// text returns what is kept of the output: all of it when it fits in the
// head and tail, else the head, a line saying how much was left out (and
// where all of it is), and the tail.
func (c *capture) text() string {
	if c.total <= int64(len(c.head)) {
		return string(c.head)
	}
	tail := c.tail()
	if c.total <= int64(len(c.head)+len(tail)) {
		// The two overlap: the tail's last total-len(head) bytes follow the head.
		return string(c.head) + string(tail[int64(len(tail))-(c.total-int64(len(c.head))):])
	}
	where := ""
	if c.path != "" {
		where = fmt.Sprintf("; the first %d MiB are in %s", fileLimit>>20, c.path)
		if c.total <= fileLimit {
			where = "; all of it is in " + c.path
		}
	}
	return fmt.Sprintf("%s\n[hiplint confirm: %d bytes of output left out here%s]\n%s", c.head, c.total-int64(len(c.head)+len(tail)), where, tail)
}

// held returns how many bytes of output the capture holds in memory.
func (c *capture) held() int {
	n := cap(c.head) + cap(c.ring) + cap(c.line)
	for _, e := range c.events {
		n += len(e)
	}
	return n
}
