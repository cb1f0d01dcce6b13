package config

import (
	"fmt"
	"strconv"
	"strings"
)

// A value in a configuration file: a string, a bool, an integer or a list
// of strings, with the line it was written on.
type value struct {
	line int
	str  string   // string, or the text of a bool or an integer
	list []string // list of strings
	kind valueKind
}

type valueKind int

const (
	kindString valueKind = iota
	kindBool
	kindInt
	kindList
)

func (k valueKind) String() string {
	return [...]string{"a string", "a boolean", "an integer", "a list"}[k]
}

// document is a parsed file: the keys before the first table under "",
// every table's keys under its name.
type document map[string]map[string]value

// parseTOML parses the subset of TOML that docs/config.md documents:
//
//	# comment
//	key = "string" | 'literal' | true | false | 123 | ["list", "of", "strings"]
//	[table]
//
// Keys are bare (letters, digits, '_' and '-'); a list may span lines and
// end in a comma. Anything else is an error naming the line.
func parseTOML(name string, data []byte) (document, error) {
	p := &tomlParser{name: name, src: string(data), line: 1}
	doc := document{"": {}}
	table := ""
	for {
		p.skipBlank()
		if p.eof() {
			return doc, nil
		}
		if p.peek() == '[' {
			p.pos++
			p.skipSpace()
			key, err := p.key()
			if err != nil {
				return nil, err
			}
			p.skipSpace()
			if p.eof() || p.peek() != ']' {
				return nil, p.errorf("want ] after the table name %s", key)
			}
			p.pos++
			if _, dup := doc[key]; dup {
				return nil, p.errorf("table [%s] is defined twice", key)
			}
			table = key
			doc[table] = map[string]value{}
			if err := p.endLine(); err != nil {
				return nil, err
			}
			continue
		}
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.eof() || p.peek() != '=' {
			return nil, p.errorf("want = after the key %s", key)
		}
		p.pos++
		p.skipSpace()
		line := p.line
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		v.line = line
		if _, dup := doc[table][key]; dup {
			return nil, p.errorf("key %s is set twice", key)
		}
		doc[table][key] = v
		if err := p.endLine(); err != nil {
			return nil, err
		}
	}
}

type tomlParser struct {
	name string
	src  string
	pos  int
	line int
}

func (p *tomlParser) errorf(format string, args ...any) error {
	return &Error{File: p.name, Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

func (p *tomlParser) eof() bool  { return p.pos >= len(p.src) }
func (p *tomlParser) peek() byte { return p.src[p.pos] }

// skipSpace skips spaces and tabs.
func (p *tomlParser) skipSpace() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.pos++
	}
}

// skipComment skips a comment up to the end of its line.
func (p *tomlParser) skipComment() {
	if !p.eof() && p.peek() == '#' {
		for !p.eof() && p.peek() != '\n' {
			p.pos++
		}
	}
}

// skipBlank skips spaces, comments and line ends.
func (p *tomlParser) skipBlank() {
	for {
		p.skipSpace()
		p.skipComment()
		if p.eof() {
			return
		}
		switch p.peek() {
		case '\n':
			p.line++
			p.pos++
		case '\r':
			p.pos++
		default:
			return
		}
	}
}

// endLine accepts only spaces and a comment up to the end of the line.
func (p *tomlParser) endLine() error {
	p.skipSpace()
	p.skipComment()
	if p.eof() {
		return nil
	}
	if p.peek() == '\r' {
		p.pos++
	}
	if p.eof() || p.peek() == '\n' {
		return nil
	}
	return p.errorf("unexpected %q after the value; one key = value per line", p.rest())
}

// rest is the rest of the line, shortened, for messages.
func (p *tomlParser) rest() string {
	s := p.src[p.pos:]
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 30 {
		s = s[:30] + "..."
	}
	return s
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func (p *tomlParser) key() (string, error) {
	start := p.pos
	for !p.eof() && isKeyByte(p.peek()) {
		p.pos++
	}
	if p.pos == start {
		if !p.eof() && (p.peek() == '"' || p.peek() == '\'') {
			return "", p.errorf("quoted keys are not supported; write the key bare")
		}
		return "", p.errorf("want a key (letters, digits, _ and -), found %q", p.rest())
	}
	if !p.eof() && p.peek() == '.' {
		return "", p.errorf("dotted keys are not supported; use a [table]")
	}
	return p.src[start:p.pos], nil
}

func (p *tomlParser) value() (value, error) {
	if p.eof() || p.peek() == '\n' || p.peek() == '\r' || p.peek() == '#' {
		return value{}, p.errorf("want a value after =")
	}
	switch c := p.peek(); {
	case c == '"' || c == '\'':
		s, err := p.str()
		return value{str: s, kind: kindString}, err
	case c == '[':
		p.pos++
		var list []string
		for {
			p.skipBlank()
			if p.eof() {
				return value{}, p.errorf("the list is not closed with ]")
			}
			if p.peek() == ']' {
				p.pos++
				return value{list: list, kind: kindList}, nil
			}
			if c := p.peek(); c != '"' && c != '\'' {
				return value{}, p.errorf("a list holds only quoted strings, found %q", p.rest())
			}
			s, err := p.str()
			if err != nil {
				return value{}, err
			}
			list = append(list, s)
			p.skipBlank()
			if !p.eof() && p.peek() == ',' {
				p.pos++
				continue
			}
			if p.eof() || p.peek() != ']' {
				return value{}, p.errorf("want , or ] in the list, found %q", p.rest())
			}
		}
	default:
		start := p.pos
		for !p.eof() && (isKeyByte(p.peek()) || p.peek() == '+') {
			p.pos++
		}
		word := p.src[start:p.pos]
		switch {
		case word == "true" || word == "false":
			return value{str: word, kind: kindBool}, nil
		case word != "":
			if _, err := strconv.ParseInt(strings.ReplaceAll(word, "_", ""), 10, 64); err == nil {
				return value{str: strings.ReplaceAll(word, "_", ""), kind: kindInt}, nil
			}
		}
		p.pos = start
		return value{}, p.errorf("want a quoted string, true, false, an integer or a [list], found %q", p.rest())
	}
}

// str parses a basic ("...", with escapes) or a literal ('...') string on
// one line.
func (p *tomlParser) str() (string, error) {
	quote := p.peek()
	p.pos++
	var b strings.Builder
	for {
		if p.eof() || p.peek() == '\n' {
			return "", p.errorf("the string is not closed with %c on its line", quote)
		}
		c := p.peek()
		p.pos++
		switch {
		case c == quote:
			return b.String(), nil
		case c == '\\' && quote == '"':
			if p.eof() {
				return "", p.errorf("the string is not closed")
			}
			e := p.peek()
			p.pos++
			switch e {
			case '"', '\\':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return "", p.errorf("unsupported escape \\%c in a string", e)
			}
		default:
			b.WriteByte(c)
		}
	}
}
