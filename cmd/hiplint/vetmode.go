package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hiplint/hiplint/analyzers"
	"github.com/hiplint/hiplint/internal/config"
)

// vetConfig prepares go vet mode's configuration (internal/config): the
// analyzer flags on the command line (-memcpysync.strict) win over the
// package's hiplint.toml, and a hiplint.toml that does not parse is one
// error line and exit status 2 before any analysis. It returns false with
// the exit status when the process must stop.
func vetConfig(args []string, stdout, stderr io.Writer) (int, bool) {
	for _, arg := range args {
		if arg == "-V=full" || arg == "--V=full" {
			if err := vetVersion(stdout); err != nil {
				fmt.Fprintf(stderr, "hiplint: %v\n", err)
				return exitError, false
			}
			return exitClean, false
		}
	}
	for _, arg := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if an, fl, ok := strings.Cut(name, "."); ok && strings.HasPrefix(arg, "-") {
			for _, a := range analyzers.Suite() {
				if a.Name == an && a.Flags.Lookup(fl) != nil {
					config.SetExplicit(name)
				}
			}
		}
	}
	last := args[len(args)-1]
	if !strings.HasSuffix(last, ".cfg") {
		return 0, true
	}
	data, err := os.ReadFile(last)
	if err != nil {
		return 0, true // unitchecker reports it
	}
	var cfg struct {
		Dir      string
		VetxOnly bool
	}
	if json.Unmarshal(data, &cfg) != nil || cfg.VetxOnly || cfg.Dir == "" {
		return 0, true
	}
	if _, err := config.Load(cfg.Dir); err != nil {
		fmt.Fprintf(stderr, "hiplint: %v\n", err)
		return exitUsage, false
	}
	return 0, true
}

// isVetInvocation reports whether go vet (or another build system speaking
// the unitchecker protocol) started us: it first asks for the tool's version
// (-V=full) and flags (-flags), then runs it once per package with the
// package's description in a JSON file whose name ends in .cfg, always the
// last argument. multichecker tells the modes apart the same way, only after
// parsing flags; we decide before, because unitchecker.Main parses the
// command line itself with the global flag set.
func isVetInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, arg := range args {
		switch arg {
		case "-V=full", "--V=full", "-flags", "--flags":
			return true
		}
	}
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}

// vetVersion answers go vet's -V=full as unitchecker does (the executable's
// hash as its buildID), with the hiplint.toml files that can apply to the
// packages under the working directory hashed in: go vet caches each
// package's result under the tool's ID and the package's inputs, and a
// hiplint.toml is none of those, so without this an edited configuration
// would not be seen until the build cache is cleaned. The files are those
// of the working directory and the directories above it, and of every
// directory below it that go's patterns can match (not testdata, vendor,
// or names starting with . or _).
func vetVersion(stdout io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	h := sha256.New()
	f, err := os.Open(exe)
	if err != nil {
		return err
	}
	_, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return err
	}
	if wd, err := os.Getwd(); err == nil {
		hashFile := func(name string) {
			if data, err := os.ReadFile(name); err == nil {
				fmt.Fprintf(h, "\x00%s\x00%d\x00", name, len(data))
				h.Write(data)
			}
		}
		for d := filepath.Dir(wd); ; d = filepath.Dir(d) {
			hashFile(filepath.Join(d, config.FileName))
			if filepath.Dir(d) == d {
				break
			}
		}
		filepath.WalkDir(wd, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				name := d.Name()
				if path != wd && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Name() == config.FileName {
				hashFile(path)
			}
			return nil
		})
	}
	_, err = fmt.Fprintf(stdout, "%s version devel comments-go-here buildID=%02x\n", exe, string(h.Sum(nil)))
	return err
}
