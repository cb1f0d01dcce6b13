package main

import (
	"flag"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiles are the -cpuprofile and -memprofile flags, for measuring hiplint
// itself (docs/performance.md).
type profiles struct{ cpu, mem string }

func (pr *profiles) register(fs *flag.FlagSet) {
	fs.StringVar(&pr.cpu, "cpuprofile", "", "write a CPU profile of this run to `file`")
	fs.StringVar(&pr.mem, "memprofile", "", "write a heap profile to `file` when the run ends")
}

// startProfiles starts the CPU profile and returns the function that stops
// it and writes the heap profile. Profiling problems are printed, never fatal.
func (p *program) startProfiles(pr profiles) (stop func()) {
	var cpu *os.File
	if pr.cpu != "" {
		f, err := os.Create(pr.cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			p.errorf("-cpuprofile: %v", err)
		} else {
			cpu = f
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if pr.mem != "" {
			runtime.GC() // up-to-date statistics
			f, err := os.Create(pr.mem)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				p.errorf("-memprofile: %v", err)
			}
		}
	}
}
