package hub_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
)

// TestStartFails: a hub that cannot start (its address taken, its store
// not a directory) says why at once, naming the address or the store.
// Before, Start waited its whole Ready bound (10 s) and then guessed
// "address in use?", for a bad store too.
func TestStartFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cfg  hub.Config
		want []string
	}{
		{"address taken", hub.Config{Listen: ln.Addr().String(), Store: t.TempDir()}, []string{ln.Addr().String(), "address already in use"}},
		{"store not a directory", hub.Config{Listen: "127.0.0.1:0", Store: filepath.Join(file, "store")}, []string{"JetStream", "not a directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			h, err := hub.Start(tc.cfg)
			took := time.Since(start)
			if err == nil {
				h.Shutdown()
				t.Fatal("started")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if took > 2*time.Second {
				t.Errorf("error after %v, want at once", took)
			}
		})
	}
}
