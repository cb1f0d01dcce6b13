// Package lsp is hiplint's language server: `hiplint lsp` runs it on stdin
// and stdout next to gopls, which cannot load third-party analyzers
// (golang/go#59869). It publishes hiplint's findings as diagnostics when a Go
// file is opened, edited or saved, and offers the analyzers' suggested fixes
// as quick fixes that make exactly the change `hiplint -fix` makes.
//
// The server analyzes a directory's packages (the package, its test variant
// and its external tests, as `hiplint .` in that directory does) in the
// background, one directory at a time, after a short quiet period so that a
// burst of saves or keystrokes costs one analysis. It keeps the text of every
// open buffer: buffers that differ from their files are analyzed as they are,
// unsaved, through go/packages' overlay. It keeps each directory's findings,
// re-analyzes a directory when one of its files is edited or saved, and marks
// the directories that depend on it stale (re-analyzing those with open
// files). The server never writes a file: it only proposes edits.
//
// JSON-RPC is github.com/sourcegraph/jsonrpc2's, over the server's own
// framing of messages (transport.go), which answers a malformed message
// instead of ending the connection; the protocol's message types are the
// few this server needs (protocol.go).
package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hiplint/hiplint/internal/fixes"

	"github.com/hiplint/hiplint/internal/config"
	"github.com/hiplint/hiplint/internal/diag"
	"github.com/hiplint/hiplint/internal/driver"
	"github.com/hiplint/hiplint/internal/resultcache"
	"github.com/sourcegraph/jsonrpc2"
	"golang.org/x/tools/go/analysis"
)

// DefaultDebounce is how long the server waits after an open or a save,
// without another one for the same directory, before it analyzes.
const DefaultDebounce = 200 * time.Millisecond

// DefaultChangeDebounce is how long the server waits after an edit of a
// buffer, without another event for its directory, before it analyzes: a
// pause in typing, not every keystroke.
const DefaultChangeDebounce = 500 * time.Millisecond

// Options configure the server.
type Options struct {
	// Analyzers run on every analyzed package (internal/driver guards
	// them against panics).
	Analyzers []*analysis.Analyzer
	// Checks give each check ID its severity and documentation page.
	Checks []diag.Check
	// Tags are the build tags, comma-separated, as hiplint's -tags.
	Tags string
	// Tests analyzes test files too, as hiplint's -test.
	Tests bool
	// NoTier3 makes a package whose cgo step fails a problem instead of
	// analyzing it at tier 3, as hiplint's -headers=system.
	NoTier3 bool
	// Debug gives the error of an analyzer's panic its stack.
	Debug bool
	// Env is the go command's environment (with hiplint's headers when the
	// GPU headers are missing); nil means the process's.
	Env []string
	// Notes are said to the client once, after initialization.
	Notes []string
	// Debounce replaces DefaultDebounce when positive.
	Debounce time.Duration
	// ChangeDebounce replaces DefaultChangeDebounce when positive.
	ChangeDebounce time.Duration
	// Log gets a copy of every message to the client and the protocol's
	// errors; nil discards them.
	Log io.Writer
	// Version is the server's version in the initialize result.
	Version string
	// MissingHeaders are the GPU headers the C compiler does not find, for
	// which Env gives cgo hiplint's own: the server says so once a package
	// it analyzes includes one of them, naming those it includes.
	MissingHeaders []string
	// MaxFixFileSize replaces DefaultMaxFixFileSize when positive.
	MaxFixFileSize int64
	// Override is the command line's configuration (-checks), applied
	// after each package's hiplint.toml; the editor's settings apply after
	// it (config.go).
	Override *config.Override
	// Cache, when not nil, keeps each directory's result and answers an
	// analysis whose inputs are unchanged from it (cache.go,
	// docs/cache.md); CacheIdentity is added to every key (hiplint's
	// build). CacheStats, when not nil, is told of each hit and miss.
	Cache         *resultcache.Cache
	CacheIdentity []byte
	// replayed: the dependencies whose cached facts a miss replayed.
	CacheStats func(dir string, hit bool, replayed []string)
	// RerunStats, when not nil, is told of each analysis of an edit done
	// in memory, from the directory's loaded graph (session.go).
	RerunStats func(dir string, stats driver.RerunStats)
	// MaxSessions replaces DefaultMaxSessions when positive.
	MaxSessions int
}

