package main

import "strings"

// isVetInvocation reports whether go vet (or another build system speaking
// the unitchecker protocol) started us: it first asks for the tool's version
// (-V=full) and flags (-flags), then runs it once per package with the
// package's description in a JSON file whose name ends in .cfg, always the
// last argument. multichecker tells the modes apart the same way, only after
// parsing flags; we decide before, because unitchecker.Main parses the
// command line itself with the global flag set.
func isVetInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, arg := range args {
		switch arg {
		case "-V=full", "--V=full", "-flags", "--flags":
			return true
		}
	}
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}
