package main

import (
	"encoding/json"
	"io"
)

// This file holds the JSON envelope that plan and discover print: one
// object with a status and the data, or the error with a suggestion.

// envelopeError is the error of an envelope.
type envelopeError struct {
	Type       string `json:"type"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion"`
}

// envelope is what plan prints: {"status": "success", "data": …} or
// {"status": "error", "error": …}.
type envelope struct {
	Status string         `json:"status"`
	Data   any            `json:"data,omitempty"`
	Error  *envelopeError `json:"error,omitempty"`
}

// writeJSON writes v as indented JSON, HTML characters unescaped.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