// DefaultMaxSessions is how many directories' loaded graphs the server
// keeps in memory for their edits (session.go), the most recently
// analyzed ones with open files.
const DefaultMaxSessions = 4

// DefaultMaxFixFileSize is the largest file, as the editor holds it and as
// cgo rewrote it, whose findings come with quick fixes: -fix's limit
// (fixes.MaxFileSize). A larger file gets its diagnostics without quick
// fixes, and the editor is told why once per opened document.
const DefaultMaxFixFileSize = fixes.MaxFileSize

// exitGrace is how long the server waits, once the connection has ended,
// for its loops to stop. An analyzer that has started on a package cannot
// be interrupted, and a client that stopped reading blocks the publishing
// loop: the server then returns without them.
const exitGrace = 200 * time.Millisecond

// Serve runs the language server on stream until the client sends exit,
// the stream ends or ctx is done. It returns nil after an orderly shutdown
// and exit, and a *FramingError when the stream could not be split into
// messages any more. It does not wait for an analyzer that is running on a
// package (exitGrace): the caller may exit at once.
func Serve(ctx context.Context, stream io.ReadWriteCloser, opts Options) error {
	return newServer(opts).serve(ctx, stream)
}

// Stdio joins a reader and a writer, typically os.Stdin and os.Stdout, into
// the stream Serve wants. Closing it closes in.
func Stdio(in io.ReadCloser, out io.Writer) io.ReadWriteCloser {
	return stdio{in, out}
}

type stdio struct {
	io.ReadCloser
	io.Writer
}

// Server is one connection's state.
type Server struct {
	opts   Options
	checks map[string]diag.Check
	logger *log.Logger

	conn  *jsonrpc2.Conn
	ready chan struct{} // closed once conn is set

	kick        chan struct{} // wakes the analysis loop
	publishKick chan struct{} // wakes the publishing loop

	mu          sync.Mutex
	override    *config.Override // Options.Override with the editor's settings (config.go)
	settingsErr error            // the editor's settings were rejected: said after initialized
	initialized bool
	shutdown    bool
	exited      bool
	docs        map[string]*document    // open documents, by file
	cache       map[string]*pkgResult   // by directory
	pending     map[string]*analysisDue // by directory
	running     string                  // the directory being analyzed, or ""
	toPublish   map[string]bool         // files whose diagnostics to send
	closedURI   map[string]string       // files closed since last published, as the client named them
	noted       map[string]bool         // the MissingHeaders said to be missing so far
	sessions    map[string]*dirSession  // loaded graphs by directory (session.go)
	sessionUse  map[string]time.Time    // when each was last analyzed

	analyzed func(dir string) // called after each analysis, with s.mu held; for tests
}

// A document is a file open in the editor.
type document struct {
	uri     string // as the client spells it
	version int32
	text    []byte // the buffer at version
	dirty   bool   // the buffer may differ from the file on disk: edited since opened or saved
	// toldNoFixes: the client was told that the document is too large
	// for quick fixes (once per opened document).
	toldNoFixes bool
}

// analysisDue is an analysis waiting for its directory to be quiet.
type analysisDue struct {
	at    time.Time
	saved bool // a save or an edit asked for it: dependents' findings may change too
	// load: the directory was published from the result cache; it is
	// loaded now, in the background, for its edits (session.go).
	load bool
}

func newServer(opts Options) *Server {
	s := &Server{
		opts:        opts,
		checks:      map[string]diag.Check{},
		ready:       make(chan struct{}),
		kick:        make(chan struct{}, 1),
		publishKick: make(chan struct{}, 1),
		docs:        map[string]*document{},
		cache:       map[string]*pkgResult{},
		pending:     map[string]*analysisDue{},
		toPublish:   map[string]bool{},
		closedURI:   map[string]string{},
		noted:       map[string]bool{},
		sessions:    map[string]*dirSession{},
		sessionUse:  map[string]time.Time{},
	}
	for _, c := range opts.Checks {
		s.checks[c.ID] = c
	}
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	s.logger = log.New(w, "hiplint lsp: ", log.LstdFlags)
	return s
}

