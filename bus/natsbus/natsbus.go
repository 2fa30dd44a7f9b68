// Package natsbus is the peer-findings bus on NATS JetStream, for a run
// whose agents do not share a filesystem. It is a bus.Backend, opened from a
// URL nats://[USER:PASS@]HOST:PORT/RUN (Open, registered under "nats" by
// the command).
//
// Design (issue 19): one stream per run, named FLUXWATCH_RUN, holding the
// subjects fluxwatch.RUN.findings.<severity>; each record is its canonical
// line (bus.Encode), so a stream and a file hold the same bytes. Append
// publishes with a Nats-Msg-Id that is the SHA-256 of the line and returns
// only after the server's acknowledgement (the record is stored), retrying
// the same id until the timeout, so a retried write is stored once. The
// stream sequence is the timeline order and the position of Read and
// Follow; both read through an ordered consumer.
//
// The stream's limits come from the URL's query: max-age (a Go duration),
// max-bytes, max-msgs, replicas, storage (file or memory) and retention
// (limits or interest); the defaults keep everything on file for ever. A
// server whose account limits one stream's bytes (a hub: bus serve) gets
// a stream that asks for those bytes at most and refuses records once full
// (DiscardNew, fitAccount). A record the server refuses for good because
// of a limit (its size, a stream or a store full) is an error wrapping
// bus.ErrRefused, at once, saying which limit.
// Credentials come from the URL, Options.Creds (--nats-creds) or the usual
// variables NATS_CREDS, NATS_NKEY, NATS_USER, NATS_PASSWORD, NATS_TOKEN,
// NATS_CA, NATS_CERT and NATS_KEY; none is ever part of a message.
//
// It owns the stream side only. It must never define a record's format
// (bus.Encode and bus.Decoder do, for a file and a stream alike), never link
// the server (package hub does), and never put a credential in a message,
// an error or String.
package natsbus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fluxwatch/fluxwatch/bus"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Scheme is the URL scheme natsbus serves.
const Scheme = "nats"

// ErrRun is wrapped by the error of Open for a URL whose path is not one run
// name.
var ErrRun = errors.New("want nats://HOST:PORT/RUN with RUN made of letters, digits, '-' and '_'")

// ErrOption is wrapped by the error of Open for a stream option of the
// URL's query that is unknown or out of range.
var ErrOption = errors.New("bad stream option")

// ErrAddress is wrapped by the error of Open for a URL whose HOST:PORT is
// not an address: no host, or a port that is not a number from 1 to 65535.
var ErrAddress = errors.New("want nats://HOST:PORT/RUN with a host and a port from 1 to 65535")

// ErrNoReply is wrapped by the error of a request the server did not
// answer within the timeout: a server away, or too busy; trying again
// later may succeed. It is a bus.ErrUnavailable (errors.Is), so callers
// that wait for any backend need not name this one.
var ErrNoReply error = noReply{}

// noReply is ErrNoReply: its message, and bus.ErrUnavailable as its kind.
type noReply struct{}

func (noReply) Error() string        { return "no reply from the server" }
func (noReply) Is(target error) bool { return target == bus.ErrUnavailable }

var runName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Bus is a run's stream. Safe for concurrent use.
type Bus struct {
	name    string // the URL without credentials or query
	run     string
	stream  string
	cfg     jetstream.StreamConfig
	timeout time.Duration
	maxLine int
	nc      *nats.Conn
	js      jetstream.JetStream
	made    atomic.Bool // the stream is known to exist

	// refusal wakes a publish when the server refused one (a
	// permissions violation, reported apart from any reply); denied holds
	// the refusals, by subject.
	refusal chan struct{}
	mu      sync.Mutex
	denied  map[string]error
}

var _ bus.Backend = (*Bus)(nil)

// Open connects to the server of u and returns the run's bus. It does not
// create the stream: Append and Follow do when it is missing, and Read reads
// a missing stream as empty. An unreachable server is an error within
// opt.Timeout.
func Open(ctx context.Context, u *url.URL, opt bus.Options) (bus.Backend, error) {
	return OpenBus(ctx, u, opt)
}

