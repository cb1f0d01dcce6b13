package fixes

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestApplyAndMerge(t *testing.T) {
	taken := map[string][]Edit{}
	assert.NoError(t, Merge(taken, map[string][]Edit{"f": {{4, 4, "X"}}}))
	assert.NoError(t, Merge(taken, map[string][]Edit{"f": {{4, 4, "X"}}}), "the same edit twice is one edit")
	assert.Error(t, Merge(taken, map[string][]Edit{"f": {{4, 4, "Y"}}}), "two insertions at one place")
	assert.NoError(t, Merge(taken, map[string][]Edit{"f": {{4, 6, "Z"}}}), "insertion before a replacement")
	assert.Error(t, Merge(taken, map[string][]Edit{"f": {{5, 5, "W"}}}), "insertion inside a replacement")
	assert.Equal(t, "0123XZ6789", string(Apply([]byte("0123456789"), taken["f"])))
}

func TestBetween(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           Edit
	}{
		{"equal", "abc", "abc", Edit{3, 3, ""}},
		{"insert", "a\nc\n", "a\nb\nc\n", Edit{2, 2, "b\n"}},
		{"delete", "a\nb\nc\n", "a\nc\n", Edit{2, 4, ""}},
		{"replace", "xay", "xbby", Edit{1, 2, "bb"}},
		{"at start", "abc", "zabc", Edit{0, 0, "z"}},
		{"at end", "abc", "abcz", Edit{3, 3, "z"}},
		// é and è share their first byte: the edit takes the whole character.
		{"multibyte", "aéb", "aèb", Edit{1, 3, "è"}},
	} {
		got := Between([]byte(tc.old), []byte(tc.new))
		assert.Equal(t, tc.want, got, tc.name)
		assert.Equal(t, tc.new, string(Apply([]byte(tc.old), []Edit{got})), tc.name)
	}
}
