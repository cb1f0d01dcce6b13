package lsp

// The subset of the Language Server Protocol 3.17 that the server speaks,
// as the specification names it
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/).
// JSON-RPC is github.com/sourcegraph/jsonrpc2's and the framing
// transport.go's; these are only the message shapes, and only the fields
// the server reads or writes.

import "encoding/json"

// Methods.
const (
	methodInitialize             = "initialize"
	methodInitialized            = "initialized"
	methodShutdown               = "shutdown"
	methodExit                   = "exit"
	methodDidOpen                = "textDocument/didOpen"
	methodDidChange              = "textDocument/didChange"
	methodDidSave                = "textDocument/didSave"
	methodDidClose               = "textDocument/didClose"
	methodCodeAction             = "textDocument/codeAction"
	methodPublishDiagnostics     = "textDocument/publishDiagnostics"
	methodLogMessage             = "window/logMessage"
	methodShowMessage            = "window/showMessage"
	methodDidChangeConfiguration = "workspace/didChangeConfiguration"
)

// Error codes.
const (
	codeServerNotInitialized = -32002
	codeInvalidRequest       = -32600 // also for a message that is no JSON-RPC message (transport.go)
	codeParseError           = -32700 // a message body that is not JSON (transport.go)
)

type initializeParams struct {
	ProcessID    *int            `json:"processId"`
	RootURI      string          `json:"rootUri,omitempty"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	// InitializationOptions: {"checks": [...]} (config.go).
	InitializationOptions json.RawMessage `json:"initializationOptions,omitempty"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type serverCapabilities struct {
	PositionEncoding   string                  `json:"positionEncoding"`
	TextDocumentSync   textDocumentSyncOptions `json:"textDocumentSync"`
	CodeActionProvider codeActionOptions       `json:"codeActionProvider"`
}

// textDocumentSyncKind: the server keeps each open buffer's text, to lint
// it unsaved, and asks for incremental changes, the smallest messages.
const textDocumentSyncIncremental = 2

type textDocumentSyncOptions struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"`
	Save      saveOptions `json:"save"`
}

type saveOptions struct {
	IncludeText bool `json:"includeText"`
}

type codeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

const codeActionQuickFix = "quickfix"

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int32  `json:"version"`
	Text       string `json:"text"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type didChangeParams struct {
	TextDocument   versionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []textDocumentContentChangeEvent `json:"contentChanges"`
}

// A textDocumentContentChangeEvent replaces Range of the buffer with Text,
// or the whole buffer when Range is absent.
type textDocumentContentChangeEvent struct {
	Range *lspRange `json:"range,omitempty"`
	Text  string    `json:"text"`
}

type didSaveParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

// A position is zero-based; character counts UTF-16 code units, the
// protocol's default and the only encoding every client supports.
type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

type diagnosticSeverity int

const (
	severityError   diagnosticSeverity = 1
	severityWarning diagnosticSeverity = 2
)

type diagnostic struct {
	Range              lspRange                       `json:"range"`
	Severity           diagnosticSeverity             `json:"severity,omitempty"`
	Code               string                         `json:"code,omitempty"`
	CodeDescription    *codeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	RelatedInformation []diagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

type codeDescription struct {
	Href string `json:"href"`
}

type diagnosticRelatedInformation struct {
	Location location `json:"location"`
	Message  string   `json:"message"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        lspRange               `json:"range"`
	Context      codeActionContext      `json:"context"`
}

type codeActionContext struct {
	Diagnostics []diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
}

type codeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit `json:"edit,omitempty"`
}

type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type messageType int

const (
	messageError   messageType = 1
	messageWarning messageType = 2
	messageInfo    messageType = 3
)

// logMessageParams are the params of window/logMessage and of
// window/showMessage alike.
type logMessageParams struct {
	Type    messageType `json:"type"`
	Message string      `json:"message"`
}
