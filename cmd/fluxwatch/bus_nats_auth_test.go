package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub"
	"github.com/fluxwatch/fluxwatch/bus/natsbus/hub/hubtest"
)

// cli runs fluxwatch ARGS in process with the variables of vars, and
// returns its exit status and what it printed.
func cli(vars map[string]string, args ...string) (int, string, string) {
	var out, errb syncBuffer
	e := bareEnv(&out, &errb)
	e.getenv = func(k string) string { return vars[k] }
	code := exitCode(run(context.Background(), args, e), &errb)
	return code, out.String(), errb.String()
}

// TestBusClientCredentials: every bus client of the command line passes a
// hub's credentials the NATS way: the URL's userinfo, $NATS_USER and
// $NATS_PASSWORD, --nats-nkey (or $NATS_NKEY) with a seed file, and
// --nats-ca, --nats-cert, --nats-key for TLS with client certificates;
// finding write and read, bus relay, mcp, synth and watch alike. Without them a
// client exits 2 with one line naming the URL and no secret.
func TestBusClientCredentials(t *testing.T) {
	dir := t.TempDir()
	kp, _ := nkeys.CreateUser()
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	seedFile := filepath.Join(dir, "agent.nk")
	os.WriteFile(seedFile, seed, 0o600)
	h := hubtest.Start(t, hub.Config{NoSync: true, Auth: hub.Auth{User: "alice", Password: "s3cretPW", Nkeys: []string{pub}}})
	hostport := strings.TrimPrefix(h.URL(), "nats://")
	plain := "nats://" + hostport + "/authrun"
	withPW := "nats://alice:s3cretPW@" + hostport + "/authrun"
	none := map[string]string{}
	users := map[string]string{"NATS_USER": "alice", "NATS_PASSWORD": "s3cretPW"}

	write := func(vars map[string]string, url, summary string, extra ...string) (int, string) {
		code, _, errb := cli(vars, append([]string{"finding", "write", "--bus", url, "--agent", "fd-a", "--severity", "notable",
			"--category", "c", "--summary", summary}, extra...)...)
		return code, errb
	}
	for _, c := range []struct {
		name  string
		vars  map[string]string
		url   string
		extra []string
	}{
		{"the URL's user and password", none, withPW, nil},
		{"$NATS_USER and $NATS_PASSWORD", users, plain, nil},
		{"--nats-nkey", none, plain, []string{"--nats-nkey", seedFile}},
		{"$NATS_NKEY", map[string]string{"NATS_NKEY": seedFile}, plain, nil},
	} {
		if code, errb := write(c.vars, c.url, "written with "+c.name, c.extra...); code != 0 {
			t.Errorf("finding write with %s: exit %d\n%s", c.name, code, errb)
		}
	}
	code, errb := write(none, plain, "a stranger's")
	if code != exitUsage || strings.Contains(errb, "s3cret") || !strings.Contains(errb, plain) || strings.Count(strings.TrimSpace(errb), "\n") > 0 {
		t.Errorf("finding write without credentials: exit %d, stderr %q; want 2, one line naming the URL and no secret", code, errb)
	}
	code, errb = write(none, "nats://alice:wrong@"+hostport+"/authrun", "a guess")
	if code != exitUsage || strings.Contains(errb, "wrong") {
		t.Errorf("finding write with a wrong password: exit %d, stderr %q", code, errb)
	}

	code, out, errb := cli(users, "finding", "read", "--bus", plain)
	if code != 0 || strings.Count(out, `"agent": "fd-a"`)+strings.Count(out, `"agent":"fd-a"`) != 4 {
		t.Errorf("finding read with $NATS_USER: exit %d, %s %s; want the 4 records", code, out, errb)
	}
	if code, _, _ := cli(none, "finding", "read", "--bus", plain); code != exitUsage {
		t.Errorf("finding read without credentials: exit %d, want 2", code)
	}

	file := filepath.Join(dir, "relayed.jsonl")
	if code, _, errb := cli(none, "bus", "relay", "--once", "--nats-nkey", seedFile, file, plain); code != 0 {
		t.Errorf("bus relay with --nats-nkey: exit %d\n%s", code, errb)
	}
	if data, _ := os.ReadFile(file); strings.Count(string(data), "\n") != 4 {
		t.Errorf("relayed %d records, want 4", strings.Count(string(data), "\n"))
	}

	// mcp reads the stream with the same flags: fetch_peer_findings
	// answers its records with --nats-nkey, and nothing without it.
	mcpCall := func(extra ...string) (int, string, string) {
		var out, errb syncBuffer
		e := bareEnv(&out, &errb)
		e.stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fetch_peer_findings","arguments":{"output_dir":"."}}}` + "\n")
		code := exitCode(run(context.Background(), append([]string{"mcp", "--root", dir, "--bus", plain}, extra...), e), &errb)
		return code, out.String(), errb.String()
	}
	if code, out, errb := mcpCall("--nats-nkey", seedFile); code != 0 || strings.Count(out, `\"agent\":\"fd-a\"`) != 4 {
		t.Errorf("mcp --bus with --nats-nkey: exit %d, %s %s; want the 4 records", code, out, errb)
	}
	if code, _, errb := mcpCall(); code != exitUsage || strings.Contains(errb, "s3cret") {
		t.Errorf("mcp --bus without credentials: exit %d, %q; want 2", code, errb)
	}

	runDir := filepath.Join(dir, "run")
	smallRun(t, runDir)
	out1 := filepath.Join(dir, "out")
	if code, _, errb := cli(users, "synth", "-q", "--no-evidence", "--bus", plain, "--out", out1, runDir); code != 0 {
		t.Errorf("synth --bus with $NATS_USER: exit %d\n%s", code, errb)
	} else if total := timelineTotal(filepath.Join(out1, "findings.json")); total != 4 {
		t.Errorf("synth read %d records of the stream, want 4", total)
	}
	if code, _, errb := cli(none, "synth", "-q", "--no-evidence", "--bus", plain, "--out", out1, runDir); code != exitUsage || strings.Contains(errb, "s3cret") {
		t.Errorf("synth --bus without credentials: exit %d, %q; want 2", code, errb)
	}
	out2 := filepath.Join(dir, "out-watch")
	stop := watchInProcess(t, func(string) string { return "" }, "-q", "--no-evidence", "--bus", plain, "--nats-nkey", seedFile, "--out", out2, runDir)
	awaitFile(t, filepath.Join(out2, "findings.json"), 20*time.Second, "watch --bus with --nats-nkey", func(b []byte) bool {
		return strings.Contains(string(b), "written with $NATS_NKEY")
	})
	if err, printed := stop(); err != nil {
		t.Errorf("watch: %v\n%s", err, printed)
	}
}

