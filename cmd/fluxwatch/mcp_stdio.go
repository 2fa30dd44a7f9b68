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

// orderedStdio lets a script pipe a whole MCP exchange into `fluxwatch mcp`
// (initialize, notifications/initialized, tools/list, tools/call, then end of
// input) and get every answer. It hands the server one message at a time and,
// after a request, waits for its response before reading the next message, so
// that a notification cannot overtake the request before it and end of input
// cannot cut off answers still being computed. A request that gets no answer
// within requestWait no longer holds the others back.
//
// An interactive client waits for each answer anyway; for it nothing changes
// but that requests are answered one after the other (every tool is quick).
type orderedStdio struct {
	in   *bufio.Reader
	out  io.Writer
	rest []byte // the part of the current message not yet handed over

	mu      sync.Mutex
	changed *sync.Cond
	open    map[string]bool // ids of requests handed over and not yet answered
}

const requestWait = 60 * time.Second

func newOrderedStdio(in io.Reader, out io.Writer) *orderedStdio {
	s := &orderedStdio{in: bufio.NewReaderSize(in, 64<<10), out: out, open: map[string]bool{}}
	s.changed = sync.NewCond(&s.mu)
	return s
}

// Read hands over the input one line (one message) at a time.
func (s *orderedStdio) Read(p []byte) (int, error) {
	if len(s.rest) == 0 {
		s.waitAnswered()
		line, err := s.in.ReadBytes('\n')
		if len(line) == 0 {
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

// Close is called by the transport when the session ends.
func (s *orderedStdio) Close() error { return nil }

// waitAnswered waits until every request handed over has been answered, or
// requestWait has passed.
func (s *orderedStdio) waitAnswered() {
	deadline := time.Now().Add(requestWait)
	timer := time.AfterFunc(requestWait, func() {
		s.mu.Lock()
		s.changed.Broadcast()
		s.mu.Unlock()
	})
	defer timer.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.open) > 0 && time.Now().Before(deadline) {
		s.changed.Wait()
	}
	clear(s.open)
}

// Write passes one outgoing message on and notes the request it answers.
func (s *orderedStdio) Write(p []byte) (int, error) {
	n, err := s.out.Write(p)
	if id, ok := messageID(p, false); ok {
		s.mu.Lock()
		delete(s.open, id)
		s.changed.Broadcast()
		s.mu.Unlock()
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