func (s *Server) serve(ctx context.Context, stream io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	framed := newFramedStream(stream, func(msg string) { s.logger.Print(msg) })
	s.conn = jsonrpc2.NewConn(ctx, framed, s, jsonrpc2.SetLogger(s.logger))
	close(s.ready)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.analysisLoop(ctx) }()
	go func() { defer wg.Done(); s.publishLoop(ctx) }()

	select {
	case <-s.conn.DisconnectNotify():
	case <-ctx.Done():
		s.conn.Close()
	}
	cancel() // stops the running analysis at its next analyzer
	loops := make(chan struct{})
	go func() { wg.Wait(); close(loops) }()
	timer := time.NewTimer(exitGrace)
	select {
	case <-loops:
	case <-timer.C:
		s.mu.Lock()
		if s.running != "" {
			s.logger.Printf("exiting without waiting for the analysis of %s to end", s.running)
		}
		s.mu.Unlock()
	}
	timer.Stop()

	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.exited && s.shutdown:
		return nil
	case s.exited:
		return errors.New("the client sent exit without shutdown")
	case framed.broken() != nil:
		return framed.broken()
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled):
		return ctx.Err()
	}
	return errors.New("the client closed the connection without shutdown and exit")
}

// Handle implements jsonrpc2.Handler. It runs on the connection's reading
// goroutine, so it only records what happened and schedules work: loading
// and analysis happen on the analysis loop.
func (s *Server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	<-s.ready
	result, err := s.dispatch(ctx, req)
	if req.Notif {
		if err != nil {
			s.logger.Printf("%s: %v", req.Method, err)
		}
		return
	}
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
		}
		err = conn.ReplyWithError(ctx, req.ID, rpcErr)
	} else {
		err = conn.Reply(ctx, req.ID, result)
	}
	if err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.logger.Printf("replying to %s: %v", req.Method, err)
	}
}

func (s *Server) dispatch(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Printf("internal error in %s: %v\n%s", req.Method, r, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("internal error: %v", r)}
		}
	}()

	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == methodExit:
		s.mu.Lock()
		s.exited = true
		s.mu.Unlock()
		s.conn.Close()
		return nil, nil
	case !initialized && req.Method != methodInitialize:
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "the server is not initialized"}
	case shutdown:
		return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "the server is shut down"}
	}

	switch req.Method {
	case methodInitialize:
		var p initializeParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		checks, err := parseEditorSettings(p.InitializationOptions)
		s.mu.Lock()
		s.settingsErr = err
		s.setEditorChecks(checks)
		s.mu.Unlock()
		return s.initialize()
	case methodInitialized:
		for _, note := range s.opts.Notes {
			s.logf(ctx, messageInfo, "%s", note)
		}
		s.mu.Lock()
		err := s.settingsErr
		s.mu.Unlock()
		if err != nil {
			s.logf(ctx, messageError, "initializationOptions ignored: %v", err)
		}
		return nil, nil
	case methodDidChangeConfiguration:
		var p struct {
			Settings json.RawMessage `json:"settings"`
		}
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		checks, err := parseEditorSettings(p.Settings)
		if err != nil {
			s.logf(ctx, messageError, "workspace/didChangeConfiguration ignored: %v", err)
			return nil, nil
		}
		s.mu.Lock()
		s.reconfigure(checks)
		s.mu.Unlock()
		return nil, nil
	case methodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case methodDidOpen:
		var p didOpenParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didOpen(p)
	case methodDidChange:
		var p didChangeParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didChange(p)
	case methodDidSave:
		var p didSaveParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didSave(p)
	case methodDidClose:
		var p didCloseParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didClose(p)
	case methodCodeAction:
		var p codeActionParams
		if err := decode(req, &p); err != nil {
			return nil, err
		}
		return s.codeActions(p), nil
	}
	if req.Notif {
		return nil, nil // $/cancelRequest, $/setTrace, workspace notifications: nothing to do
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "hiplint does not serve " + req.Method}
}

func decode(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: req.Method + " needs params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("%s: %v", req.Method, err)}
	}
	return nil
}

func (s *Server) initialize() (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "initialize sent twice"}
	}
	s.initialized = true
	return initializeResult{
		Capabilities: serverCapabilities{
			PositionEncoding: "utf-16",
			TextDocumentSync: textDocumentSyncOptions{
				OpenClose: true,
				Change:    textDocumentSyncIncremental,
				Save:      saveOptions{IncludeText: false},
			},
			CodeActionProvider: codeActionOptions{CodeActionKinds: []string{codeActionQuickFix}},
		},
		ServerInfo: serverInfo{Name: "hiplint", Version: s.opts.Version},
	}, nil
}

