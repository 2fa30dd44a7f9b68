package bus

import (
	"context"
	"errors"
	"net/url"
	"testing"
)

func TestIsURL(t *testing.T) {
	for name, want := range map[string]bool{
		"nats://h:4222/r": true, "file:///tmp/x": true, "tls+nats://h/r": true,
		"/tmp/a://b": false, "peer-findings.jsonl": false, "://x": false, "C:\\bus.jsonl": false,
	} {
		if got := IsURL(name); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSchemesOpen: a path and file:// are the file bus; a registered
// scheme goes to its opener; another is ErrScheme.
func TestSchemesOpen(t *testing.T) {
	var opened string
	s := Schemes{"nats": func(_ context.Context, u *url.URL, _ Options) (Backend, error) {
		opened = u.Host + u.Path
		return NewFile("x", Options{}), nil
	}}
	ctx := context.Background()
	if b, err := s.Open(ctx, "/tmp/bus.jsonl", Options{}); err != nil || b.(*FileBackend).Path() != "/tmp/bus.jsonl" {
		t.Errorf("path: %v %v", b, err)
	}
	if b, err := s.Open(ctx, "file:///tmp/bus.jsonl", Options{}); err != nil || b.(*FileBackend).Path() != "/tmp/bus.jsonl" {
		t.Errorf("file://: %v %v", b, err)
	}
	if _, err := s.Open(ctx, "NATS://h:1/run", Options{}); err != nil || opened != "h:1/run" {
		t.Errorf("nats://: opened %q, %v", opened, err)
	}
	if _, err := s.Open(ctx, "kafka://h/r", Options{}); !errors.Is(err, ErrScheme) {
		t.Errorf("kafka://: %v, want ErrScheme", err)
	}
}