// OpenBus is Open returning the concrete *Bus.
func OpenBus(ctx context.Context, u *url.URL, opt bus.Options) (*Bus, error) {
	run := u.Path
	if len(run) > 0 && run[0] == '/' {
		run = run[1:]
	}
	name := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	if !runName.MatchString(run) {
		return nil, fmt.Errorf("bus %s: %w", name, ErrRun)
	}
	if err := checkAddress(u); err != nil {
		return nil, fmt.Errorf("bus %s: %w", name, err)
	}
	cfg, err := streamConfig(run, u.Query())
	if err != nil {
		return nil, fmt.Errorf("bus %s: %w", name, err)
	}
	b := &Bus{name: name, run: run, stream: cfg.Name, cfg: cfg, timeout: opt.Timeout, maxLine: opt.MaxLine}
	if b.timeout <= 0 {
		b.timeout = bus.DefaultTimeout
	}
	if b.maxLine <= 0 {
		b.maxLine = bus.DefaultMaxLine
	}
	server := (&url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host}).String()
	nopts, err := connectOptions(opt, b.timeout)
	if err != nil {
		return nil, fmt.Errorf("bus %s: %w", name, err)
	}
	b.refusal, b.denied = make(chan struct{}, 1), map[string]error{}
	nopts = append(nopts, nats.ErrorHandler(b.asyncError))
	b.nc, err = connect(ctx, server, nopts)
	if err != nil {
		var ne net.Error
		if errors.Is(err, nats.ErrTimeout) || errors.As(err, &ne) && ne.Timeout() {
			return nil, fmt.Errorf("bus %s: connect: %w within %v: %w", name, ErrNoReply, b.timeout, err)
		}
		return nil, fmt.Errorf("bus %s: connect: %w", name, err)
	}
	b.js, err = jetstream.New(b.nc)
	if err != nil {
		b.nc.Close()
		return nil, fmt.Errorf("bus %s: %w", name, err)
	}
	return b, nil
}

