package hub

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fluxwatch/fluxwatch/bus"
)

// Limits bound what a hub keeps. A writer cannot go past them: the server
// refuses the record (a clear error, naming the limit), and a full stream
// never makes room by dropping acknowledged records.
//
// The server reserves MaxBytes of its store for each stream, so MaxStore
// bounds how many streams exist at once (MaxStore / MaxBytes); a stream
// whose every record has aged out (MaxAge after its last record) is
// deleted, giving its reservation back.
type Limits struct {
	// MaxLine is the longest record a writer may store, its line without
	// the newline, as finding write's --max-line (0: bus.DefaultMaxLine,
	// 1 MiB).
	MaxLine int
	// MaxBytes is the most a stream (a run) holds (0: DefaultMaxBytes).
	MaxBytes int64
	// MaxAge is how long a record is kept (0: DefaultMaxAge).
	MaxAge time.Duration
	// MaxStore is the most all streams hold together on disk (0: the
	// server's own bound, three quarters of the store's free disk when it
	// starts).
	MaxStore int64
}

// HeaderRoom is what a message may hold beyond its record's line and
// newline: the server counts the headers (natsbus's Nats-Msg-Id and
// expected stream, some 150 bytes) in its max_payload and a stream's
// max_msg_size.
const HeaderRoom = 1024

// msgSize is the largest message a record of MaxLine may be.
func (l Limits) msgSize() int32 { return int32(l.MaxLine + 1 + HeaderRoom) }

// Defaults of Limits.
const (
	DefaultMaxBytes = 256 << 20
	DefaultMaxAge   = 30 * 24 * time.Hour
)

func (l Limits) withDefaults() (Limits, error) {
	if l.MaxLine == 0 {
		l.MaxLine = bus.DefaultMaxLine
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxAge == 0 {
		l.MaxAge = DefaultMaxAge
	}
	switch {
	case l.MaxLine < 0 || l.MaxLine > math.MaxInt32-1-HeaderRoom:
		return l, fmt.Errorf("--max-line %d: want 1 to %d bytes", l.MaxLine, math.MaxInt32-1-HeaderRoom)
	case l.MaxBytes < 0 || l.MaxAge < 0 || l.MaxStore < 0:
		return l, errors.New("--max-bytes, --max-age and --max-store must be above 0")
	case l.MaxStore > 0 && l.MaxBytes > l.MaxStore:
		return l, fmt.Errorf("--max-bytes %d is over --max-store %d", l.MaxBytes, l.MaxStore)
	case int64(l.MaxLine) >= l.MaxBytes:
		return l, fmt.Errorf("--max-line %d does not fit in --max-bytes %d", l.MaxLine, l.MaxBytes)
	case l.MaxAge < time.Second:
		return l, fmt.Errorf("--max-age %v: want a second or more", l.MaxAge)
	}
	return l, nil
}

// applyAccount sets the limits the server checks itself, at once, for
// every request of the account clients use: a stream that does not ask
// for MaxBytes or less is refused. (All streams together are bounded by the server's
// own totals: MaxStore on disk, as much in memory as one stream may hold.)
func (l Limits) applyAccount(srv *server.Server) error {
	return srv.GlobalAccount().UpdateJetStreamLimits(map[string]server.JetStreamAccountLimits{"": {
		MaxMemory:            -1,
		MaxStore:             -1,
		MaxStreams:           -1,
		MaxConsumers:         -1,
		MaxAckPending:        -1,
		MemoryMaxStreamBytes: l.MaxBytes,
		StoreMaxStreamBytes:  l.MaxBytes,
		// A stream must say its bytes, at most MaxBytes, when it is
		// made: it is within the limits from its first record (natsbus
		// asks the account, fitAccount).
		MaxBytesRequired: true,
	}})
}

// clamp returns cfg within the limits, and whether it changed: MaxAge,
// MaxBytes and MaxMsgSize at most the limits (none is "no limit", so it
// is the limit too), new records refused when the stream is full
// (DiscardNew) rather than old ones dropped, and a duplicate window no
// longer than MaxAge, as the server wants.
func (l Limits) clamp(cfg jetstream.StreamConfig) (jetstream.StreamConfig, bool) {
	old := cfg
	if cfg.MaxAge <= 0 || cfg.MaxAge > l.MaxAge {
		cfg.MaxAge = l.MaxAge
	}
	if cfg.MaxBytes <= 0 || cfg.MaxBytes > l.MaxBytes {
		cfg.MaxBytes = l.MaxBytes
	}
	if size := l.msgSize(); cfg.MaxMsgSize <= 0 || cfg.MaxMsgSize > size {
		cfg.MaxMsgSize = size
	}
	cfg.Discard = jetstream.DiscardNew
	if cfg.Duplicates > cfg.MaxAge {
		cfg.Duplicates = cfg.MaxAge
	}
	changed := cfg.MaxAge != old.MaxAge || cfg.MaxBytes != old.MaxBytes || cfg.MaxMsgSize != old.MaxMsgSize ||
		cfg.Discard != old.Discard || cfg.Duplicates != old.Duplicates
	return cfg, changed
}

// enforcer is the hub's own connection: it puts every stream within the
// limits as it is made or changed (the server's advisories say when), and
// every stream there is when it starts (a store of an earlier hub), and
// at each sweep every stream again, deleting the runs' streams whose
// records all aged out.
//
// The server sends a stream's created advisory before the stream can be
// looked up (nats-server 2.15's addStream registers it with its account
// last), so the lookup of enforce may find nothing: the enforcer looks
// again, sooner at first, for lookAgainFor. The sweep is the last resort,
// for a stream still missed then: it puts every stream within the limits
// too. Before, a missed stream kept no MaxAge until the next sweep, a
// minute on with the default limits (TestStreamLimitsEnforced failed under
// load), and before that was never put within them.
type enforcer struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	limits Limits
	every  time.Duration // between sweeps
	wg     sync.WaitGroup
	work   chan lookup
	done   chan struct{}
	once   sync.Once
}

