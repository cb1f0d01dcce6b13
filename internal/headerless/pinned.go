package headerless

import (
	"os"
	"path"
	"regexp"
	"strings"
	"sync"
)

// A package that cgo fails on with the machine's real runtime header only
// because that header is older than the API the package uses (HIP 5.2's
// lacks the graph memory nodes of HIP 6) is analyzed with hiplint's
// declarations instead (internal/synth). Its preamble then includes them by
// absolute path: Pinned returns a copy of hiplint's headers whose includes
// of one another are quoted and relative, so that no include inside them
// reaches the machine's headers, whatever the include directories.

// angleInclude matches an angle-bracket #include line, the header's name in
// group 2.
var angleInclude = regexp.MustCompile(`(?m)^([ \t]*#[ \t]*include[ \t]*)<([^>\n]+)>`)

// pinnedFiles returns hiplint's headers with every angle include of one of
// them rewritten to a quoted include relative to the including file.
func pinnedFiles() (map[string][]byte, error) {
	files, err := headerFiles()
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(files))
	for name, data := range files {
		from := path.Dir(toSlash(name))
		out[name] = angleInclude.ReplaceAllFunc(data, func(m []byte) []byte {
			sub := angleInclude.FindSubmatch(m)
			target := path.Clean(string(sub[2]))
			if _, ok := files[fromSlash(target)]; !ok {
				return m // a standard header
			}
			return []byte(string(sub[1]) + `"` + relPath(from, target) + `"`)
		})
	}
	return out, nil
}

// relPath returns target (slash-separated, relative to the include
// directory) as seen from the directory from.
func relPath(from, target string) string {
	if from == "." {
		return target
	}
	up := strings.Repeat("../", strings.Count(from, "/")+1)
	return up + target
}

func toSlash(name string) string   { return strings.ReplaceAll(name, string(os.PathSeparator), "/") }
func fromSlash(name string) string { return strings.ReplaceAll(name, "/", string(os.PathSeparator)) }

// Pinned returns a directory holding hiplint's headers that include one
// another by relative path (<user cache dir>/hiplint/pinned-<hash>,
// content-addressed and checked as Install's), and a function to call when
// it is no longer needed. Where the cache cannot be used, the headers go to
// a new private temporary directory that cleanup removes.
func Pinned() (dir string, cleanup func(), err error) {
	files, err := pinnedFiles()
	if err != nil {
		return "", nil, err
	}
	if dir, err := installCached("pinned", files); err == nil {
		return dir, func() {}, nil
	}
	dir, err = os.MkdirTemp("", "hiplint-pinned-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	if err := writeFiles(dir, files); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

var (
	declaredOnce sync.Once
	declared     map[string]bool
)

// cComment matches C's comments, which Declares skips.
var cComment = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)

// cIdent matches a C identifier.
var cIdent = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// Declares reports whether hiplint's declarations spell the C name outside
// a comment (a function, type, field, enum constant or macro of the
// runtime APIs they declare): where the machine's header lacks a name that
// this says hiplint's has, serving hiplint's is worth a try. A name it
// spells but does not declare (a parameter's name) costs only that try.
func Declares(name string) bool {
	declaredOnce.Do(func() {
		declared = map[string]bool{}
		files, err := headerFiles()
		if err != nil {
			return
		}
		for _, data := range files {
			for _, id := range cIdent.FindAll(cComment.ReplaceAll(data, nil), -1) {
				declared[string(id)] = true
			}
		}
	})
	return declared[name]
}
