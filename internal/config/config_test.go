package config

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/hiplint/hiplint/internal/testenv/assert"
	"github.com/hiplint/hiplint/internal/testenv/require"
)

func init() {
	fs := flag.NewFlagSet("memcpysync", flag.ContinueOnError)
	fs.Bool("strict", false, "")
	Register("memcpysync", []string{"HL1001", "HL1002"}, fs)
	Register("modulebalance", []string{"HL2001", "HL2002", "HL2003", "HL2004"}, nil)
	Register("directive", []string{"HL0001"}, nil)
}

func TestEnabled(t *testing.T) {
	for _, tc := range []struct {
		checks string
		on     []string
	}{
		{"all", []string{"HL0001", "HL1001", "HL1002", "HL2001", "HL2002", "HL2003", "HL2004"}},
		{"*", []string{"HL0001", "HL1001", "HL1002", "HL2001", "HL2002", "HL2003", "HL2004"}},
		{"all,-HL1002", []string{"HL0001", "HL1001", "HL2001", "HL2002", "HL2003", "HL2004"}},
		{"HL2*", []string{"HL2001", "HL2002", "HL2003", "HL2004"}},
		{"HL2*,-HL2003", []string{"HL2001", "HL2002", "HL2004"}},
		{"-HL2003,HL2*", []string{"HL2001", "HL2002", "HL2003", "HL2004"}}, // left to right
		{"modulebalance,-HL2001", []string{"HL2002", "HL2003", "HL2004"}},
		{"all,-memcpysync,HL1002", []string{"HL0001", "HL1002", "HL2001", "HL2002", "HL2003", "HL2004"}},
		{"", nil},
	} {
		list := SplitChecks(tc.checks)
		require.NoError(t, ValidateChecks(list, false), tc.checks)
		var on []string
		for _, id := range []string{"HL0001", "HL1001", "HL1002", "HL2001", "HL2002", "HL2003", "HL2004"} {
			if enabled(list, id) {
				on = append(on, id)
			}
		}
		assert.Equal(t, tc.on, on, tc.checks)
	}
}

func TestValidateChecks(t *testing.T) {
	for list, want := range map[string]string{
		"HL9999":        `"HL9999" matches no check`,
		"all,-HL3*":     `"-HL3*" matches no check`,
		"HL[":           `bad pattern "HL["`,
		"inherit":       `"inherit" is allowed only`,
		"all,-inherit":  `"-inherit" is allowed only`,
		"memcpysync,HL": `"HL" matches no check`,
	} {
		err := ValidateChecks(SplitChecks(list), list == "all,-inherit")
		if assert.Error(t, err, list) {
			assert.Contains(t, err.Error(), want, list)
		}
	}
	assert.NoError(t, ValidateChecks([]string{"inherit", "-HL1*"}, true))
}

func write(t *testing.T, name, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, []byte(text), 0o644))
}