// goFile returns the file a document URI names, or "" for anything but a
// Go file on disk.
func goFile(uri string) string {
	path, err := uriToPath(uri)
	if err != nil || !strings.HasSuffix(path, ".go") {
		return ""
	}
	return path
}

func (s *Server) didOpen(p didOpenParams) error {
	path := goFile(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	text := []byte(p.TextDocument.Text)
	onDisk, err := fixes.ReadBounded(path, fixes.MaxFileSize)
	s.mu.Lock()
	defer s.mu.Unlock()
	doc := &document{
		uri:     p.TextDocument.URI,
		version: p.TextDocument.Version,
		text:    text,
		dirty:   err != nil || !bytes.Equal(onDisk, text),
	}
	s.docs[path] = doc
	delete(s.closedURI, path)
	dir := dirOf(path)
	if res := s.cache[dir]; res != nil && !res.stale && res.has(path) && !res.changedOnDisk() && res.analyzedText(path, doc) {
		// Analyzed already, with this very text: the findings describe
		// this version of the buffer.
		res.versions[path] = p.TextDocument.Version
		s.markForPublishing(path)
		return nil
	}
	// While dir is being analyzed, the analysis picks up a clean buffer
	// when it ends (analyze); a dirty one needs an analysis of its own.
	if s.running != dir || doc.dirty {
		s.schedule(dir, false)
	}
	return nil
}

// didChange applies an edit to the buffer and schedules its directory for
// analysis once the typing pauses: the findings follow the unsaved buffer.
func (s *Server) didChange(p didChangeParams) error {
	path := goFile(p.TextDocument.URI)
	s.mu.Lock()
	defer s.mu.Unlock()
	doc := s.docs[path]
	if doc == nil {
		return nil
	}
	doc.version = p.TextDocument.Version
	doc.text = applyChanges(doc.text, p.ContentChanges)
	doc.dirty = true
	debounce := s.opts.ChangeDebounce
	if debounce <= 0 {
		debounce = DefaultChangeDebounce
	}
	s.scheduleAfter(dirOf(path), true, debounce)
	return nil
}

func (s *Server) didSave(p didSaveParams) error {
	path := goFile(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	onDisk, err := fixes.ReadBounded(path, fixes.MaxFileSize)
	s.mu.Lock()
	defer s.mu.Unlock()
	if doc := s.docs[path]; doc != nil {
		doc.dirty = err != nil || !bytes.Equal(onDisk, doc.text)
	}
	dir := dirOf(path)
	if res := s.cache[dir]; res != nil {
		res.stale = true
	}
	s.schedule(dir, true)
	return nil
}

func (s *Server) didClose(p didCloseParams) error {
	path := goFile(p.TextDocument.URI)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs[path] == nil {
		return nil
	}
	dirty := s.docs[path].dirty
	delete(s.docs, path)
	// The findings stay cached for the next open; the editor's are cleared,
	// under the URI the client used.
	s.closedURI[path] = p.TextDocument.URI
	s.markForPublishing(path)
	open := false
	for other := range s.docs {
		open = open || dirOf(other) == dirOf(path)
	}
	if !open {
		s.dropSession(dirOf(path)) // its memory, until the directory is opened again
	}
	if dirty {
		// The analyses used the buffer in place of the file; the file on
		// disk is what the package is again, for it and its dependents.
		dir := dirOf(path)
		if res := s.cache[dir]; res != nil {
			res.stale = true
		}
		s.schedule(dir, true)
	}
	return nil
}

// markForPublishing asks the publishing loop to send path's diagnostics.
// s.mu is held.
func (s *Server) markForPublishing(path string) {
	s.toPublish[path] = true
	select {
	case s.publishKick <- struct{}{}:
	default:
	}
}

// schedule asks for dir to be analyzed once no open or save has come for it
// for the debounce period. s.mu is held.
func (s *Server) schedule(dir string, saved bool) {
	debounce := s.opts.Debounce
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	s.scheduleAfter(dir, saved, debounce)
}

// scheduleAfter asks for dir to be analyzed once it has been quiet for
// debounce. s.mu is held.
func (s *Server) scheduleAfter(dir string, saved bool, debounce time.Duration) {
	due := s.pending[dir]
	if due == nil {
		due = &analysisDue{}
		s.pending[dir] = due
	}
	due.at = time.Now().Add(debounce)
	due.saved = due.saved || saved
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// analysisLoop analyzes the scheduled directories one at a time, each when
// it is due.
func (s *Server) analysisLoop(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		dir, due, wait := s.next()
		if dir != "" {
			s.analyze(ctx, dir, due)
			continue
		}
		var timeout <-chan time.Time
		if wait > 0 {
			timer.Reset(wait)
			timeout = timer.C
		}
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-s.kick:
		case <-timeout:
		}
		timer.Stop()
	}
}

// next returns the directory whose analysis is due soonest if it is due
// now, otherwise how long until it is (0: nothing is scheduled).
func (s *Server) next() (dir string, due *analysisDue, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var first string
	for d, a := range s.pending {
		if first == "" || a.at.Before(s.pending[first].at) || a.at.Equal(s.pending[first].at) && d < first {
			first = d
		}
	}
	if first == "" {
		return "", nil, 0
	}
	if wait := time.Until(s.pending[first].at); wait > 0 {
		return "", nil, wait
	}
	due = s.pending[first]
	delete(s.pending, first)
	s.running = first
	return first, due, 0
}

// analyze analyzes dir, with the open buffers as they are, caches the
// result and publishes the findings of its open files.
func (s *Server) analyze(ctx context.Context, dir string, due *analysisDue) {
	s.mu.Lock()
	open := map[string]bool{}      // the directory's open documents
	versions := map[string]int32{} // their versions, which the analysis sees
	buffers := map[string][]byte{} // the edited buffers, of every directory: a dependency's count too
	for path, doc := range s.docs {
		if dirOf(path) == dir {
			open[path] = true
			versions[path] = doc.version
		}
		if doc.dirty {
			buffers[path] = doc.text
		}
	}
	s.mu.Unlock()

	start := time.Now()
	overlay := overlayOf(buffers)
	res := s.rerun(ctx, dir, overlay)
	if res == nil {
		res = s.analyzeDirCached(ctx, dir, overlay, !due.load)
	}
	if ctx.Err() != nil {
		return
	}
	elapsed := time.Since(start)

	s.mu.Lock()
	s.running = ""
	s.keepSession(dir, res, open)
	if res.fromCache && len(open) > 0 && s.sessions[dir] == nil && s.pending[dir] == nil {
		// Published without loading: the graph that the edits of its
		// open files are analyzed from is loaded now, before they come.
		s.pending[dir] = &analysisDue{at: time.Now(), load: true}
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
	if s.analyzed != nil {
		s.analyzed(dir)
	}
	savedMeanwhile := s.pending[dir] != nil && s.pending[dir].saved
	for path, doc := range s.docs {
		if dirOf(path) != dir {
			continue
		}
		if v, ok := versions[path]; ok {
			res.versions[path] = v
		} else if !open[path] && !doc.dirty && !savedMeanwhile {
			res.versions[path] = doc.version // opened while the analysis ran, as it is on disk
		}
		s.markForPublishing(path)
	}
	res.stale = savedMeanwhile
	s.cache[dir] = res
	if due.saved {
		s.invalidateDependents(res)
	}
	findings := 0
	for _, list := range res.findings {
		findings += len(list)
	}
	var headers []string // missing headers the analyzed code includes, not mentioned yet
	for _, h := range res.headersUsed {
		if !s.noted[h] {
			s.noted[h] = true
			headers = append(headers, h)
		}
	}
	s.mu.Unlock()

	if len(headers) > 0 {
		s.logf(ctx, messageInfo, "the C compiler finds no <%s>; cgo uses hiplint's declarations of the runtime API instead (-headers=system turns this off)",
			strings.Join(headers, ">, <"))
	}
	for _, p := range res.problems {
		s.logf(ctx, messageWarning, "%s", p)
	}
	if due.load {
		s.logger.Printf("loaded %s for its edits in %v: %d findings", dir, elapsed.Round(time.Millisecond), findings)
		return
	}
	s.logger.Printf("analyzed %s in %v: %d findings", dir, elapsed.Round(time.Millisecond), findings)
}

// keepSession keeps res's loaded graph for the edits of dir while dir has
// open files, and at most MaxSessions graphs, dropping the least recently
// analyzed. s.mu is held.
func (s *Server) keepSession(dir string, res *pkgResult, open map[string]bool) {
	if res.session != nil {
		if len(open) > 0 {
			s.sessions[dir] = res.session
		}
		res.session = nil
	}
	if s.sessions[dir] != nil {
		s.sessionUse[dir] = time.Now()
	}
	limit := s.opts.MaxSessions
	if limit <= 0 {
		limit = DefaultMaxSessions
	}
	for len(s.sessions) > limit {
		oldest := ""
		for d := range s.sessions {
			if oldest == "" || s.sessionUse[d].Before(s.sessionUse[oldest]) {
				oldest = d
			}
		}
		s.dropSession(oldest)
	}
}

// dropSession forgets dir's loaded graph. s.mu is held.
func (s *Server) dropSession(dir string) {
	delete(s.sessions, dir)
	delete(s.sessionUse, dir)
}

// invalidateDependents marks stale the cached directories whose packages
// import one of res's, and schedules those with open files: their findings
// can change through facts. s.mu is held.
func (s *Server) invalidateDependents(res *pkgResult) {
	for dir, other := range s.cache {
		if dir == res.dir || !dependsOn(other, res) {
			continue
		}
		open := false
		for path := range s.docs {
			open = open || dirOf(path) == dir
		}
		if !open {
			delete(s.cache, dir) // analyzed afresh when next opened
			continue
		}
		other.stale = true
		s.schedule(dir, false)
	}
}

func dependsOn(r, on *pkgResult) bool {
	for path := range on.pkgPaths {
		if r.deps[path] {
			return true
		}
	}
	return false
}

// publishLoop sends the diagnostics of the files marked for publishing,
// one file's latest state at a time, so that an older analysis never
// overwrites a newer one in the editor.
func (s *Server) publishLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.publishKick:
		}
		s.mu.Lock()
		var msgs []publishDiagnosticsParams
		var notes []string
		for path := range s.toPublish {
			if m, ok := s.diagnosticsOf(path); ok {
				msgs = append(msgs, m)
				if note := s.noFixesNote(path); note != "" {
					notes = append(notes, note)
				}
			}
		}
		clear(s.toPublish)
		s.mu.Unlock()
		// Why a file's fixes are missing goes first: a client that has
		// the diagnostics has been told.
		sort.Strings(notes)
		for _, note := range notes {
			s.showf(ctx, messageInfo, "%s", note)
		}
		sort.Slice(msgs, func(i, j int) bool { return msgs[i].URI < msgs[j].URI })
		for _, m := range msgs {
			if err := s.conn.Notify(ctx, methodPublishDiagnostics, m); errors.Is(err, jsonrpc2.ErrClosed) {
				return
			} else if err != nil {
				s.logger.Printf("publishing diagnostics for %s: %v", m.URI, err)
			}
		}
	}
}