// lookup is a stream for the enforcer to look at, and how long it has
// waited since the lookup first found nothing (0: not yet looked up).
type lookup struct {
	name   string
	waited time.Duration
}

// lookAgainFor bounds how long a stream named by an advisory and not
// found is looked up again: the stream the server has not registered yet
// shows up within it even on a loaded machine; one deleted meanwhile
// costs a lookup every second or so until then.
const lookAgainFor = 30 * time.Second

// startEnforcer connects to srv in process with opts and starts
// enforcing.
func startEnforcer(srv *server.Server, opts []nats.Option, limits Limits) (*enforcer, error) {
	opts = append(opts, nats.InProcessServer(srv), nats.Name("fluxwatch-hub"), nats.NoCallbacksAfterClientClose(),
		nats.MaxReconnects(-1))
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, fmt.Errorf("the hub's own connection: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	e := &enforcer{nc: nc, js: js, limits: limits, every: min(time.Minute, max(limits.MaxAge/4, 100*time.Millisecond)),
		work: make(chan lookup, 1024), done: make(chan struct{})}
	// Made or changed: look at it (the advisory's subject ends with the
	// stream's name).
	for _, subj := range []string{server.JSAdvisoryStreamCreatedPre + ".*", server.JSAdvisoryStreamUpdatedPre + ".*"} {
		if _, err := nc.Subscribe(subj, func(m *nats.Msg) {
			name := m.Subject[len(subj)-1:]
			e.queue(lookup{name: name})
		}); err != nil {
			nc.Close()
			return nil, fmt.Errorf("the hub's own connection: %w", err)
		}
	}
	if err := nc.Flush(); err != nil {
		nc.Close()
		return nil, fmt.Errorf("the hub's own connection: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	names := js.StreamNames(ctx)
	var existing []string
	for n := range names.Name() {
		existing = append(existing, n)
	}
	if err := names.Err(); err != nil {
		nc.Close()
		return nil, fmt.Errorf("the streams of the store: %w", err)
	}
	for _, n := range existing {
		// One that cannot be put within them (no room left to reserve
		// its bytes, after --max-store was lowered) stays as it is: the
		// hub still starts, and serves the others.
		e.enforce(n)
	}
	e.wg.Add(1)
	go e.run()
	return e, nil
}

func (e *enforcer) run() {
	defer e.wg.Done()
	sweep := time.NewTicker(e.every)
	defer sweep.Stop()
	for {
		select {
		case l := <-e.work:
			if !errors.Is(e.enforce(l.name), jetstream.ErrStreamNotFound) || l.waited >= lookAgainFor {
				continue // within the limits, or deleted meanwhile: the sweep has the rest
			}
			// Not registered yet, or deleted: look again, at 10 ms, 20 ms, … up to every second.
			wait := min(max(l.waited, 10*time.Millisecond), time.Second)
			time.AfterFunc(wait, func() { e.queue(lookup{name: l.name, waited: l.waited + wait}) })
		case <-sweep.C:
			e.sweep()
		case <-e.done:
			return
		}
	}
}

// sweep puts every stream within the limits (one whose advisory enforce
// missed) and deletes the runs' streams that hold nothing any more, their
// every record aged out (or none written) MaxAge ago: each holds a
// reservation of MaxBytes of the store, which new runs need.
func (e *enforcer) sweep() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	streams := e.js.ListStreams(ctx)
	var idle []string
	var outside []jetstream.StreamConfig
	for info := range streams.Info() {
		if cfg, changed := e.limits.clamp(info.Config); changed {
			outside = append(outside, cfg)
			continue // its age is not the limits' yet
		}
		last := info.State.LastTime
		if last.IsZero() {
			last = info.Created
		}
		if strings.HasPrefix(info.Config.Name, "FLUXWATCH_") && info.State.Msgs == 0 && time.Since(last) > e.limits.MaxAge {
			idle = append(idle, info.Config.Name)
		}
	}
	for _, cfg := range outside {
		e.js.UpdateStream(ctx, cfg) // deleted meanwhile, or no room: the next sweep tries again
	}
	for _, name := range idle {
		e.js.DeleteStream(ctx, name) // written to meanwhile: a writer makes it again
	}
}

// queue hands l to the enforcer, unless it has stopped.
func (e *enforcer) queue(l lookup) {
	select {
	case e.work <- l:
	case <-e.done:
	}
}

// enforce puts the stream name within the limits. A stream that is not
// there is jetstream.ErrStreamNotFound.
func (e *enforcer) enforce(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := e.js.Stream(ctx, name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return err
	}
	if err != nil {
		return fmt.Errorf("stream %s: %w", name, err)
	}
	cfg, changed := e.limits.clamp(s.CachedInfo().Config)
	if !changed {
		return nil
	}
	if _, err := e.js.UpdateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return fmt.Errorf("stream %s: within the limits: %w", name, err)
	}
	return nil
}

// stop ends the enforcing and closes the connection; again, it does
// nothing.
func (e *enforcer) stop() {
	e.once.Do(func() {
		close(e.done)
		e.wg.Wait()
		e.nc.Close()
	})
}
