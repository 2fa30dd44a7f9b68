package bus

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// RelayOptions tune Relay.
type RelayOptions struct {
	// Once copies what is on both sides now and returns, instead of
	// following both until ctx is done.
	Once bool
	// ToStream and ToFile choose the directions: file to stream, stream to
	// file. Relay copies nothing in a direction not asked for.
	ToStream, ToFile bool
	// Diag receives the warnings: undecodable records, a side that does
	// not answer, a record a side refuses. Nil discards them.
	Diag func(parse.Diagnostic)
	// Retry is how long Relay waits before it appends again to a side
	// that did not answer; <= 0 means 250ms.
	Retry time.Duration
}

// Relay mirrors the findings of file into stream and of stream into file
// (any two backends; the names say their usual roles), each record once: a
// record already on the other side (same canonical line, Encode) is not
// copied, so relaying twice, or both ways, copies each record once.
// Records that are not valid findings (stall events) stay where they are.
//
// A side whose store does not answer (an error wrapping ErrUnavailable) is
// waited for, with one warning, until ctx ends: a running relay outlives a
// restart of its server, and loses no record. A record a side refuses for
// good (ErrRefused) is a warning and stays on its side. Any other error
// ends the relay. It returns nil when ctx ends.
func Relay(ctx context.Context, file, stream Backend, opt RelayOptions) error {
	r := &relay{file: file, stream: stream, diag: opt.Diag, retry: opt.Retry, seen: map[[32]byte]bool{}}
	if r.diag == nil {
		r.diag = func(parse.Diagnostic) {}
	}
	if r.retry <= 0 {
		r.retry = 250 * time.Millisecond
	}
	return r.run(ctx, opt.Once, opt.ToStream, opt.ToFile)
}

// relay copies records between a file bus and a stream, each record once:
// seen holds the SHA-256 of the canonical line of every record on either
// side, so a copied record coming back is not copied again.
type relay struct {
	file, stream Backend
	diag         func(parse.Diagnostic)
	retry        time.Duration

	mu   sync.Mutex
	seen map[[32]byte]bool
	away map[Backend]bool // a side that did not answer, said once
}

// mark records e as present and reports whether it was new.
func (r *relay) mark(e Entry) bool {
	h := sha256.Sum256(Encode(e))
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen[h] {
		return false
	}
	r.seen[h] = true
	return true
}

// copyTo returns the function that appends each new finding to dst.
func (r *relay) copyTo(ctx context.Context, dst Backend) func(Entry) error {
	return func(e Entry) error {
		if e.Kind != EntryFinding || Validate(e) != nil || !r.mark(e) {
			return nil
		}
		return r.append(ctx, dst, e)
	}
}

// append appends e to dst, waiting for a dst that does not answer (see
// Relay); e, marked as seen already, is not lost.
func (r *relay) append(ctx context.Context, dst Backend, e Entry) error {
	for {
		_, err := dst.Append(ctx, e)
		if err == nil || ctx.Err() != nil {
			r.mu.Lock()
			delete(r.away, dst)
			r.mu.Unlock()
			return nil
		}
		if errors.Is(err, ErrRefused) {
			r.refused(dst, err)
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return fmt.Errorf("bus relay: to %s: %w", dst, err)
		}
		r.mu.Lock()
		said := r.away[dst]
		if r.away == nil {
			r.away = map[Backend]bool{}
		}
		r.away[dst] = true
		r.mu.Unlock()
		if !said {
			r.diag(parse.Diagnostic{Path: dst.String(), Level: parse.LevelWarning,
				Message: fmt.Sprintf("relay: %v; copying again when it answers", err)})
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(r.retry):
		}
	}
}

// refused warns that dst refused a record for good (err says which limit):
// the record stays on its side only.
func (r *relay) refused(dst Backend, err error) {
	r.diag(parse.Diagnostic{Path: dst.String(), Level: parse.LevelWarning,
		Message: fmt.Sprintf("relay: %v; the record stays on the other side only", err)})
}

func (r *relay) run(ctx context.Context, once, toStream, toFile bool) error {
	next, err := r.crossCopy(ctx, toStream, toFile)
	if err != nil || once {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	follow := func(src, dst Backend, since int64) {
		defer wg.Done()
		if err := src.Follow(ctx, since, Filter{}, r.copyTo(ctx, dst), r.diag); err != nil {
			errs <- err
			cancel()
		}
	}
	if toStream {
		wg.Add(1)
		go follow(r.file, r.stream, next[0])
	}
	if toFile {
		wg.Add(1)
		go follow(r.stream, r.file, next[1])
	}
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return errors.Join(all...)
}

// crossCopy reads both sides, marks every record of either as seen, and
// copies each finding present on one side only to the other (for the
// directions asked). It returns where each side's Follow goes on: the
// records it appends come after, and are seen already.
func (r *relay) crossCopy(ctx context.Context, toStream, toFile bool) (next [2]int64, err error) {
	sides := [2]map[[32]byte]bool{{}, {}}
	var entries [2][]Entry
	for i, side := range []Backend{r.file, r.stream} {
		next[i], err = side.Read(ctx, 0, Filter{}, func(e Entry) error {
			sides[i][sha256.Sum256(Encode(e))] = true
			r.mark(e)
			if e.Kind == EntryFinding && Validate(e) == nil {
				entries[i] = append(entries[i], e)
			}
			return nil
		}, r.diag)
		if err != nil {
			return next, fmt.Errorf("bus relay: %w", err)
		}
	}
	copyOver := func(from int, dst Backend) error {
		for _, e := range entries[from] {
			h := sha256.Sum256(Encode(e))
			if sides[1-from][h] {
				continue
			}
			sides[1-from][h] = true
			if _, err := dst.Append(ctx, e); errors.Is(err, ErrRefused) {
				r.refused(dst, err)
			} else if err != nil {
				return fmt.Errorf("bus relay: to %s: %w", dst, err)
			}
		}
		return nil
	}
	if toStream {
		if err := copyOver(0, r.stream); err != nil {
			return next, err
		}
	}
	if toFile {
		if err := copyOver(1, r.file); err != nil {
			return next, err
		}
	}
	return next, nil
}
