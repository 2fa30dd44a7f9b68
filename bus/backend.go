package bus

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// ErrRefused is wrapped by the error of Backend.Append for a record the
// store refuses for good, because of a limit (its size, a stream or a store
// that is full): retrying cannot store it. The message says which limit.
var ErrRefused = errors.New("refused")

// ErrUnavailable is wrapped by the error of a backend whose store did not
// answer (a server away, restarting or too busy): the same request may
// succeed later. Callers that wait for a store (Relay) retry on it, and on
// no backend's own error type.
var ErrUnavailable = errors.New("unavailable")

// Backend is one bus, wherever its records are stored: the JSONL file of
// SPEC §3 (the default, FileBackend) or a network stream (the natsbus
// package). Every backend keeps the promises of the file: Append returns
// nil only once the record is stored (durable, acknowledged); every reader
// reads each stored record once, in the one order every reader agrees on
// (the timeline); a Position names a place in that order that Read and
// Follow go on from.
//
// Methods may be called from several goroutines at once only where the
// backend says so; the file backend may.
type Backend interface {
	// Append validates e (Validate; errors wrap ErrInvalid) and stores it.
	// A record the store refuses for good (over a limit of its server: the
	// record's size, a stream or a store that is full) is an error wrapping
	// ErrRefused, at once, not retried. It returns the record's position (the byte offset of its line in a
	// file, its stream sequence in a stream) once it is stored, or an error
	// when it could not be within ctx: then the record may or may not have
	// been stored, and retrying the same record stores it at most once
	// where the backend deduplicates (a stream does; a file does not).
	Append(ctx context.Context, e Entry) (pos int64, err error)

	// Read reads a snapshot: the records stored when it is called, from
	// position since (0: the first), in timeline order, calling entry for
	// each record f matches and diag for each record that cannot be
	// decoded. It returns the position a later Read or Follow goes on from,
	// and the first error of entry or of the store. An unreachable store is
	// an error within the backend's timeout, never a hang.
	Read(ctx context.Context, since int64, f Filter, entry func(Entry) error, diag func(parse.Diagnostic)) (next int64, err error)

	// Follow is Read that goes on delivering records as they are stored,
	// until ctx is done (then it returns nil) or an error.
	Follow(ctx context.Context, since int64, f Filter, entry func(Entry) error, diag func(parse.Diagnostic)) error

	// String names the bus for messages: a path, or a URL without
	// credentials.
	String() string

	// Close releases the backend's connections.
	Close() error
}

// Options tune how a backend is opened. Credentials are never part of
// String or of an error message.
type Options struct {
	// MaxLine caps an encoded record, newline excluded; <= 0 means
	// DefaultMaxLine.
	MaxLine int
	// NoSync: the file backend skips its fdatasync (throwaway runs only).
	NoSync bool
	// Timeout bounds connecting to a network store and each request to
	// it; <= 0 means DefaultTimeout.
	Timeout time.Duration
	// Interval is how often the file backend's Follow polls when no
	// filesystem event wakes it; <= 0 means DefaultInterval.
	Interval time.Duration
	// Getenv reads the environment for a backend's usual variables
	// (NATS_CREDS and the like); nil means none.
	Getenv func(string) string
	// Creds is a credentials file for a network store (--nats-creds).
	Creds string
}

// DefaultTimeout is how long a network backend waits for a connection or a
// reply before it gives up with an error.
const DefaultTimeout = 5 * time.Second

// Opener opens the bus named by u (already parsed; its scheme chose the
// opener).
type Opener func(ctx context.Context, u *url.URL, opt Options) (Backend, error)

// Schemes maps a URL scheme to the backend that serves it. The file backend
// needs no entry: a name without a scheme (or file://) is a file.
type Schemes map[string]Opener

// ErrScheme is wrapped by the error of Open for a URL scheme no backend
// serves.
var ErrScheme = errors.New("no bus backend for this URL scheme")

// IsURL reports whether name is a bus URL (scheme://…) rather than a path.
func IsURL(name string) bool {
	i := strings.Index(name, "://")
	if i <= 0 {
		return false
	}
	for _, c := range name[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// Open opens the bus named by name: a file path (or file:///path) is a
// FileBackend; scheme://… goes to the backend s registers for the scheme,
// else an error wrapping ErrScheme.
func (s Schemes) Open(ctx context.Context, name string, opt Options) (Backend, error) {
	if !IsURL(name) {
		return NewFile(name, opt), nil
	}
	u, err := url.Parse(name)
	if err != nil {
		return nil, fmt.Errorf("bus URL: %w", redact(err))
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "file" {
		return NewFile(u.Path, opt), nil
	}
	open, ok := s[scheme]
	if !ok {
		return nil, fmt.Errorf("bus %s://…: %w", scheme, ErrScheme)
	}
	return open(ctx, u, opt)
}

// redact drops the URL from a *url.Error, which may hold a password.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// FileBackend is the JSONL file bus as a Backend: Append, Read and Follow of
// this package on one path. Positions are byte offsets. Safe for concurrent
// use.
type FileBackend struct {
	path string
	opt  Options
}

// NewFile returns the file bus at path. Nothing is opened until it is used.
func NewFile(path string, opt Options) *FileBackend {
	return &FileBackend{path: path, opt: opt}
}

// Path returns the bus file's path.
func (b *FileBackend) Path() string { return b.path }

// String returns the path.
func (b *FileBackend) String() string { return b.path }

// Close does nothing: a FileBackend holds nothing open between calls.
func (b *FileBackend) Close() error { return nil }

// Append is the package's Append (ctx is not consulted: the lock wait and
// the write are not interruptible).
func (b *FileBackend) Append(_ context.Context, e Entry) (int64, error) {
	return Append(b.path, e, WriteOptions{MaxLine: b.opt.MaxLine, NoSync: b.opt.NoSync})
}

// Read is ReadMatching on the file.
func (b *FileBackend) Read(_ context.Context, since int64, f Filter, entry func(Entry) error, diag func(parse.Diagnostic)) (int64, error) {
	return ReadMatching(b.path, b.opt.MaxLine, since, f, entry, diag)
}

// Follow is the package's Follow on a Tail of the file started at since.
func (b *FileBackend) Follow(ctx context.Context, since int64, f Filter, entry func(Entry) error, diag func(parse.Diagnostic)) error {
	t, err := f.tail(b.path, b.opt.MaxLine, since)
	if err != nil {
		return err
	}
	return Follow(ctx, []*Tail{t}, b.opt.Interval, f.pass(entry), diag)
}