// The nearest file wins; "inherit" splices in the selection of the files
// above; flags merge, the nearer winning.
func TestLoadWalksUp(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, FileName), "# the module's\nchecks = [\"all\", \"-HL1002\"]\n\n[memcpysync]\nstrict = true\n")
	write(t, filepath.Join(root, "a", FileName), "checks = [\n  \"inherit\",\n  \"-HL2001\", # trailing comma next\n]\n")
	write(t, filepath.Join(root, "b", FileName), "checks = ['HL2*']\n[memcpysync]\nstrict = false\n")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "a", "deep"), 0o755))

	c, err := Load(filepath.Join(root, "a", "deep"))
	require.NoError(t, err)
	assert.Equal(t, []string{"all", "-HL1002", "-HL2001"}, c.Checks)
	assert.False(t, c.Enabled("HL2001"))
	assert.False(t, c.Enabled("HL1002"))
	assert.True(t, c.Enabled("HL1001"))
	assert.Equal(t, "true", c.Flags["memcpysync.strict"])
	assert.Equal(t, []string{filepath.Join(root, "a", FileName), filepath.Join(root, FileName)}, c.Files)

	c, err = Load(filepath.Join(root, "b"))
	require.NoError(t, err)
	assert.True(t, c.Enabled("HL2003"))
	assert.False(t, c.Enabled("HL1001"))
	assert.Equal(t, "false", c.Flags["memcpysync.strict"])

	// An override applies after the files.
	o := &Override{Checks: []string{"inherit", "HL1001"}, Flags: map[string]string{"memcpysync.strict": "true"}}
	oc := o.Apply(c)
	assert.True(t, oc.Enabled("HL1001"))
	assert.True(t, oc.Enabled("HL2003"))
	assert.Equal(t, "true", oc.Flags["memcpysync.strict"])
	assert.Equal(t, "false", c.Flags["memcpysync.strict"], "Apply leaves the files' configuration alone")
	assert.False(t, (&Override{Checks: []string{"HL1001"}}).Apply(c).Enabled("HL2003"), "without inherit the override replaces")

	// An edit is seen (the cache compares size and modification time).
	write(t, filepath.Join(root, "b", FileName), "checks = ['HL1*']\n")
	c, err = Load(filepath.Join(root, "b"))
	require.NoError(t, err)
	assert.True(t, c.Enabled("HL1001"))
	assert.False(t, c.Enabled("HL2003"))
}

func TestLoadNoFile(t *testing.T) {
	c, err := Load(t.TempDir())
	require.NoError(t, err)
	assert.True(t, c.Enabled("HL2001"))
	assert.Empty(t, c.Files)
}

// A bad file is one error naming the file and the line.
func TestBadFiles(t *testing.T) {
	for text, want := range map[string]string{
		"checks = [\"all\"\n[memcpysync]\n":   `:2: want , or ] in the list`,
		"checks = \"all\"\n":                  `:1: checks is a string; want a list of strings`,
		"check = [\"all\"]\n":                 `:1: unknown key check`,
		"checks = [\"HL9999\"]\n":             `:1: checks: "HL9999" matches no check`,
		"\n[memcpysync]\nstrict = \"yes\"\n":  `:3: memcpysync.strict is a string; want true or false`,
		"[memcpysync]\nstrikt = true\n":       `:2: [memcpysync] has no flag strikt; its flags: strict`,
		"[nosuch]\n":                          `[nosuch]: no analyzer of that name has flags; analyzers with flags: memcpysync`,
		"memcpysync.strict = true\n":          `:1: dotted keys are not supported; use a [table]`,
		"checks = [\"all\"] extra\n":          `:1: unexpected "extra"`,
		"checks = [\"all\"]\nchecks = []\n":   `:2: key checks is set twice`,
		"[memcpysync]\n[memcpysync]\n":        `:2: table [memcpysync] is defined twice`,
		"checks = [\"a\\q\"]\n":               `:1: unsupported escape \q`,
		"checks = [\"all]\n":                  `:1: the string is not closed with " on its line`,
		"checks =\n":                          `:1: want a value after =`,
		"checks = [all]\n":                    `:1: a list holds only quoted strings`,
		"[memcpysync]\nstrict = [\"true\"]\n": `:2: memcpysync.strict is a list; want true or false`,
		"\"checks\" = []\n":                   `:1: quoted keys are not supported`,
	} {
		dir := t.TempDir()
		name := filepath.Join(dir, FileName)
		write(t, name, text)
		_, err := Load(dir)
		if assert.Error(t, err, text) {
			assert.Contains(t, err.Error(), name+want[:0], text)
			assert.Contains(t, err.Error(), want, text)
			var ce *Error
			assert.ErrorAs(t, err, &ce)
		}
	}
}

func TestEmptyChecksTurnsAllOff(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, FileName), "checks = []\n")
	c, err := Load(dir)
	require.NoError(t, err)
	assert.False(t, c.Enabled("HL2001"))
}
