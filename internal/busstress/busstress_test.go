package busstress

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fluxwatch/fluxwatch/internal/cmdtest"
)

var (
	bin     = flag.String("stress.bin", "", "the fluxwatch binary (default: built from this module)")
	procs   = flag.Int("stress.procs", 6, "writer processes in all")
	shell   = flag.Int("stress.shell", 2, "how many of them are shell writers")
	records = flag.Int("stress.records", 40, "records per writer")
	dir     = flag.String("stress.dir", "", "where to write the bus (default: a temporary directory)")
)

// fluxwatchBin returns the binary under test: -stress.bin, or one built
// from this module.
func fluxwatchBin(t *testing.T) string {
	t.Helper()
	if *bin != "" {
		return *bin
	}
	return cmdtest.Build(t)
}

// TestStress runs the whole stress at the size the flags say. Its defaults
// make the short run of `make test`; `make stress` runs 32 × 5,000.
func TestStress(t *testing.T) {
	cfg := Config{Bin: fluxwatchBin(t), Dir: *dir, Procs: *procs, Shell: *shell, Records: *records,
		MinSize: 100, MaxSize: 256 << 10, Seed: 2026}
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	res, err := Run(context.Background(), cfg, os.Stdout)
	fmt.Printf("busstress: %d writer processes (%d fluxwatch, %d shell) x %d records\nbusstress: %s\n",
		cfg.Procs, cfg.Procs-cfg.Shell, cfg.Shell, cfg.Records, res)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("the bus lost or tore records: %s", res)
	}
}

// TestVerifyCatchesDamage makes sure the checks can fail: a torn line, a lost
// record, a duplicate and a corrupted payload are all counted.
func TestVerifyCatchesDamage(t *testing.T) {
	cfg := Config{Procs: 1, Records: 4, MinSize: 100, MaxSize: 300, Seed: 1}
	path := filepath.Join(t.TempDir(), "bus.jsonl")
	var data []byte
	enc := func(n int) []byte {
		return []byte(fmt.Sprintf(`{"severity":%q,"agent":%q,"category":"stress","summary":%q,"file_refs":[%q]}`+"\n",
			cfg.record(0, n).Severity, cfg.record(0, n).Agent, cfg.record(0, n).Summary, cfg.record(0, n).FileRefs[0]))
	}
	data = append(data, enc(0)...)
	data = append(data, enc(0)...)      // duplicate
	data = append(data, enc(1)[:40]...) // torn: cut and followed by another record
	data = append(data, '\n')           //
	bad := enc(2)                       //
	bad[len(bad)-30] ^= 1               // corrupted payload
	data = append(data, bad...)         //
	data = append(data, enc(3)[:20]...) // torn at the end: no newline
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res := Result{Records: 4}
	if err := verify(path, cfg, &res); err != nil {
		t.Fatal(err)
	}
	if res.Intact != 1 || res.Duplicated != 1 || res.Torn != 3 || res.Lost != 3 || res.OK() {
		t.Errorf("verify found %s; want 1 intact, 1 duplicated, 3 torn, 3 lost", res)
	}
}