// connect is nats.Connect, which takes no context, ended by ctx: a
// connection made after ctx ended is closed.
func connect(ctx context.Context, server string, opts []nats.Option) (*nats.Conn, error) {
	type result struct {
		nc  *nats.Conn
		err error
	}
	done := make(chan result, 1)
	go func() {
		nc, err := nats.Connect(server, opts...)
		done <- result{nc, err}
	}()
	select {
	case r := <-done:
		return r.nc, r.err
	case <-ctx.Done():
		go func() {
			if r := <-done; r.nc != nil {
				r.nc.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// checkAddress checks the HOST:PORT of u, where a port may be left out
// (4222): without it, nats.Connect would look up a host named "nats" (no
// host) or fail at dialling, as a server that cannot be reached.
func checkAddress(u *url.URL) error {
	if u.Hostname() == "" {
		return fmt.Errorf("%w: no host", ErrAddress)
	}
	if !strings.HasSuffix(u.Host, ":") && u.Port() == "" {
		return nil
	}
	if n, err := strconv.Atoi(u.Port()); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%w: port %q", ErrAddress, u.Port())
	}
	return nil
}

// streamConfig is the stream of run with the limits of the URL's query.
func streamConfig(run string, q url.Values) (jetstream.StreamConfig, error) {
	cfg := jetstream.StreamConfig{
		Name:        "FLUXWATCH_" + run,
		Description: "fluxwatch peer-findings bus of run " + run,
		Subjects:    []string{"fluxwatch." + run + ".findings.*"},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Discard:     jetstream.DiscardOld,
		Duplicates:  10 * time.Minute,
	}
	for k, vs := range q {
		v := vs[len(vs)-1]
		var err error
		switch k {
		case "max-age":
			cfg.MaxAge, err = time.ParseDuration(v)
			if err == nil && cfg.MaxAge > 0 && cfg.MaxAge < cfg.Duplicates {
				cfg.Duplicates = cfg.MaxAge
			}
		case "max-bytes":
			cfg.MaxBytes, err = strconv.ParseInt(v, 10, 64)
		case "max-msgs":
			cfg.MaxMsgs, err = strconv.ParseInt(v, 10, 64)
		case "replicas":
			cfg.Replicas, err = strconv.Atoi(v)
		case "storage":
			cfg.Storage, err = choose(v, "file", jetstream.FileStorage, "memory", jetstream.MemoryStorage)
		case "retention":
			cfg.Retention, err = choose(v, "limits", jetstream.LimitsPolicy, "interest", jetstream.InterestPolicy)
		default:
			// Not quoted: an unknown parameter may be a credential
			// (?token=…), and messages never hold one.
			return cfg, fmt.Errorf("%w %s: unknown option (want max-age, max-bytes, max-msgs, replicas, storage or retention)", ErrOption, k)
		}
		if err != nil {
			return cfg, fmt.Errorf("%w %s=%q: %v", ErrOption, k, v, err)
		}
	}
	return cfg, nil
}

// choose is a, named an, or b, named bn, as v names it; else an error
// naming both.
func choose[T any](v, an string, a T, bn string, b T) (T, error) {
	switch v {
	case an:
		return a, nil
	case bn:
		return b, nil
	}
	return a, fmt.Errorf("want %s or %s", an, bn)
}

// connectOptions turns opt and the usual NATS variables into options of
// nats.Connect. Reconnection is left on (a restarted server is found
// again), but every request is bounded by the timeout.
func connectOptions(opt bus.Options, timeout time.Duration) ([]nats.Option, error) {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	o := []nats.Option{
		nats.Name("fluxwatch"),
		nats.Timeout(timeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(100 * time.Millisecond),
		// The default handlers print; fluxwatch reports errors itself
		// (the error handler is the Bus's: asyncError).
		nats.NoCallbacksAfterClientClose(),
	}
	creds := opt.Creds
	if creds == "" {
		creds = getenv("NATS_CREDS")
	}
	if creds != "" {
		o = append(o, nats.UserCredentials(creds))
	}
	if seed := getenv("NATS_NKEY"); seed != "" {
		n, err := nats.NkeyOptionFromSeed(seed)
		if err != nil {
			return nil, errors.New("NATS_NKEY: cannot read the seed file")
		}
		o = append(o, n)
	}
	if user := getenv("NATS_USER"); user != "" {
		o = append(o, nats.UserInfo(user, getenv("NATS_PASSWORD")))
	}
	if tok := getenv("NATS_TOKEN"); tok != "" {
		o = append(o, nats.Token(tok))
	}
	if ca := getenv("NATS_CA"); ca != "" {
		o = append(o, nats.RootCAs(ca))
	}
	if cert, key := getenv("NATS_CERT"), getenv("NATS_KEY"); cert != "" || key != "" {
		o = append(o, nats.ClientCert(cert, key))
	}
	return o, nil
}

// String returns nats://HOST:PORT/RUN, without credentials or query.
func (b *Bus) String() string { return b.name }

// Stream returns the name of the run's stream.
func (b *Bus) Stream() string { return b.stream }

// Subject returns the subject of records of a severity.
func (b *Bus) Subject(severity string) string { return "fluxwatch." + b.run + ".findings." + severity }

// Close closes the connection.
func (b *Bus) Close() error {
	b.nc.Close()
	return nil
}

// ensure creates the run's stream when it does not exist, within the
// account's limits (fitAccount).
func (b *Bus) ensure(ctx context.Context) (jetstream.Stream, error) {
	s, err := b.js.Stream(ctx, b.stream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		cfg := b.cfg
		if info, err := b.js.AccountInfo(ctx); err == nil {
			cfg = fitAccount(cfg, info.Limits)
		}
		s, err = b.js.CreateStream(ctx, cfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			s, err = b.js.Stream(ctx, b.stream)
		}
	}
	if why := storeFull(err); why != "" {
		return nil, fmt.Errorf("bus %s: stream %s: %w: %s: %w", b.name, b.stream, bus.ErrRefused, why, err)
	}
	if err != nil {
		return nil, b.stalled(ctx, "stream "+b.stream, err)
	}
	b.made.Store(true)
	return s, nil
}

// fitAccount returns cfg within the account's limits of one stream, where
// the server has some (a hub does: bus serve's --max-bytes): a stream asks
// for those bytes at most (none asked: that much), and then refuses new
// records when full rather than drop acknowledged ones. A server without
// such limits (a stock nats-server) takes cfg as the URL made it.
func fitAccount(cfg jetstream.StreamConfig, l jetstream.AccountLimits) jetstream.StreamConfig {
	limit := l.StoreMaxStreamBytes
	if cfg.Storage == jetstream.MemoryStorage {
		limit = l.MemoryMaxStreamBytes
	}
	if limit <= 0 {
		return cfg
	}
	if cfg.MaxBytes <= 0 || cfg.MaxBytes > limit {
		cfg.MaxBytes = limit
	}
	cfg.Discard = jetstream.DiscardNew
	return cfg
}

// stalled words err of a request about what: a deadline (of ctx, even
// cancelled since) is the server not answering in time; no responders is a
// server without JetStream (or whose JetStream is not ready yet).
func (b *Bus) stalled(ctx context.Context, what string, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
		return fmt.Errorf("bus %s: %s: %w within %v: %w", b.name, what, ErrNoReply, b.timeout, err)
	case errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrJetStreamNotEnabled):
		return fmt.Errorf("bus %s: %s: no JetStream on the server, or not ready yet (a nats-server needs -js): %w", b.name, what, err)
	}
	return fmt.Errorf("bus %s: %s: %w", b.name, what, err)
}

// MsgID returns the Nats-Msg-Id of an encoded record: the hex SHA-256 of its
// canonical line.
func MsgID(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// Append validates e and publishes its canonical line to
// fluxwatch.RUN.findings.<severity>, returning the stream sequence once the
// server acknowledged it (for a duplicate, the sequence of the stored copy).
// Publishing is retried with the same Nats-Msg-Id until the timeout (or
// ctx) ends, so a record is stored at most once whatever the retries.
func (b *Bus) Append(ctx context.Context, e bus.Entry) (int64, error) {
	if err := bus.Validate(e); err != nil {
		return 0, err
	}
	line := bus.Encode(e)
	if len(line)-1 > b.maxLine {
		return 0, fmt.Errorf("%w: the record is %d bytes, over the limit of %d", bus.ErrInvalid, len(line)-1, b.maxLine)
	}
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	if !b.made.Load() {
		if _, err := b.ensure(ctx); err != nil {
			return 0, err
		}
	}
	msg := &nats.Msg{Subject: b.Subject(e.Severity), Data: line}
	id := MsgID(line)
	var last error
	for {
		if refused := b.refused(msg.Subject); refused != nil {
			return 0, fmt.Errorf("bus %s: publish: %w", b.name, refused)
		}
		attempt, stop := context.WithTimeout(ctx, b.timeout/4)
		// A refusal of the server comes apart from the reply (which then
		// never comes): it ends the attempt.
		go func() {
			select {
			case <-b.refusal:
				stop()
			case <-attempt.Done():
			}
		}()
		// No retry of the library's on no responders: this loop retries,
		// after making the stream again.
		ack, err := b.js.PublishMsg(attempt, msg, jetstream.WithMsgID(id), jetstream.WithExpectStream(b.stream),
			jetstream.WithRetryAttempts(0))
		stop()
		if err == nil {
			return int64(ack.Sequence), nil
		}
		if refused := b.refused(msg.Subject); refused != nil {
			continue
		}
		if why := b.overLimit(err, len(line)); why != "" {
			return 0, fmt.Errorf("bus %s: publish: %w: %s: %w", b.name, bus.ErrRefused, why, err)
		}
		if final(err) {
			return 0, fmt.Errorf("bus %s: publish: %w", b.name, err)
		}
		if errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders) {
			// No stream takes the subject: deleted since it was made
			// (or the server's JetStream is not ready yet). Make it
			// again, as a first Append does.
			b.ensure(ctx)
		}
		last = err
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("bus %s: publish: %w within %v: %w", b.name, ErrNoReply, b.timeout, last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// asyncError is the connection's handler of errors the server sends apart
// from any reply: a permissions violation for a publish is kept, by
// subject, for Append to report. Others are dropped (the default handler
// prints; fluxwatch reports errors itself).
func (b *Bus) asyncError(_ *nats.Conn, _ *nats.Subscription, err error) {
	if !errors.Is(err, nats.ErrPermissionViolation) {
		return
	}
	// "nats: permissions violation: Permissions Violation for Publish to "SUBJECT""
	const to = "for publish to "
	msg := err.Error()
	i := strings.Index(strings.ToLower(msg), to)
	if i < 0 {
		return
	}
	b.mu.Lock()
	b.denied[strings.Trim(msg[i+len(to):], `"`)] = err
	b.mu.Unlock()
	select {
	case b.refusal <- struct{}{}:
	default:
	}
}

// refused returns the server's refusal of publishing to subject, or nil.
func (b *Bus) refused(subject string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.denied[subject]
}

// overLimit says which limit of the server a record of size bytes (its line
// and newline) is over when err is the refusal of publishing it for that
// limit, else "". A limit refuses for good: a full stream refuses until it
// loses records by age.
func (b *Bus) overLimit(err error, size int) string {
	var api *jetstream.APIError
	errors.As(err, &api)
	switch {
	case errors.Is(err, nats.ErrMaxPayload):
		return fmt.Sprintf("the record is %d bytes, over what the server takes (max_payload %d bytes, headers included)",
			size, b.nc.MaxPayload())
	case api == nil:
		return ""
	case api.ErrorCode == jetstream.JSErrCodeStreamMessageExceedsMaximum:
		return fmt.Sprintf("the record is %d bytes, over the stream's max_msg_size (headers included)", size)
	case api.ErrorCode == errCodeStoreFailed && strings.Contains(api.Description, "exceeded"):
		return fmt.Sprintf("the stream %s is full (%s)", b.stream, api.Description)
	}
	return storeFull(err)
}

// storeFull says that the server's store is full when err says so (a
// record, or a new stream, for which the server has no room left), else
// "".
func storeFull(err error) string {
	var api *jetstream.APIError
	if !errors.As(err, &api) {
		return ""
	}
	switch api.ErrorCode {
	case errCodeInsufficientResources, errCodeMemoryExceeded, errCodeStorageExceeded:
		return fmt.Sprintf("the server's store is full (%s)", api.Description)
	}
	return ""
}

// Codes of JetStream errors that package jetstream does not name.
const (
	errCodeInsufficientResources jetstream.ErrorCode = 10023 // the server's store is full
	errCodeMemoryExceeded        jetstream.ErrorCode = 10028 // its memory store is
	errCodeStorageExceeded       jetstream.ErrorCode = 10047 // no room to reserve a new stream's max_bytes
	// errCodeStoreFailed is a stream that failed to store a record: over
	// its max_bytes or max_msgs ("maximum bytes exceeded") when it discards
	// new records, for good; else (a store closing) for now.
	errCodeStoreFailed jetstream.ErrorCode = 10077
)

// final reports whether an error of publishing is the server's (or the
// client's) answer for good, which retrying cannot change: a record over
// the server's max_payload, an error of the JetStream API other than its
// being unavailable for now (503), a permission refused. Anything else (no
// reply, no responders, a connection lost) is retried.
func final(err error) bool {
	var api *jetstream.APIError
	switch {
	case errors.Is(err, nats.ErrMaxPayload), errors.Is(err, nats.ErrBadSubject), errors.Is(err, nats.ErrPermissionViolation),
		errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrConnectionClosed):
		return true
	case errors.As(err, &api):
		return api.Code != 503
	}
	return false
}

// Read reads the records stored when it is called, from stream sequence
// since (0 or 1: the first), through an ordered consumer. A missing stream
// is empty. It returns the sequence after the last record read.
func (b *Bus) Read(ctx context.Context, since int64, f bus.Filter, entry func(bus.Entry) error, diag func(parse.Diagnostic)) (int64, error) {
	if since < 1 {
		since = 1
	}
	ictx, cancel := context.WithTimeout(ctx, b.timeout)
	s, err := b.js.Stream(ictx, b.stream)
	cancel()
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return since, nil
	}
	if err != nil {
		return since, b.stalled(ictx, "stream "+b.stream, err)
	}
	st := s.CachedInfo().State
	last := st.LastSeq
	if st.Msgs == 0 || last < uint64(since) {
		return max(since, int64(last)+1), nil
	}
	next := since
	// Filtered here, not by subject: the last record must come, whatever
	// its severity, to know the snapshot is read.
	err = b.consume(ctx, s, since, "", b.timeout, nil, func(seq uint64, pending uint64) bool {
		next = int64(seq) + 1
		return seq < last && pending > 0
	}, f, entry, diag)
	return next, err
}

// Follow delivers the records from sequence since on, then each record as
// it is stored, until ctx is done. It creates the stream when it is
// missing, so it may start before the first writer. A server that cannot
// be reached when it starts is its error; later, a warning (diag), once
// until the server answers again. A stream deleted under it is waited for;
// a stream made again (deleted and created, or a server restarted on a new
// store) is read again from its first record, with a warning: its
// sequences are not the old stream's.
func (b *Bus) Follow(ctx context.Context, since int64, f bus.Filter, entry func(bus.Entry) error, diag func(parse.Diagnostic)) error {
	if since < 1 {
		since = 1
	}
	ictx, cancel := context.WithTimeout(ctx, b.timeout)
	s, err := b.ensure(ictx)
	cancel()
	if err != nil {
		return err
	}
	created := s.CachedInfo().Created
	only := ""
	switch f.Severity {
	case bus.Blocking, bus.Notable:
		only = f.Severity
	}
	// A follower outlives trouble between it and the server: when reading
	// fails (a consumer lost, a server restarting), it subscribes again from
	// the record after the last one it saw, until ctx ends. An error of the
	// caller's entry function ends it at once.
	next := since
	var stop error
	wrapped := func(e bus.Entry) error {
		if err := entry(e); err != nil {
			stop = err
			return err
		}
		return nil
	}
	warned := false // a warning was given since the server last answered
	warn := func(msg string, always bool) {
		if diag != nil && (always || !warned) {
			diag(parse.Diagnostic{Path: b.name, Level: parse.LevelWarning, Message: msg})
		}
		warned = true
	}
	// same reports whether the stream is still the one read (nil), and
	// else why not: deleted (jetstream.ErrStreamNotFound), made again
	// (errRemade), or the server's silence.
	same := func(ctx context.Context) error {
		ictx, cancel := context.WithTimeout(ctx, b.timeout)
		defer cancel()
		cur, err := b.js.Stream(ictx, b.stream)
		switch {
		case err != nil:
			return b.stalled(ictx, "stream "+b.stream, err)
		case !cur.CachedInfo().Created.Equal(created):
			return errRemade
		}
		warned = false
		return nil
	}
	for {
		err = b.consume(ctx, s, next, only, 0, same, func(seq, _ uint64) bool {
			next, warned = int64(seq)+1, false
			return true
		}, f, wrapped, diag)
		switch {
		case ctx.Err() != nil:
			return nil
		case stop != nil:
			return stop
		case err == nil:
			continue
		}
		if !errors.Is(err, errRemade) && !errors.Is(err, jetstream.ErrStreamNotFound) {
			warn(fmt.Sprintf("follow: %v; reading again from record %d", err, next), false)
		}
		// Before reading again: is it the same stream?
		ictx, cancel := context.WithTimeout(ctx, b.timeout)
		cur, err := b.js.Stream(ictx, b.stream)
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, jetstream.ErrStreamNotFound):
			warn(fmt.Sprintf("follow: the stream %s was deleted; waiting for it to be made again", b.stream), false)
		case err != nil:
			warn(fmt.Sprintf("follow: %v; reading again from record %d", b.stalled(ictx, "stream "+b.stream, err), next), false)
		case !cur.CachedInfo().Created.Equal(created):
			s, created, next = cur, cur.CachedInfo().Created, 1
			warn(fmt.Sprintf("follow: the stream %s was made again: reading it from its first record", b.stream), true)
			warned = false
			continue
		default:
			s = cur
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// errRemade is the error of a follower whose stream was deleted and made
// again.
var errRemade = errors.New("the stream was made again")

// checkEvery is how often a follower waiting for a record makes sure its
// stream is still the one it reads.
const checkEvery = time.Second

// consume reads the stream from sequence since (only the subject of the
// severity only, when not "") through an ordered consumer until more
// returns false after a message, ctx is done, no message came for idle (>
// 0), or an error. With same (a follower), it calls same every checkEvery
// without a message, and before a message of a consumer that the ordered
// consumer made again by itself; an error of same ends it.
func (b *Bus) consume(ctx context.Context, s jetstream.Stream, since int64, only string, idle time.Duration,
	same func(context.Context) error, more func(seq, pending uint64) bool, f bus.Filter, entry func(bus.Entry) error, diag func(parse.Diagnostic)) error {
	cfg := jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   uint64(since),
		// Once only: a consumer that cannot be made again (its stream
		// deleted, the server gone) is an error of Next, which the
		// caller words and handles, rather than retries for ever that
		// no context bounds.
		MaxResetAttempts: 1,
	}
	if only != "" {
		cfg.FilterSubjects = []string{b.Subject(only)}
	}
	cctx, cancel := context.WithTimeout(ctx, b.timeout)
	c, err := s.OrderedConsumer(cctx, cfg)
	cancel()
	if err != nil {
		return b.stalled(cctx, "consumer", err)
	}
	defer b.forget(c)
	it, err := c.Messages()
	if err != nil {
		return fmt.Errorf("bus %s: consumer: %w", b.name, err)
	}
	defer it.Stop()
	// A follower waiting for the next record hears of a lost connection at
	// once, not when the server is back: it says so and subscribes again.
	wait, lost := b.whileConnected(ctx)
	defer lost(nil)
	dec := bus.NewDecoder(b.maxLine)
	consumer := ""
	if info := c.CachedInfo(); info != nil {
		consumer = info.Name
	}
	for {
		nctx, cancel := wait, context.CancelFunc(func() {})
		switch {
		case idle > 0:
			nctx, cancel = context.WithTimeout(wait, idle)
		case same != nil:
			nctx, cancel = context.WithTimeout(wait, checkEvery)
		}
		m, err := it.Next(jetstream.NextContext(nctx))
		cancel()
		if err != nil {
			switch {
			case ctx.Err() != nil:
				return ctx.Err()
			case errors.Is(context.Cause(wait), errLost):
				return fmt.Errorf("bus %s: read: %w", b.name, errLost)
			case nctx.Err() != nil && same != nil:
				if err := same(wait); err != nil {
					return err
				}
				continue
			case nctx.Err() != nil:
				return fmt.Errorf("bus %s: read: no record from the server within %v", b.name, idle)
			}
			return fmt.Errorf("bus %s: read: %w", b.name, err)
		}
		md, err := m.Metadata()
		if err != nil {
			return fmt.Errorf("bus %s: read: %w", b.name, err)
		}
		if md.Consumer != consumer {
			if same != nil {
				// Made again by the ordered consumer: perhaps on a
				// stream made again, whose sequences are not ours.
				if err := same(wait); err != nil {
					return err
				}
			}
			consumer = md.Consumer
		}
		seq := md.Sequence.Stream
		if err := b.deliver(dec, m.Data(), seq, f, entry, diag); err != nil {
			return err
		}
		if !more(seq, md.NumPending) {
			return nil
		}
	}
}

// forget deletes the server's consumer behind c, which would otherwise
// stay for the five minutes of an ordered consumer's inactivity threshold:
// a server counts them, and refuses new ones past its limit (a thousand
// reads in five minutes did). It waits a second at most: a server that
// is gone drops it by itself.
func (b *Bus) forget(c jetstream.Consumer) {
	info := c.CachedInfo()
	if info == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), min(b.timeout, time.Second))
	defer cancel()
	b.js.DeleteConsumer(ctx, b.stream, info.Name)
}

// errLost is the cause of the context of whileConnected once the
// connection is lost.
var errLost = errors.New("the connection to the server was lost")

// whileConnected returns a context of ctx that ends (cause errLost) when the
// connection to the server is lost, and its cancel, which must be called.
func (b *Bus) whileConnected(ctx context.Context) (context.Context, context.CancelCauseFunc) {
	wait, cancel := context.WithCancelCause(ctx)
	ch := b.nc.StatusChanged(nats.DISCONNECTED, nats.RECONNECTING)
	if b.nc.Status() != nats.CONNECTED {
		// Lost before the listener was there: no change is coming to
		// say so (it stays RECONNECTING until the server is back).
		b.nc.RemoveStatusListener(ch)
		cancel(errLost)
		return wait, cancel
	}
	go func() {
		defer b.nc.RemoveStatusListener(ch)
		select {
		case _, ok := <-ch:
			if ok {
				cancel(errLost)
			}
		case <-wait.Done():
		}
	}()
	return wait, cancel
}

// deliver decodes one record (a canonical line) at sequence seq with dec,
// which holds nothing between records: each ends with its newline.
func (b *Bus) deliver(dec *bus.Decoder, data []byte, seq uint64, f bus.Filter, entry func(bus.Entry) error, diag func(parse.Diagnostic)) error {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		data = append(data[:len(data):len(data)], '\n')
	}
	var err error
	dec.Feed(data, func(e bus.Entry) {
		e.Offset, e.Line = int64(seq), int(seq)
		if err == nil && f.Match(e) {
			err = entry(e)
		}
	}, func(d parse.Diagnostic) {
		d.Path, d.Line = b.name, int(seq)
		if diag != nil {
			diag(d)
		}
	})
	return err
}
