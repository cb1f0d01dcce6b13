package resultcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func key(s string) Key {
	var k Key
	copy(k[:], s)
	return k
}

// TestGetPut: an entry reads back; a missing, truncated, altered or foreign
// entry is a miss.
func TestGetPut(t *testing.T) {
	c, err := Open(filepath.Join(t.TempDir(), "c"), DefaultLimit)
	require.NoError(t, err)
	_, ok := c.Get("r", key("a"))
	assert.False(t, ok)
	require.NoError(t, c.Put("r", key("a"), []byte("hello")))
	data, ok := c.Get("r", key("a"))
	assert.True(t, ok)
	assert.Equal(t, "hello", string(data))
	_, ok = c.Get("m", key("a"))
	assert.False(t, ok, "kinds are apart")

	name := c.file("r", key("a"))
	whole, err := os.ReadFile(name)
	require.NoError(t, err)
	for _, bad := range [][]byte{
		whole[:len(whole)-1],                       // truncated
		append(whole[:len(whole):len(whole)], 'x'), // longer
		append([]byte("x"), whole[1:]...),          // not an entry
		nil,                                        // empty
	} {
		require.NoError(t, os.WriteFile(name, bad, 0o600))
		_, ok = c.Get("r", key("a"))
		assert.False(t, ok, "%q", bad)
	}
	flipped := append([]byte(nil), whole...)
	flipped[len(flipped)-1] ^= 1
	require.NoError(t, os.WriteFile(name, flipped, 0o600))
	_, ok = c.Get("r", key("a"))
	assert.False(t, ok, "checksum")
}

// TestTrim removes the least recently used entries beyond the limit, and
// old temporary files, and records when it ran.
func TestTrim(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	c, err := Open(dir, 0)
	require.NoError(t, err)
	payload := make([]byte, 1000)
	for i, name := range []string{"old", "mid", "new"} {
		require.NoError(t, c.Put("r", key(name), payload))
		when := time.Now().Add(time.Duration(i-3) * time.Hour)
		require.NoError(t, os.Chtimes(c.file("r", key(name)), when, when))
	}
	size := int64(len(encode(payload)))
	tmp := filepath.Join(filepath.Dir(c.file("r", key("old"))), ".tmp-1")
	require.NoError(t, os.WriteFile(tmp, nil, 0o600))
	past := time.Now().Add(-2 * time.Hour)
	require.NoError(t, os.Chtimes(tmp, past, past))

	c.limit = 2 * size
	require.NoError(t, c.MaybeTrim(), "wrote: trims")
	_, ok := c.Get("r", key("old"))
	assert.False(t, ok, "the least recently used goes")
	_, ok = c.Get("r", key("mid")) // a hit: "mid" is used now
	assert.True(t, ok)
	_, err = os.Stat(c.file("r", key("new")))
	assert.NoError(t, err, "new stays")
	_, err = os.Stat(tmp)
	assert.True(t, os.IsNotExist(err), "old temporary file removed")

	// The hit refreshed "mid": it is now more recent than "new".
	c.limit = size
	require.NoError(t, c.Trim())
	_, ok = c.Get("r", key("mid"))
	assert.True(t, ok)
	_, ok = c.Get("r", key("new"))
	assert.False(t, ok)

	// Within the hour, MaybeTrim does not walk the cache again.
	require.NoError(t, c.Put("r", key("x"), payload))
	c.limit = 0
	require.NoError(t, c.MaybeTrim())
	_, ok = c.Get("r", key("x"))
	assert.True(t, ok)
}

func TestLimit(t *testing.T) {
	for in, want := range map[string]int64{"": DefaultLimit, "100": 100, "2K": 2048, "3M": 3 << 20, "1G": 1 << 30, "x": DefaultLimit, "-1": DefaultLimit} {
		t.Setenv("HIPLINT_CACHE_LIMIT", in)
		assert.Equal(t, want, Limit(), in)
	}
}