// diagnosticsOf returns what the editor should show for path now: the
// cached findings of an open file, with the version of the buffer they
// were computed for, or nothing for a closed one. It reports false when
// there is nothing to publish: the findings are of an older version of
// the buffer than the editor's (edited since the analysis began), and the
// analysis of the newer one, scheduled already, publishes. s.mu is held.
func (s *Server) diagnosticsOf(path string) (publishDiagnosticsParams, bool) {
	out := publishDiagnosticsParams{URI: pathToURI(path), Diagnostics: []diagnostic{}}
	doc := s.docs[path]
	if doc == nil {
		if uri, ok := s.closedURI[path]; ok {
			out.URI = uri
			delete(s.closedURI, path)
		}
		return out, true
	}
	out.URI = doc.uri
	res := s.cache[dirOf(path)]
	if res == nil {
		return out, false
	}
	v, ok := res.versions[path]
	if !ok || v != doc.version {
		return out, false
	}
	out.Version = &v
	for _, f := range res.findings[path] {
		out.Diagnostics = append(out.Diagnostics, f.diag)
	}
	return out, true
}

// noFixesNote returns, the first time path's findings are published while
// it is open, why some of them come without their quick fixes (the file
// is too large), or "". s.mu is held.
func (s *Server) noFixesNote(path string) string {
	doc, res := s.docs[path], s.cache[dirOf(path)]
	if doc == nil || res == nil || doc.toldNoFixes || res.withheld[path] == 0 {
		return ""
	}
	doc.toldNoFixes = true
	n := res.withheld[path]
	findings := "finding comes"
	if n > 1 {
		findings = "findings come"
	}
	return fmt.Sprintf("%s: %d %s without quick fixes: the file is larger than %s, the largest for which hiplint offers fixes (docs/editors.md, \"Limits\")",
		path, n, findings, sizeString(s.maxFixFileSize()))
}

