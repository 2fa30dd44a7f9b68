package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdio is the MCP server's standard input and output. It never holds a
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
//
// It hands the SDK only lines that are JSON-RPC messages: the SDK ends the
// whole session (and the answers still in flight) at the first line it
// cannot decode. A line that is not JSON, not a JSON-RPC message, longer
// than maxMessage (read through in bounded memory) or cut off by the end of
// input is answered here with a JSON-RPC error, said on the log, and
// skipped; the session goes on.
type stdio struct {
	in    *bufio.Reader
	out   io.Writer
	log   *slog.Logger
	drain time.Duration
	rest  []byte // the part of the current message not yet handed over
	line  int    // input lines read, for messages
	err   error  // the input's error (io.EOF at its end), once it came
	// batches is whether a batch is handed over: until initialize, and
	// after one asking for a protocol version from before 2025-06-18. In
	// later ones the SDK ends the session at a batch.
	batches bool

	wmu sync.Mutex // one message written at a time

	mu       sync.Mutex
	open     map[string]bool // ids of requests handed over and not yet answered
	answered chan struct{}   // a token after each answer
	closed   chan struct{}
	close    sync.Once
}

// maxMessage is the longest input line stdio hands over: the SDK's own
// default cap on one message.
const maxMessage = mcp.DefaultMaxLineLength

func newStdio(in io.Reader, out io.Writer, log *slog.Logger, drain time.Duration) *stdio {
	return &stdio{
		in:       bufio.NewReaderSize(in, 64<<10),
		out:      out,
		log:      log,
		drain:    drain,
		open:     map[string]bool{},
		answered: make(chan struct{}, 1),
		closed:   make(chan struct{}),
		batches:  true,
	}
}

// Read hands over the input one line (one message) at a time, noting the
// id of each request.
func (s *stdio) Read(p []byte) (int, error) {
	for len(s.rest) == 0 {
		if s.err != nil {
			if s.err == io.EOF {
				s.waitAnswered()
			}
			return 0, s.err
		}
		var line []byte
		var long bool
		line, long, s.err = s.readLine()
		if len(bytes.TrimSpace(line)) == 0 && !long {
			if len(line) > 0 {
				s.line++ // a blank line: nothing to hand over
			}
			continue
		}
		s.line++
		code, msg := invalidMessage(line, long, s.err != nil)
		if code == 0 && !s.batches && bytes.TrimSpace(line)[0] == '[' {
			code, msg = jsonrpc.CodeInvalidRequest, "a batch: not in MCP from protocol version 2025-06-18 on: dropped"
		}
		if code != 0 {
			s.refuse(line, code, fmt.Sprintf("input line %d: %s", s.line, msg))
			continue
		}
		if v, ok := initializeVersion(line); ok {
			s.batches = v == "2024-11-05" || v == "2025-03-26" // the versions with batches the SDK speaks
		}
		if line[len(line)-1] != '\n' {
			line = append(line, '\n') // the last message, with no newline after it
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

// readLine returns the next input line, its newline included (without one
// at the end of input), and the input's error. A line longer than
// maxMessage is read through to its end and dropped, in bounded memory:
// long is true, and line is nil.
func (s *stdio) readLine() (line []byte, long bool, err error) {
	for {
		frag, err := s.in.ReadSlice('\n')
		switch {
		case long:
		case len(line)+len(frag) > maxMessage:
			long, line = true, nil
		default:
			if len(line)+len(frag) > cap(line) {
				// Double (append grows a large slice by a quarter at a time).
				grown := make([]byte, len(line), min(max(2*cap(line), len(line)+len(frag)), maxMessage))
				line = grown[:copy(grown, line)]
			}
			line = append(line, frag...)
		}
		if err != bufio.ErrBufferFull {
			return line, long, err
		}
	}
}

// invalidMessage returns the JSON-RPC error code and message for a line the
// SDK would not take as one message, or 0 for one it takes (or a blank line).
// cut is whether the input ended in the line.
func invalidMessage(line []byte, long, cut bool) (int, string) {
	line = bytes.TrimSpace(line)
	switch {
	case long:
		return jsonrpc.CodeInvalidRequest, fmt.Sprintf("a message longer than %d bytes: dropped", maxMessage)
	case len(line) == 0:
		return 0, ""
	case !json.Valid(line) && cut:
		return jsonrpc.CodeParseError, "the input ended inside a message: dropped"
	case !json.Valid(line):
		return jsonrpc.CodeParseError, "not one JSON value: dropped"
	case line[0] == '[':
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil {
			return jsonrpc.CodeInvalidRequest, "not a JSON-RPC message: dropped"
		}
		if len(batch) == 0 {
			return jsonrpc.CodeInvalidRequest, "an empty batch: dropped"
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return jsonrpc.CodeInvalidRequest, fmt.Sprintf("not a JSON-RPC batch (%v): dropped", err)
			}
		}
	default:
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			return jsonrpc.CodeInvalidRequest, fmt.Sprintf("not a JSON-RPC message (%v): dropped", err)
		}
	}
	return 0, ""
}

// initializeVersion returns the protocol version an initialize request
// asks for (ok false for any other line).
func initializeVersion(line []byte) (string, bool) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "initialize" {
		return "", false
	}
	return m.Params.ProtocolVersion, true
}

// refuse answers a line that is not a message with a JSON-RPC error — with
// the line's id when it has a string or number one, else null, as JSON-RPC
// 2.0 asks — and says so on the log.
func (s *stdio) refuse(line []byte, code int, msg string) {
	s.log.Warn("mcp: " + msg)
	id := json.RawMessage("null")
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &m) == nil && len(m.ID) > 0 && (m.ID[0] == '"' || m.ID[0] == '-' || m.ID[0] >= '0' && m.ID[0] <= '9') {
		id = m.ID
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	s.wmu.Lock()
	s.out.Write(append(b, '\n'))
	s.wmu.Unlock()
}

// Close is called by the transport when the session ends: a Read waiting
// for answers gives up.
func (s *stdio) Close() error {
	s.close.Do(func() { close(s.closed) })
	return nil
}

// waitAnswered waits until every request handed over has been answered, or
// drain has passed, or the session was closed.
func (s *stdio) waitAnswered() {
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
func (s *stdio) Write(p []byte) (int, error) {
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
