package redact

import (
	"bytes"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"user and password", "nats://alice:s3cretPW@host:4222/run", "nats://alice:xxxxx@host:4222/run"},
		{"token as user", "nats://s3cretTOKEN@host:4222/run", "nats://xxxxx@host:4222/run"},
		{"no credentials", "nats://host:4222/run", "nats://host:4222/run"},
		{"in a sentence", `start bus="nats://alice:pw@h:1/r" and http://x/y`, `start bus="nats://alice:xxxxx@h:1/r" and http://x/y`},
		{"in a list", "args=[synth --bus nats://alice:pw@[::1]:4222/run]", "args=[synth --bus nats://alice:xxxxx@[::1]:4222/run]"},
		{"two", "a://u:p@h b://t@h", "a://u:xxxxx@h b://xxxxx@h"},
		{"query token", "nats://h/r?max-age=1h&token=abc&auth_token=d#f", "nats://h/r?max-age=1h&token=xxxxx&auth_token=xxxxx#f"},
		{"query password", "https://h/?user=bob&Password=hunter2", "https://h/?user=bob&Password=xxxxx"},
		{"at sign in path", "https://h/p@x", "https://h/p@x"},
		{"password with at sign", "nats://alice:p@ss@host/r", "nats://alice:xxxxx@host/r"},
		{"scheme glued to text", "bus:nats://alice:pw@h", "bus:nats://alice:xxxxx@h"},
		{"no scheme", "://alice:pw@h", "://alice:pw@h"},
		{"no URL", "nothing to see: a@b", "nothing to see: a@b"},
		{"ends the text", "nats://alice:pw@", "nats://alice:xxxxx@"},
		{"quoted by a JSON log", `{"args":["--bus","nats://alice:pw@h/r?token=t"]}`, `{"args":["--bus","nats://alice:xxxxx@h/r?token=xxxxx"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.in); got != tc.want {
				t.Errorf("String(%q) =\n%q, want\n%q", tc.in, got, tc.want)
			}
			if got := String(tc.want); got != tc.want {
				t.Errorf("not idempotent: String(%q) = %q", tc.want, got)
			}
		})
	}
	u, _ := url.Parse("nats://alice:s3cretPW@host:4222/run?token=t")
	if got := URL(u); strings.Contains(got, "s3cretPW") || strings.Contains(got, "=t") {
		t.Errorf("URL = %q", got)
	}
}

// Every log line of a structured logger on a Writer is redacted, in both
// formats, and so is any message written to it.
func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := Writer(&buf)
	if Writer(w) != w {
		t.Error("Writer of a Writer wraps twice")
	}
	for _, h := range []slog.Handler{slog.NewTextHandler(w, nil), slog.NewJSONHandler(w, nil)} {
		slog.New(h).Info("start", "args", []string{"synth", "--bus", "nats://alice:s3cretPW@host:4222/run?max-age=1h&token=T0KEN"},
			"error", errors.New("connect nats://bob:hunter2@host: refused"))
	}
	p := []byte("fluxwatch: warning: nats://s3cretTOKEN@hub/r\n")
	if n, err := w.Write(p); n != len(p) || err != nil {
		t.Errorf("Write = %d, %v; want %d, nil", n, err, len(p))
	}
	out := buf.String()
	for _, secret := range []string{"s3cretPW", "T0KEN", "hunter2", "s3cretTOKEN"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q reached the output:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"alice:xxxxx@host:4222/run", "max-age=1h", "bob:xxxxx@host", "nats://xxxxx@hub/r"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q missing from the output:\n%s", kept, out)
		}
	}
}

// String never panics, never grows a text by more than the masks it adds,
// is idempotent, and leaves no password of a user:password URL it made.
func FuzzString(f *testing.F) {
	for _, s := range []string{"nats://alice:pw@h/r?token=x", "a://b@c d://", "://@", "x://y:z@[::1]:1/?a=b&c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := String(s)
		if again := String(got); again != got {
			t.Fatalf("not idempotent: %q → %q → %q", s, got, again)
		}
		if !strings.Contains(s, "://") && got != s {
			t.Fatalf("changed a text without a URL: %q → %q", s, got)
		}
	})
}
