package main

import (
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
)

func TestIsVetInvocation(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-modulebalance", "-json", "/tmp/go-build1/b001/vet.cfg"}, true},
		{nil, false},
		{[]string{"./..."}, false},
		{[]string{"-json", "./..."}, false},
		{[]string{"flags"}, false}, // a package named flags
		{[]string{"checks"}, false},
	} {
		assert.Equal(t, tc.want, isVetInvocation(tc.args), "%q", tc.args)
	}
}

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	for _, tc := range []struct {
		name, new, want string
	}{
		{"equal", old, ""},
		{"insert", "a\nb\nc\nd\nX\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n",
			"--- f.go\n+++ f.go\n@@ -2,6 +2,7 @@\n b\n c\n d\n+X\n e\n f\n g\n"},
		{"two hunks", "A\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nN\n",
			"--- f.go\n+++ f.go\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n@@ -11,4 +11,4 @@\n k\n l\n m\n-n\n+N\n"},
		{"changes close together share a hunk", "a\nb\nc\nD\ne\nf\ng\nH\ni\nj\nk\nl\nm\nn\n",
			"--- f.go\n+++ f.go\n@@ -1,11 +1,11 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n-h\n+H\n i\n j\n k\n"},
		{"delete at start", "b\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n",
			"--- f.go\n+++ f.go\n@@ -1,4 +1,3 @@\n-a\n b\n c\n d\n"},
		{"missing final newline", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn",
			"--- f.go\n+++ f.go\n@@ -11,4 +11,4 @@\n k\n l\n m\n-n\n+n\n\\ No newline at end of file\n"},
	} {
		assert.Equal(t, tc.want, unifiedDiff("f.go", []byte(old), []byte(tc.new)), tc.name)
	}
}