// TestBusClientTLS: --nats-ca, --nats-cert and --nats-key (or $NATS_CA,
// $NATS_CERT, $NATS_KEY) get a client into a hub that wants client
// certificates; without a certificate, or with one of another CA, it
// exits 2.
func TestBusClientTLS(t *testing.T) {
	pki := hubtest.NewPKI(t, t.TempDir())
	h := hubtest.Start(t, hub.Config{NoSync: true, Auth: hub.Auth{TLSCert: pki.ServerCert, TLSKey: pki.ServerKey,
		TLSCACert: pki.CA, TLSVerify: true}})
	_, port, _ := net.SplitHostPort(h.Addr())
	url := "nats://127.0.0.1:" + port + "/tlsrun"
	write := func(vars map[string]string, extra ...string) int {
		code, _, _ := cli(vars, append([]string{"finding", "write", "--bus", url, "--agent", "fd-a", "--severity", "notable",
			"--category", "c", "--summary", "over TLS"}, extra...)...)
		return code
	}
	if code := write(nil, "--nats-ca", pki.CA, "--nats-cert", pki.ClientCert, "--nats-key", pki.ClientKey); code != 0 {
		t.Errorf("finding write with --nats-ca, --nats-cert, --nats-key: exit %d", code)
	}
	if code := write(map[string]string{"NATS_CA": pki.CA, "NATS_CERT": pki.ClientCert, "NATS_KEY": pki.ClientKey}); code != 0 {
		t.Errorf("finding write with $NATS_CA, $NATS_CERT, $NATS_KEY: exit %d", code)
	}
	if code := write(nil, "--nats-ca", pki.CA); code != exitUsage {
		t.Errorf("finding write without a client certificate: exit %d, want 2", code)
	}
	if code := write(nil, "--nats-ca", pki.CA, "--nats-cert", pki.StrangerCert, "--nats-key", pki.StrangerKey); code != exitUsage {
		t.Errorf("finding write with a certificate of another CA: exit %d, want 2", code)
	}
}
