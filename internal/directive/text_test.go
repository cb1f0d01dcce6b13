package directive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

// Issue 16 items 8 and 14: what messages quote of a directive is bounded
// and never holds a control character.

func TestShortenEscapesControlCharacters(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "HL2001", Shorten("HL2001", 40))
	assert.Equal(t, `\x1b[2J\x1b[31mRED`, Shorten("\x1b[2J\x1b[31mRED", 40))
	assert.Equal(t, `a\rb\u202ec\x00`, Shorten("a\rb\u202ec\x00", 40), "carriage return, right-to-left override, NUL")
	assert.Equal(t, `\xff\xfeé`, Shorten("\xff\xfeé", 40), "bytes that are not UTF-8; é is printable")
	assert.Equal(t, "\uFFFD", Shorten("\uFFFD", 40), "the replacement character itself is printable")
	assert.Equal(t, "abcd...", Shorten("abcdefgh", 4))
}

func TestTextIsBoundedAndEscaped(t *testing.T) {
	t.Parallel()
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmt.Sprintf("X%d", i)
	}
	_, _, dirs := parseSrc(t, "package p\n\n//hiplint:ignore "+strings.Join(ids, ",")+" a reason\nvar x int\n")
	require.Len(t, dirs, 1)
	text := dirs[0].Text()
	assert.Less(t, len(text), 200, text)
	assert.True(t, strings.HasPrefix(text, "//hiplint:ignore X0,X1,X2,"), text)
	assert.Regexp(t, `,X\d+ \.\.\. and \d+ more$`, text)

	_, _, dirs = parseSrc(t, "package p\n\n//hiplint:ignore \x1b[31mHL2001\x07 a reason\nvar x int\n")
	require.Len(t, dirs, 1)
	assert.Equal(t, `//hiplint:ignore \x1b[31mHL2001\a`, dirs[0].Text())

	_, _, dirs = parseSrc(t, "package p\n\n//hiplint:\x1b]0;title\x07 x\nvar x int\n")
	require.Len(t, dirs, 1)
	assert.NotContains(t, dirs[0].Problem, "\x1b")
	assert.Contains(t, dirs[0].Problem, `//hiplint:\x1b]0;title\a;`)
}
