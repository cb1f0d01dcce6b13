package plugins

import (
	"os"
	"path/filepath"
	"strings"
)

// LoadDir opens every plugin of dir. Hazard: a plugin that fails to open
// returns the error and drops the plugins opened before it.
func LoadDir(dir string) ([]*Plugin, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ps []*Plugin
	for _, de := range entries {
		if !strings.HasSuffix(de.Name(), ".hsaco") {
			continue
		}
		p, err := Open(filepath.Join(dir, de.Name())) // want `modules kept in ps \(loaded by Open\) are not unloaded on this return`
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// LoadDirClean is its twin: the failure closes what was opened.
func LoadDirClean(dir string) ([]*Plugin, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ps []*Plugin
	for _, de := range entries {
		if !strings.HasSuffix(de.Name(), ".hsaco") {
			continue
		}
		p, err := Open(filepath.Join(dir, de.Name()))
		if err != nil {
			for _, q := range ps {
				q.Close()
			}
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// LoadPaths is a twin in the deferred style: a deferred closure over the
// named results closes everything when an error is returned.
func LoadPaths(paths []string) (ps []*Plugin, err error) {
	defer func() {
		if err != nil {
			for i := range ps {
				ps[i].Close()
			}
			ps = nil
		}
	}()
	for _, path := range paths {
		p, err := Open(path)
		if err != nil {
			return ps, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// CloseAll closes a set of plugins.
func CloseAll(ps []*Plugin) { // want CloseAll:"unloads\\[0\\]"
	for _, p := range ps {
		p.Close()
	}
}
