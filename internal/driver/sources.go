package driver

import (
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/token"
	"sync"

	"github.com/hiplint/hiplint/internal/fixes"
	"golang.org/x/tools/go/packages"
)

// A Digest is the SHA-256 of a file's content.
type Digest = [sha256.Size]byte

// sourceHashes records what an analysis read of each file, for -fix, which
// must write a file only while it holds exactly those bytes:
//
//   - every file go/packages parses (the package's own Go files, cgo's
//     output for a file that imports "C", the dependencies' files): the
//     hash of the very bytes parsed;
//   - the Go files of the packages the patterns name, read before loading,
//     that is before cgo reads the files that import "C" and translates
//     them. The analysis sees such a file only through cgo's output, so
//     the bytes read before cgo ran are the ones -fix may edit: a file that
//     changes afterwards (an editor's save, another hiplint -fix) no longer
//     has that hash, whenever the change came. A file changed and changed
//     back while cgo read it is the one case this cannot see.
//
// Where both exist, the parsed bytes win: they are what was analyzed.
type sourceHashes struct {
	mu     sync.Mutex
	listed map[string]Digest
	parsed map[string]Digest
}

// hashListed lists the patterns' packages (their files only: no cgo, no
// type checking) and hashes their Go files. A package or file that cannot
// be listed or read is left out: -fix then refuses to edit it.
func hashListed(cfg *Config, patterns []string) *sourceHashes {
	h := &sourceHashes{listed: make(map[string]Digest), parsed: make(map[string]Digest)}
	pkgs, err := packages.Load(loadConfig(cfg, packages.NeedName|packages.NeedFiles), patterns...)
	if err != nil {
		return h
	}
	for _, p := range pkgs {
		for _, name := range p.GoFiles {
			if _, ok := h.listed[name]; ok {
				continue
			}
			if data, err := fixes.ReadBounded(name, fixes.MaxFileSize); err == nil {
				h.listed[name] = sha256.Sum256(data)
			}
		}
	}
	return h
}

// parseFile is go/packages' own parser (Config.ParseFile), recording the
// hash of src. go/packages calls it from several goroutines.
func (h *sourceHashes) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	sum := sha256.Sum256(src)
	h.mu.Lock()
	h.parsed[filename] = sum
	h.mu.Unlock()
	// The mode go/packages uses when Config.ParseFile is nil.
	return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
}

// result returns the hashes by file name, the parsed ones first.
func (h *sourceHashes) result() map[string]Digest {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]Digest, len(h.listed)+len(h.parsed))
	for name, sum := range h.listed {
		out[name] = sum
	}
	for name, sum := range h.parsed {
		out[name] = sum
	}
	return out
}
