package assert

import (
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// maxShort bounds a value printed in a failure message; what is longer is
// cut, with the count of what was left out.
const maxShort = 4000

// report is a failure's text: where (when a test helper that is not marked
// as one sits between the test and the assertion), what failed, and the
// caller's message.
func report(failure string, msgAndArgs []any) string {
	var b strings.Builder
	if trace := callers(); len(trace) > 1 {
		labeled(&b, "Error Trace", strings.Join(trace, "\n"))
	}
	labeled(&b, "Error", failure)
	if msg := message(msgAndArgs); msg != "" {
		labeled(&b, "Messages", msg)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// labeled writes "label: text" with text's further lines aligned under
// its first.
func labeled(b *strings.Builder, label, text string) {
	const width = len("Error Trace: ")
	fmt.Fprintf(b, "%-*s", width, label+":")
	pad := strings.Repeat(" ", width)
	for i, line := range strings.Split(text, "\n") {
		if i > 0 && line != "" {
			b.WriteString(pad)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
}

// message is the caller's optional message: a format and its arguments,
// or one value.
func message(msgAndArgs []any) string {
	switch {
	case len(msgAndArgs) == 0:
		return ""
	case len(msgAndArgs) == 1:
		if s, ok := msgAndArgs[0].(string); ok {
			return s
		}
		return fmt.Sprintf("%+v", msgAndArgs[0])
	}
	if format, ok := msgAndArgs[0].(string); ok {
		return fmt.Sprintf(format, msgAndArgs[1:]...)
	}
	return fmt.Sprint(msgAndArgs...)
}

// callers lists the frames between the test function and the assertion,
// outside this package, package require and the runtime.
func callers() []string {
	pcs := make([]uintptr, 50)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []string
	for {
		f, more := frames.Next()
		fn := f.Function
		switch {
		case strings.HasPrefix(fn, "testing."), strings.HasPrefix(fn, "runtime."):
		case strings.Contains(fn, "/internal/testenv/assert."), strings.Contains(fn, "/internal/testenv/require."):
		default:
			out = append(out, fmt.Sprintf("%s:%d", shortPath(f.File), f.Line))
		}
		if !more || fn == "testing.tRunner" {
			return out
		}
	}
}

// shortPath keeps a file's directory and name.
func shortPath(file string) string {
	if i := strings.LastIndexByte(file, '/'); i > 0 {
		if j := strings.LastIndexByte(file[:i], '/'); j >= 0 {
			return file[j+1:]
		}
	}
	return file
}

// short is v as Go syntax (%#v), cut to maxShort.
func short(v any) string {
	return cut(fmt.Sprintf("%#v", v))
}

func cut(s string) string {
	if len(s) <= maxShort {
		return s
	}
	return fmt.Sprintf("%s... (%d more bytes)", s[:maxShort], len(s)-maxShort)
}

// typed is short(v), with v's type in front where the other value's type
// differs, so that 1 and int64(1) read as different.
func typed(v any, other any) string {
	if reflect.TypeOf(v) != reflect.TypeOf(other) && v != nil {
		s := short(v)
		if t := fmt.Sprintf("%T", v); !strings.HasPrefix(s, t) {
			return fmt.Sprintf("%s(%s)", t, s)
		}
		return s
	}
	return short(v)
}

// unequal shows two unequal values, and where they are long, their
// difference line by line.
func unequal(expected, actual any) string {
	text := fmt.Sprintf("expected: %s\nactual  : %s", typed(expected, actual), typed(actual, expected))
	if reflect.TypeOf(expected) != reflect.TypeOf(actual) || expected == nil {
		return text
	}
	var e, a []string
	switch reflect.ValueOf(expected).Kind() {
	case reflect.String:
		es, as := reflect.ValueOf(expected).String(), reflect.ValueOf(actual).String()
		if !strings.Contains(es, "\n") && !strings.Contains(as, "\n") {
			return text
		}
		e, a = strings.Split(es, "\n"), strings.Split(as, "\n")
	case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array, reflect.Pointer, reflect.Interface:
		re, ra := render(expected), render(actual)
		if re == "" || ra == "" || (!strings.Contains(re, "\n") && !strings.Contains(ra, "\n")) {
			return text
		}
		e, a = strings.Split(re, "\n"), strings.Split(ra, "\n")
	default:
		return text
	}
	if d := diff(e, a); d != "" {
		text += "\n\nDiff (- expected, + actual):\n" + d
	}
	return text
}

// unequalLines is unequal for two texts (JSON) whose renderings are
// compared line by line.
func unequalLines(expected, actual, renderedE, renderedA string) string {
	text := fmt.Sprintf("expected: %s\nactual  : %s", cut(strconv.Quote(expected)), cut(strconv.Quote(actual)))
	if renderedE == "" || renderedA == "" || (!strings.Contains(renderedE, "\n") && !strings.Contains(renderedA, "\n")) {
		return text
	}
	if d := diff(strings.Split(renderedE, "\n"), strings.Split(renderedA, "\n")); d != "" {
		text += "\n\nDiff (- expected, + actual):\n" + d
	}
	return text
}

// containerMessage says that s does (not) contain element; a text of
// several lines is shown as its lines, not as one quoted line.
func containerMessage(s, element any, verb string) string {
	if str, ok := s.(string); ok && strings.Contains(str, "\n") {
		return fmt.Sprintf("the text below %s %s:\n%s", verb, short(element), block(str))
	}
	return fmt.Sprintf("%s %s %s", short(s), verb, short(element))
}

// quoteBlock is str as Regexp's message shows it: quoted, or as its lines.
func quoteBlock(str any) string {
	s, ok := str.(string)
	if !ok {
		if b, isBytes := str.([]byte); isBytes {
			s = string(b)
		} else {
			s = fmt.Sprint(str)
		}
	}
	if strings.Contains(s, "\n") {
		return "the text\n" + block(s) + "\n"
	}
	return cut(strconv.Quote(s))
}

// block is a text's lines, indented and bounded.
func block(s string) string {
	const maxLines = 400
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	more := 0
	if len(lines) > maxLines {
		more = len(lines) - maxLines
		lines = lines[:maxLines]
	}
	out := "    | " + strings.Join(lines, "\n    | ")
	if more > 0 {
		out += fmt.Sprintf("\n    ... (%d more lines)", more)
	}
	return out
}

// render prints v over several lines, one field, element or map entry a
// line, for a line diff; "" where v is too large or too deep to print.
func render(v any) string {
	p := printer{onPath: map[uintptr]bool{}, budget: 5000}
	s := p.value(reflect.ValueOf(v), 0)
	if p.budget < 0 {
		return ""
	}
	return s
}

type printer struct {
	onPath map[uintptr]bool // pointers being printed: a cycle stops at them
	budget int              // values left to print
}

const maxDepth = 10

func (p *printer) value(v reflect.Value, depth int) string {
	p.budget--
	if p.budget < 0 || depth > maxDepth {
		p.budget = -1
		return "…"
	}
	if !v.IsValid() {
		return "nil"
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.Complex64, reflect.Complex128:
		return fmt.Sprint(v.Complex())
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		e := v.Elem()
		s := p.value(e, depth+1)
		switch e.Kind() {
		case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array, reflect.Pointer:
			return s
		}
		return fmt.Sprintf("%s(%s)", e.Type(), s)
	case reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		if p.onPath[v.Pointer()] {
			return fmt.Sprintf("&<cycle to %s>", v.Type().Elem())
		}
		p.onPath[v.Pointer()] = true
		defer delete(p.onPath, v.Pointer())
		return "&" + p.value(v.Elem(), depth+1)
	case reflect.Struct:
		if v.Type().NumField() == 0 {
			return v.Type().String() + "{}"
		}
		var lines []string
		for i := range v.NumField() {
			lines = append(lines, v.Type().Field(i).Name+": "+p.value(v.Field(i), depth+1))
		}
		return composite(v.Type().String(), lines)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return v.Type().String() + "(nil)"
		}
		if v.Type().Elem().Kind() == reflect.Uint8 && v.Kind() == reflect.Slice {
			return fmt.Sprintf("%s(%s)", v.Type(), strconv.Quote(string(v.Bytes())))
		}
		var lines []string
		for i := range v.Len() {
			lines = append(lines, p.value(v.Index(i), depth+1))
		}
		return composite(v.Type().String(), lines)
	case reflect.Map:
		if v.IsNil() {
			return v.Type().String() + "(nil)"
		}
		type entry struct{ k, v string }
		var entries []entry
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, entry{p.value(it.Key(), depth+1), p.value(it.Value(), depth+1)})
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].k < entries[j].k })
		lines := make([]string, len(entries))
		for i, e := range entries {
			lines[i] = e.k + ": " + e.v
		}
		return composite(v.Type().String(), lines)
	}
	if v.Kind() == reflect.Func || v.Kind() == reflect.Chan || v.Kind() == reflect.UnsafePointer {
		if v.IsNil() {
			return "nil"
		}
		return fmt.Sprintf("%s(%#x)", v.Type(), v.Pointer())
	}
	return v.Type().String()
}

