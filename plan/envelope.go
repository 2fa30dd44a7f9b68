package plan

import (
	"encoding/json"
	"io"
)

// EnvelopeError is the error of an envelope.
type EnvelopeError struct {
	Type       string `json:"type"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion"`
}

// Envelope is what plan prints: {"status": "success", "data": …} or
// {"status": "error", "error": …}.
type Envelope struct {
	Status string         `json:"status"`
	Data   any            `json:"data,omitempty"`
	Error  *EnvelopeError `json:"error,omitempty"`
}

// WriteJSON writes v as indented JSON, HTML characters unescaped: the
// output of plan and discover.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