// sizeString says n bytes in MiB when it is a whole number of them.
func sizeString(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// maxFixFileSize is the largest file whose findings get quick fixes.
func (s *Server) maxFixFileSize() int64 {
	if n := s.opts.MaxFixFileSize; n > 0 && n < DefaultMaxFixFileSize {
		return n
	}
	return DefaultMaxFixFileSize
}

// codeActions returns the quick fixes of the findings in the requested
// range, for a buffer that still matches what was analyzed.
func (s *Server) codeActions(p codeActionParams) []codeAction {
	out := []codeAction{}
	if !wantsQuickFix(p.Context.Only) {
		return out
	}
	path := goFile(p.TextDocument.URI)
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, res := s.docs[path], s.cache[dirOf(path)]
	if doc == nil || res == nil || !s.current(res, path) {
		return out
	}
	for _, f := range res.findings[path] {
		if !f.diag.Range.intersects(p.Range) && !mentions(p.Context.Diagnostics, f.diag) {
			continue
		}
		for i, fix := range f.fixes {
			edit := &workspaceEdit{Changes: map[string][]textEdit{}}
			current := true
			for file, edits := range fix.edits {
				current = current && s.current(res, file)
				uri := pathToURI(file)
				if d := s.docs[file]; d != nil {
					uri = d.uri
				}
				edit.Changes[uri] = edits
			}
			if !current {
				continue
			}
			out = append(out, codeAction{
				Title:       fix.title,
				Kind:        codeActionQuickFix,
				Diagnostics: []diagnostic{f.diag},
				IsPreferred: i == 0,
				Edit:        edit,
			})
		}
	}
	return out
}

// current reports whether the editor's view of file matches what res
// analyzed: a closed file is read from disk, which res saw unless it was
// saved since; an open one must be the version res analyzed, saved or not.
// s.mu is held.
func (s *Server) current(res *pkgResult, file string) bool {
	doc := s.docs[file]
	if doc == nil {
		return !res.stale
	}
	v, ok := res.versions[file]
	return ok && v == doc.version
}

// overlayOf returns the buffers that differ from their files on disk: what
// go/packages must read in place of the files.
func overlayOf(buffers map[string][]byte) map[string][]byte {
	overlay := map[string][]byte{}
	for path, text := range buffers {
		if onDisk, err := fixes.ReadBounded(path, fixes.MaxFileSize); err != nil || !bytes.Equal(onDisk, text) {
			overlay[path] = text
		}
	}
	return overlay
}

// wantsQuickFix reports whether a code action request limited to the kinds
// only (none: any kind) takes quick fixes.
func wantsQuickFix(only []string) bool {
	if len(only) == 0 {
		return true
	}
	for _, kind := range only {
		if kind == "" || kind == codeActionQuickFix {
			return true
		}
	}
	return false
}

// mentions reports whether the client's diagnostics include d.
func mentions(list []diagnostic, d diagnostic) bool {
	for _, c := range list {
		if c.Code == d.Code && c.Message == d.Message && c.Range == d.Range {
			return true
		}
	}
	return false
}

// showf sends a window/showMessage to the client, and a copy to the log.
func (s *Server) showf(ctx context.Context, typ messageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logger.Print(msg)
	if err := s.conn.Notify(ctx, methodShowMessage, logMessageParams{Type: typ, Message: "hiplint: " + msg}); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.logger.Printf("showing a message to the client: %v", err)
	}
}

// logf sends a window/logMessage to the client, and a copy to the log.
func (s *Server) logf(ctx context.Context, typ messageType, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.logger.Print(msg)
	if err := s.conn.Notify(ctx, methodLogMessage, logMessageParams{Type: typ, Message: "hiplint: " + msg}); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.logger.Printf("logging to the client: %v", err)
	}
}
