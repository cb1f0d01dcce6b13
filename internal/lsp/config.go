package lsp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hiplint/hiplint/internal/config"
)

// The editor's hiplint settings: initializationOptions, or the settings of
// workspace/didChangeConfiguration, either {"checks": ...} or
// {"hiplint": {"checks": ...}}. checks is staticcheck's syntax, as a list
// or a comma-separated string, applied after each package's hiplint.toml
// (internal/config; "inherit" stands for its selection) and after the
// command line's -checks.
type editorSettings struct {
	Checks  json.RawMessage `json:"checks"`
	Hiplint *editorSettings `json:"hiplint"`
}

// parseEditorSettings returns the checks of raw: nil when it sets none.
func parseEditorSettings(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s editorSettings
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("settings: %v", err)
	}
	if s.Hiplint != nil {
		s = *s.Hiplint
	}
	if len(s.Checks) == 0 || string(s.Checks) == "null" {
		return nil, nil
	}
	var list []string
	var str string
	switch {
	case json.Unmarshal(s.Checks, &list) == nil:
		for i := range list {
			list[i] = strings.TrimSpace(list[i])
		}
	case json.Unmarshal(s.Checks, &str) == nil:
		list = config.SplitChecks(str)
	default:
		return nil, fmt.Errorf("settings: checks must be a list of strings or a comma-separated string, not %s", s.Checks)
	}
	if list == nil {
		list = []string{}
	}
	if err := config.ValidateChecks(list, true); err != nil {
		return nil, fmt.Errorf("settings: %v", err)
	}
	return list, nil
}

// setEditorChecks applies the editor's checks on top of the command line's
// override. s.mu is held.
func (s *Server) setEditorChecks(checks []string) {
	base := s.opts.Override
	if base == nil {
		base = &config.Override{}
	}
	if checks == nil {
		s.override = base
		return
	}
	o := &config.Override{Flags: base.Flags}
	if base.Checks != nil {
		o.Checks = expandInherit(checks, base.Checks)
	} else {
		o.Checks = checks
	}
	s.override = o
}

// expandInherit returns list with "inherit" replaced by parent, which may
// itself hold "inherit" (the hiplint.toml's selection).
func expandInherit(list, parent []string) []string {
	var out []string
	for _, p := range list {
		if p == "inherit" {
			out = append(out, parent...)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// reconfigure applies new editor settings and analyzes the open documents
// again. s.mu is held.
func (s *Server) reconfigure(checks []string) {
	s.setEditorChecks(checks)
	dirs := map[string]bool{}
	for path := range s.docs {
		dirs[dirOf(path)] = true
	}
	for dir := range dirs {
		if res := s.cache[dir]; res != nil {
			res.stale = true
		}
		s.schedule(dir, true)
	}
}

// currentOverride returns the configuration override for the next analysis.
func (s *Server) currentOverride() *config.Override {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.override == nil {
		return s.opts.Override
	}
	return s.override
}
