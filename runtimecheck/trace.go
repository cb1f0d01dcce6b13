package runtimecheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Word is a number in the trace: the wrappers write integers as JSON numbers
// and addresses as "0x..." strings; both decode to a Word.
type Word int64

func (w *Word) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		*w = 0
		return nil
	}
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		u, err := strconv.ParseUint(h, 16, 64)
		*w = Word(u)
		return err
	}
	i, err := strconv.ParseInt(s, 10, 64)
	*w = Word(i)
	return err
}

// Text is a string in the trace that may also be written as a number.
type Text string

func (x *Text) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		*x = Text(s)
		return err
	}
	if string(b) == "null" {
		*x = ""
		return nil
	}
	var n json.Number
	err := json.Unmarshal(b, &n)
	*x = Text(n)
	return err
}

// Hex formats w as an address.
func (w Word) Hex() string { return fmt.Sprintf("0x%x", uint64(w)) }

// Pending is a device-to-device copy that was recorded before an operation,
// with whether it was still in flight when the operation was issued.
type Pending struct {
	Copy     int  `json:"copy"`    // site of the copy
	CopySeq  int  `json:"copyseq"` // the copy record's sequence number
	InFlight int  `json:"inflight"`
	Dst      Word `json:"dst"`
	Size     Word `json:"size"`
}

// Record is one line of a trace: a runtime call (or its "enter" line), a
// probe at a flagged host read, or one of the tracer's own records
// (hiplint:init, hiplint:device).
type Record struct {
	Seq   int    `json:"seq"`
	Site  int    `json:"site"`
	API   string `json:"api"`
	Phase string `json:"phase"` // "enter" before a crash-prone call
	Ret   *Word  `json:"ret"`
	T0    int64  `json:"t0"`
	T1    int64  `json:"t1"`
	Dev   *Word  `json:"dev"`

	Dst, Src, Ptr, Size, Kind, Stream, Event, Flags Word
	Device                                          Word
	Module, Function, Out, DPtr                     Word
	Value                                           *Word
	D2D                                             int `json:"d2d"`

	Maps, RSS int64
	Pending   []Pending `json:"pending"`

	// hiplint:order, the ground truth of a read issued while a copy was in
	// flight: timing events recorded right after the copy on its stream and
	// right after the read on the read's stream, compared once both completed.
	// Copy is the copy's site, CopySeq and ReadSeq the two calls' records;
	// ElapsedUS is the read event's completion minus the copy event's
	// (negative: the read completed before the copy landed).
	Copy      int      `json:"copy"`
	CopySeq   int      `json:"copyseq"`
	ReadSeq   int      `json:"readseq"`
	ElapsedUS *float64 `json:"elapsed_us"`

	// hiplint:init and hiplint:device
	PID       int     `json:"pid"`
	HSAXnack  *string `json:"hsa_xnack"`
	Platform  string  `json:"platform"`
	DelayUS   int64   `json:"delay_us"`
	ForceSync int     `json:"force_sync"`
	Pageable  *Word   `json:"pageable"`
	Arch      *string `json:"arch"`
	Name      *string `json:"name"`
	// Attr is the attribute's name in hiplint:device and the attribute
	// argument (a number) in hipDeviceGetAttribute's own record.
	Attr Text `json:"attr"`
}

// OK reports whether the call returned success.
func (r *Record) OK() bool { return r.Ret != nil && *r.Ret == 0 }

// Returned reports whether the record is the end of a call (not an enter line).
func (r *Record) Returned() bool { return r.Phase == "" && r.Ret != nil }

// Trace is the parsed trace of one test process.
type Trace struct {
	Records []Record
	Bad     int // lines that did not parse (a process killed mid-write)
	// Dropped counts the records past maxRecords, not kept: a judge that
	// sees only the start of a trace cannot decide (judge).
	Dropped int
}

// maxRecords bounds the records kept of one trace (a Record is about 400
// bytes: some 100 MB), whatever the test does in a loop.
var maxRecords = 256 << 10

// ParseTrace reads a JSON-lines trace. Malformed lines are counted, not
// fatal; records past maxRecords are counted, not kept.
func ParseTrace(r io.Reader) (*Trace, error) {
	t := &Trace{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if len(t.Records) >= maxRecords {
			t.Dropped++
			continue
		}
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Bad++
			continue
		}
		t.Records = append(t.Records, rec)
	}
	return t, sc.Err()
}

// Init returns the tracer's init record, if any.
func (t *Trace) Init() *Record { return t.find("hiplint:init") }

// Device returns the device description recorded at initialization, if any.
func (t *Trace) Device() *Record { return t.find("hiplint:device") }

func (t *Trace) find(api string) *Record {
	if t == nil {
		return nil
	}
	for i := range t.Records {
		if t.Records[i].API == api {
			return &t.Records[i]
		}
	}
	return nil
}

// Unfinished returns the last enter record whose call never returned: the
// call the process died in.
func (t *Trace) Unfinished() *Record {
	if t == nil {
		return nil
	}
	open := map[int]int{} // site → index of enter record
	for i, r := range t.Records {
		switch {
		case r.API == MarkerAPI:
			// call-site markers enclose Go calls, not runtime calls
		case r.Phase == "enter":
			open[r.Site] = i
		case r.Returned():
			delete(open, r.Site)
		}
	}
	best := -1
	for _, i := range open {
		if i > best {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return &t.Records[best]
}
