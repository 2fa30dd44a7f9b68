package parse

import (
	"os"
	"runtime"
	"runtime/pprof"
)

func heapDump(name string) {
	p := os.Getenv("FW_HEAPDUMP")
	if p == "" {
		return
	}
	runtime.GC()
	f, _ := os.Create(p + "-" + name)
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
}
