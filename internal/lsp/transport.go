package lsp

// The base protocol's framing (LSP 3.17, "Base Protocol"): each message is
// a header part, "Name: value" lines ending in \r\n and an empty line, and
// a JSON-RPC body of Content-Length bytes. jsonrpc2's own codec ends the
// connection on the first message it cannot decode; this one answers a
// malformed message with a JSON-RPC error and reads the next, and stops
// only when the framing itself is lost.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// MaxMessageSize is the largest message body the server reads. A 20 MB
// buffer opened in the editor, escaped as JSON, fits many times over; a
// larger Content-Length is taken for a broken stream.
const MaxMessageSize = 256 << 20

// Bounds of the header part: a stream that is not framed at all (a client
// writing bare JSON) ends the connection instead of being read to its end
// in search of an empty line.
const (
	maxHeaderLine  = 4096
	maxHeaderLines = 32
)

// A FramingError says that the stream cannot be split into messages any
// more: a header part without a usable Content-Length, or no header part
// at all. Nothing after it can be read reliably, so the connection ends.
type FramingError struct {
	Message int // the message, counted from 1, whose header was broken
	Reason  string
}

func (e *FramingError) Error() string {
	return fmt.Sprintf("the message stream is broken at message %d: %s; no later message can be framed", e.Message, e.Reason)
}

// framedStream is a jsonrpc2.ObjectStream over the base protocol's
// framing that survives malformed messages.
type framedStream struct {
	r      *bufio.Reader
	w      io.Writer
	closer io.Closer
	// malformed is told of every message refused and how it was answered.
	malformed func(msg string)

	wmu sync.Mutex // serializes writes

	read  int   // messages read so far
	fatal error // the FramingError that ended the stream, if one did
	mu    sync.Mutex
}

func newFramedStream(rwc io.ReadWriteCloser, malformed func(string)) *framedStream {
	return &framedStream{r: bufio.NewReader(rwc), w: rwc, closer: rwc, malformed: malformed}
}

// WriteObject implements jsonrpc2.ObjectStream.
func (s *framedStream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(data))
	buf.Write(data)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err = s.w.Write(buf.Bytes())
	return err
}

// Close implements jsonrpc2.ObjectStream.
func (s *framedStream) Close() error { return s.closer.Close() }

// broken returns the FramingError that ended the stream, or nil.
func (s *framedStream) broken() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fatal
}

// ReadObject implements jsonrpc2.ObjectStream: it decodes the next
// well-formed message into v. A message whose body is not JSON gets a parse
// error (-32700), one that is JSON but not a JSON-RPC message, or whose
// header part has a line that is not a header, an invalid request error
// (-32600); either is reported to s.malformed and skipped. It returns
// io.EOF when the stream ends between messages, io.ErrUnexpectedEOF inside
// one, and a *FramingError when the framing is lost.
func (s *framedStream) ReadObject(v any) error {
	for {
		body, badHeader, err := s.readFrame()
		if err != nil {
			var fe *FramingError
			if errors.As(err, &fe) {
				s.mu.Lock()
				s.fatal = fe
				s.mu.Unlock()
				// The reply direction still works: say why the server
				// stops. The caller logs the error.
				s.reply(nil, codeInvalidRequest, fe.Error()+"; the server exits")
			}
			return err
		}
		n := s.read
		id := requestID(body)
		switch {
		case !json.Valid(body):
			var syntaxErr error = errors.New("not JSON")
			if err := json.Unmarshal(body, new(any)); err != nil {
				syntaxErr = err
			}
			reason := fmt.Sprintf("message %d (%d bytes) is malformed: its body is not valid JSON (%v)", n, len(body), syntaxErr)
			s.reply(nil, codeParseError, reason)
			s.malformed(reason + "; replied with a parse error (-32700) and went on")
			continue
		case badHeader != "":
			reason := fmt.Sprintf("message %d is malformed: its header has a line that is not \"Name: value\": %q", n, badHeader)
			s.reply(id, codeInvalidRequest, reason)
			s.malformed(reason + "; the message was not processed; replied with an invalid request error (-32600) and went on")
			continue
		}
		if err := json.Unmarshal(body, v); err != nil {
			reason := fmt.Sprintf("message %d is malformed: its body is JSON but not a JSON-RPC request, notification or response (%v)", n, err)
			s.reply(id, codeInvalidRequest, reason)
			s.malformed(reason + "; replied with an invalid request error (-32600) and went on")
			continue
		}
		return nil
	}
}

// readFrame reads one message: its body, and the first header line that
// is not a header (the message is then refused, but the framing holds).
func (s *framedStream) readFrame() (body []byte, badHeader string, err error) {
	s.read++
	length := int64(-1)
	for lines := 0; ; lines++ {
		if lines == 0 {
			// A header starts with its name; JSON without a header part
			// means the client does not frame its messages at all.
			if b, err := s.r.Peek(1); err == nil && (b[0] == '{' || b[0] == '[') {
				return nil, "", &FramingError{s.read, "a JSON body with no header part before it (each message needs \"Content-Length: N\\r\\n\\r\\n\" first)"}
			}
		}
		if lines == maxHeaderLines {
			return nil, "", &FramingError{s.read, fmt.Sprintf("more than %d header lines", maxHeaderLines)}
		}
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && lines == 0 && line == "" {
				return nil, "", io.EOF // between messages: the client closed the stream
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, "", err
		}
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) == "" {
			if badHeader == "" {
				badHeader = line
			}
			continue
		}
		if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue // Content-Type, or a header of a later protocol
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		switch {
		case err != nil || n < 0:
			return nil, "", &FramingError{s.read, fmt.Sprintf("Content-Length %q is not a byte count", strings.TrimSpace(value))}
		case n > MaxMessageSize:
			return nil, "", &FramingError{s.read, fmt.Sprintf("Content-Length %d is over the %d-byte limit", n, MaxMessageSize)}
		case length >= 0 && n != length:
			return nil, "", &FramingError{s.read, fmt.Sprintf("two Content-Length headers, %d and %d", length, n)}
		}
		length = n
	}
	if length < 0 {
		return nil, "", &FramingError{s.read, "a header part without Content-Length"}
	}
	// Read as the bytes arrive: a Content-Length alone allocates nothing.
	var buf bytes.Buffer
	if _, err := io.CopyN(&buf, s.r, length); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, "", err
	}
	return buf.Bytes(), badHeader, nil
}

// readLine reads one header line without its line ending (\r\n, or a bare
// \n, which some clients send), at most maxHeaderLine bytes.
func (s *framedStream) readLine() (string, error) {
	var line []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxHeaderLine {
			return "", &FramingError{s.read, fmt.Sprintf("a header line longer than %d bytes", maxHeaderLine)}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil:
			return string(line), err
		}
		line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
		return string(line), nil
	}
}

// requestID returns the id of the request body is, when it has one that
// JSON-RPC allows (a string or an integer), for the error reply.
func requestID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var str string
	var num int64
	if json.Unmarshal(m.ID, &str) == nil || json.Unmarshal(m.ID, &num) == nil {
		return m.ID
	}
	return nil
}

// reply sends an error response with id (nil: null, as JSON-RPC wants when
// the id could not be read).
func (s *framedStream) reply(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, message}}
	if err := s.WriteObject(resp); err != nil {
		s.malformed(fmt.Sprintf("the error reply could not be sent: %v", err))
	}
}
