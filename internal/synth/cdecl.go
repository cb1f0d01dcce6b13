package synth

import (
	"strings"
)

// The C code of a package's own preambles, read roughly: which names the
// preambles declare themselves (a helper function such as unixpickle/cuda's
// go_cublas_err, a typedef, a variable, a struct tag, an enum constant, a
// macro), which must never be synthesized (a made-up declaration clashes
// with theirs), and which names they use without declaring, with the kind
// their use says (a type where a declaration or cast uses it, a constant
// in a case label, comparison or initializer, a function where called).

// cKeywords are C's reserved words, and the qualifiers and storage
// classes that may start a declaration.
var cKeywords = map[string]bool{
	"auto": true, "break": true, "case": true, "char": true, "const": true, "continue": true,
	"default": true, "do": true, "double": true, "else": true, "enum": true, "extern": true,
	"float": true, "for": true, "goto": true, "if": true, "inline": true, "int": true, "long": true,
	"register": true, "restrict": true, "return": true, "short": true, "signed": true, "sizeof": true,
	"static": true, "struct": true, "switch": true, "typedef": true, "union": true, "unsigned": true,
	"void": true, "volatile": true, "while": true, "_Bool": true, "bool": true, "__inline__": true,
	"__inline": true, "__restrict": true, "__attribute__": true, "__extension__": true,
}

// declStart are the tokens after which a declaration may start: a type
// name there, followed by '*', is a pointer declaration, not a product.
var declStart = map[string]bool{"": true, ";": true, "{": true, "}": true, "(": true, ",": true,
	"const": true, "static": true, "extern": true, "volatile": true, "inline": true, "register": true}

// cTokens splits C text into identifiers, numbers and punctuation, without
// comments, string and character literals (each kept as one token "\"" or
// "'") and preprocessor lines; it returns the macro names the text
// #defines apart.
func cTokens(text string) (toks []string, macros []string) {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	cont := false
	for _, l := range lines {
		if cont || strings.HasPrefix(strings.TrimSpace(l), "#") {
			if !cont {
				if d, rest := directive(l); d == "define" {
					if n := identRE.FindString(rest); n != "" && strings.HasPrefix(rest, n) {
						macros = append(macros, n)
					}
				}
			}
			cont = strings.HasSuffix(strings.TrimRight(l, " \t"), "\\")
			b.WriteString("\n")
			continue
		}
		b.WriteString(l)
		b.WriteString("\n")
	}
	s := b.String()
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return toks, macros
			}
			i += j + 4
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, string(c))
			i = j + 1
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			j := i
			for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] == '.' || s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			toks = append(toks, "0")
			i = j
		case c == '-' && i+1 < len(s) && s[i+1] == '>':
			toks = append(toks, "->")
			i += 2
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks, macros
}

func isIdent(t string) bool {
	return t != "" && (t[0] == '_' || t[0] >= 'A' && t[0] <= 'Z' || t[0] >= 'a' && t[0] <= 'z') && !cKeywords[t]
}

// typeWord reports whether a token may end a declaration's type: a type
// name or a keyword of one.
func typeWord(t string) bool {
	switch t {
	case "char", "double", "float", "int", "long", "short", "signed", "unsigned", "void", "_Bool", "bool", "const", "volatile":
		return true
	}
	return isIdent(t)
}

// preambleC reads the C code of a preamble: the names it declares at file
// scope (functions, variables, typedefs, struct, union and enum tags as
// cgo names them, "struct_X", enum constants, macros) and the names it
// uses that it does not declare there, each with the kind its use says.
func preambleC(text string) (declared map[string]bool, uses map[string]kind) {
	toks, macros := cTokens(text)
	declared = map[string]bool{}
	uses = map[string]kind{}
	for _, m := range macros {
		declared[m] = true
	}
	at := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i]
	}
	braces, parens := 0, 0
	enumBody := -1 // the brace depth of an enum's body at file scope, -1 outside one
	for i, t := range toks {
		switch t {
		case "{":
			if braces == 0 && (at(i-1) == "enum" || at(i-2) == "enum") {
				enumBody = braces + 1
			}
			braces++
			continue
		case "}":
			if braces > 0 {
				braces--
			}
			if braces < enumBody {
				enumBody = -1
			}
			continue
		case "(":
			parens++
			continue
		case ")":
			if parens > 0 {
				parens--
			}
			continue
		}
		if !isIdent(t) {
			continue
		}
		prev, next := at(i-1), at(i+1)
		switch {
		case prev == "struct" || prev == "union" || prev == "enum":
			if braces == 0 && (next == "{" || next == ";") {
				declared[prev+"_"+t] = true
			}
			continue
		case prev == "." || prev == "->":
			continue // a field
		case enumBody >= 0 && braces == enumBody && (prev == "{" || prev == ","):
			declared[t] = true // an enum constant
			continue
		}
		// A declarator at file scope: after a type (or a pointer to one, a
		// struct body, or the declarator before it), before its parameters,
		// initializer or end.
		if braces == 0 && parens == 0 && (typeWord(prev) || prev == "*" || prev == "}" || prev == ",") &&
			(next == "(" || next == "=" || next == ";" || next == "," || next == "[") {
			declared[t] = true
			continue
		}
		// A local variable, parameter or field: not a use.
		if typeWord(prev) && (next == "=" || next == ";" || next == "," || next == "[" || next == ")") {
			continue
		}
		// A use.
		switch {
		case next == "(":
			if _, ok := uses[t]; !ok {
				uses[t] = kindFunc
			}
		case isIdent(next) || next == "*" && declStart[prev] && (isIdent(at(i+2)) || at(i+2) == ")" || at(i+2) == "*"):
			uses[t] = kindType
		case prev == "(" && next == ")" && (isIdent(at(i+2)) || at(i+2) == "0" || at(i+2) == "(" || at(i+2) == "&" ||
			at(i+2) == "-" || at(i+2) == "~" || at(i+2) == "!" || at(i+2) == "\"") && at(i-2) != "sizeof":
			uses[t] = kindType // a cast
		default:
			if _, ok := uses[t]; !ok {
				uses[t] = kindConst
			}
		}
	}
	for n := range declared {
		delete(uses, n)
	}
	return declared, uses
}

// preambleNames reads the preambles of every Go file of p: the names they
// declare (any file's: cgo's Go names are the package's), with the names
// the package's own headers declare, and, by Go file, the names its
// preambles use without declaring, with their kinds.
func (s *Synth) preambleNames(goFiles []string) (declared map[string]bool, uses map[string]map[string]kind) {
	declared = map[string]bool{}
	uses = map[string]map[string]kind{}
	for _, g := range goFiles {
		src, err := s.read(g)
		if err != nil {
			continue
		}
		d, u := preambleC(strings.Join(Preambles(src), "\n"))
		for n := range d {
			declared[n] = true
		}
		uses[g] = u
	}
	for _, u := range uses {
		for n := range declared {
			delete(u, n)
		}
	}
	return declared, uses
}
