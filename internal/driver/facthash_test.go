package driver

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"reflect"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
	"golang.org/x/tools/go/types/objectpath"
)

type hashFact struct {
	N int
	M map[string]int
}

func (*hashFact) AFact() {}

// TestFactHasher: a package's facts hash as each decoded and written out
// canonically, whether the hasher decoded the same bytes before (for this
// package or another) or not; a fact that does not decode fails the hash
// every time it is met.
func TestFactHasher(t *testing.T) {
	enc := func(path string, f *hashFact) EncodedFact {
		e, ok := encodeFact("a", "", f)
		require.True(t, ok)
		e.Path = objectpath.Path("p." + path)
		return e
	}
	m := map[string]int{}
	for i := range 20 {
		m[fmt.Sprint(i)] = i
	}
	one := enc("X", &hashFact{N: 1, M: m})
	two := one // the same bytes, for another object
	two.Path = "p.Y"
	// the same value encoded again: a map's bytes may differ, its hash not
	three := enc("X", &hashFact{N: 1, M: m})
	other := enc("Z", &hashFact{N: 2})
	// reference: the hash as exportFacts made it before the hasher, one
	// decoder per fact.
	reference := func(facts []EncodedFact) (sum [32]byte, ok bool) {
		h := sha256.New()
		ok = true
		for _, f := range facts {
			fmt.Fprintf(h, "%s %s %q ", f.Analyzer, f.Type, f.Path)
			v, err := decodeForHash(f)
			var buf bytes.Buffer
			if err != nil || !canonical(&buf, reflect.ValueOf(v), 0) {
				ok = false
			}
			h.Write(buf.Bytes())
			h.Write([]byte{'\n'})
		}
		h.Sum(sum[:0])
		return sum, ok
	}
	var fh factHasher
	lists := [][]EncodedFact{{one, two}, {one, other}, {two}, {one, two}, {other, one, two}}
	var sums [][32]byte
	for _, l := range lists {
		want, wok := reference(l)
		got, gok := fh.hash(l)
		require.True(t, wok)
		assert.True(t, gok)
		assert.Equal(t, want, got)
		var fresh factHasher
		again, _ := fresh.hash(l)
		assert.Equal(t, want, again, "a hasher that saw nothing before")
		sums = append(sums, got)
	}
	assert.Equal(t, sums[0], sums[3])
	assert.NotEqual(t, sums[0], sums[1])
	assert.NotEqual(t, sums[0], sums[2])
	assert.Len(t, fh.seen, 2, "one and two are the same bytes")
	a, _ := fh.hash([]EncodedFact{one})
	b, _ := fh.hash([]EncodedFact{three})
	assert.Equal(t, a, b)

	bad := one
	bad.Data = bad.Data[:len(bad.Data)/2]
	for range 2 {
		_, ok := fh.hash([]EncodedFact{other, bad})
		assert.False(t, ok, "a fact that does not decode")
	}
	_, ok := fh.hash([]EncodedFact{other, one})
	assert.True(t, ok)
}
