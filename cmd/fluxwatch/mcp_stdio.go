package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// mcpStdio is the MCP server's standard input and output. It never holds a
// request back: the SDK serves every call in a goroutine of its own, in
// parallel, and answers each when it is done (initialize and notifications
// stay in order, as the SDK handles those one after the other).
//
// What it keeps from the old one-at-a-time reader is that end of input does
// not cut off answers still being computed (the SDK cancels every call in
// flight when its input ends): a script can pipe a whole exchange
// (initialize, notifications/initialized, tools/list, tools/call, then end
// of input) into `fluxwatch mcp` and get every answer. At end of input Read
// waits until every request it passed on has been answered — each call has a
// deadline, so this ends — or drain has passed, or Close was called, and only
// then reports io.EOF.
type mcpStdio struct {
	in    *bufio.Reader
	out   io.Writer
	drain time.Duration
	rest  []byte // the part of the current message not yet handed over

	wmu sync.Mutex // one message written at a time

	mu       sync.Mutex
	open     map[string]bool // ids of requests handed over and not yet answered
	answered chan struct{}   // a token after each answer
	closed   chan struct{}
	close    sync.Once
}

func newMCPStdio(in io.Reader, out io.Writer, drain time.Duration) *mcpStdio {
	return &mcpStdio{
		in:       bufio.NewReaderSize(in, 64<<10),
		out:      out,
		drain:    drain,
		open:     map[string]bool{},
		answered: make(chan struct{}, 1),
		closed:   make(chan struct{}),
	}
}

// Read hands over the input one line (one message) at a time, noting the
// id of each request.
func (s *mcpStdio) Read(p []byte) (int, error) {
	if len(s.rest) == 0 {
		line, err := s.in.ReadBytes('\n')
		if len(line) == 0 {
			if err == io.EOF {
				s.waitAnswered()
			}
			return 0, err
		}
		if id, ok := messageID(line, true); ok {
			s.mu.Lock()
			s.open[id] = true
			s.mu.Unlock()
		}
		s.rest = line
	}
	n := copy(p, s.rest)
	s.rest = s.rest[n:]
	return n, nil
}

// Close is called by the transport when the session ends: a Read waiting
// for answers gives up.
func (s *mcpStdio) Close() error {
	s.close.Do(func() { close(s.closed) })
	return nil
}

// waitAnswered waits until every request handed over has been answered, or
// drain has passed, or the session was closed.
func (s *mcpStdio) waitAnswered() {
	timer := time.NewTimer(s.drain)
	defer timer.Stop()
	for {
		s.mu.Lock()
		n := len(s.open)
		s.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-s.answered:
		case <-s.closed:
			return
		case <-timer.C:
			return
		}
	}
}

// Write passes one outgoing message on and notes the request it answers.
func (s *mcpStdio) Write(p []byte) (int, error) {
	s.wmu.Lock()
	n, err := s.out.Write(p)
	s.wmu.Unlock()
	if id, ok := messageID(p, false); ok {
		s.mu.Lock()
		delete(s.open, id)
		s.mu.Unlock()
		select {
		case s.answered <- struct{}{}:
		default: // a token is already waiting
		}
	}
	return n, err
}

// messageID returns the id of a JSON-RPC request (request true: it has a
// method) or of a response (request false: it has no method).
func messageID(line []byte, request bool) (string, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return "", false // a batch or garbage: not waited for
	}
	var m struct {
		ID     any             `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.ID == nil || (m.Method != nil) != request {
		return "", false
	}
	return fmt.Sprint(m.ID), true
}