// composite is "T{" and each line indented and ended with a comma, "}".
func composite(typ string, lines []string) string {
	if len(lines) == 0 {
		return typ + "{}"
	}
	var b strings.Builder
	b.WriteString(typ + "{\n")
	for _, l := range lines {
		b.WriteString("  " + strings.ReplaceAll(l, "\n", "\n  ") + ",\n")
	}
	b.WriteString("}")
	return b.String()
}

// diff is a line diff of a and b: "- " lines only in a, "+ " only in b,
// with three lines of context around each change; "" where they are equal
// or too long to compare.
func diff(a, b []string) string {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	if pre == len(a) && pre == len(b) {
		return ""
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	type op struct {
		kind byte
		line string
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	if len(ma)*len(mb) > 4_000_000 {
		for _, l := range ma {
			ops = append(ops, op{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, op{'+', l})
		}
	} else {
		// lcs[i][j]: the longest common subsequence of ma[i:] and mb[j:].
		lcs := make([][]int, len(ma)+1)
		for i := range lcs {
			lcs[i] = make([]int, len(mb)+1)
		}
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) || j < len(mb) {
			switch {
			case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
				ops = append(ops, op{' ', ma[i]})
				i, j = i+1, j+1
			case i < len(ma) && (j == len(mb) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', ma[i]})
				i++
			default:
				ops = append(ops, op{'+', mb[j]})
				j++
			}
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	const context = 3
	near := make([]bool, len(ops))
	for i, o := range ops {
		if o.kind != ' ' {
			for k := max(0, i-context); k <= min(len(ops)-1, i+context); k++ {
				near[k] = true
			}
		}
	}
	var out strings.Builder
	skipped := 0
	flush := func() {
		if skipped > 0 {
			fmt.Fprintf(&out, "  ... (%d equal lines)\n", skipped)
			skipped = 0
		}
	}
	for i, o := range ops {
		if !near[i] {
			skipped++
			continue
		}
		flush()
		fmt.Fprintf(&out, "%c %s\n", o.kind, o.line)
	}
	flush()
	return strings.TrimSuffix(out.String(), "\n")
}
