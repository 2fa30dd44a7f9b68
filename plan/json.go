package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
)

// approachJSON is one element of write-finding's --approaches array. It
// accepts the seed's names (context, questions) and the §4.1 names
// (approach_detail, required_clarifying_questions).
type approachJSON struct {
	Number            json.Number       `json:"number"`
	Variant           *string           `json:"variant"`
	IsVariant         bool              `json:"is_variant"`
	Description       string            `json:"description"`
	Context           string            `json:"context"`
	Detail            string            `json:"approach_detail"`
	RelevantFiles     []string          `json:"relevant_files"`
	Questions         []json.RawMessage `json:"questions"`
	RequiredQuestions []json.RawMessage `json:"required_clarifying_questions"`
}

// ParseApproachesJSON reads write-finding's --approaches: a JSON array of
// objects {number, variant, is_variant, description, context or
// approach_detail, relevant_files, questions or required_clarifying_questions}
// where a question is a string or {"question": "…"}. Unknown fields are
// errors. The result still has to pass ValidApproaches. Errors: ErrInvalidJSON,
// ErrInvalidNumber.
func ParseApproachesJSON(data []byte) ([]parse.Approach, error) {
	const suggestion = `pass a JSON array such as [{"number":1,"description":"…","context":"…","relevant_files":["a.go"],"questions":["q?"]}]`
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, newError(ErrInvalidJSON, suggestion, "--approaches is not a JSON array: %v", err)
	}
	out := make([]parse.Approach, 0, len(raw))
	for i, r := range raw {
		var in approachJSON
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		dec.UseNumber()
		if err := dec.Decode(&in); err != nil {
			return nil, newError(ErrInvalidJSON, suggestion, "--approaches[%d]: %v", i, strings.TrimPrefix(err.Error(), "json: "))
		}
		if in.Number == "" {
			return nil, newError(ErrInvalidNumber, suggestion, "--approaches[%d]: no number", i)
		}
		n, err := ParseNumber(in.Number.String())
		if err != nil {
			return nil, err
		}
		a := parse.Approach{Number: n, IsVariant: in.IsVariant, Description: in.Description, RelevantFiles: in.RelevantFiles}
		if in.Variant != nil {
			a.Variant = *in.Variant
		}
		switch {
		case in.Context != "" && in.Detail != "" && in.Context != in.Detail:
			return nil, newError(ErrInvalidJSON, "give context or approach_detail, not both", "--approaches[%d]: both context and approach_detail", i)
		case in.Detail != "":
			a.Detail = in.Detail
		default:
			a.Detail = in.Context
		}
		for _, q := range append(in.Questions, in.RequiredQuestions...) {
			text, err := questionJSON(q)
			if err != nil {
				return nil, newError(ErrInvalidJSON, suggestion, "--approaches[%d]: %v", i, err)
			}
			if text != "" {
				a.Questions = append(a.Questions, text)
			}
		}
		out = append(out, a)
	}
	return out, nil
}

func questionJSON(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var q struct {
		Question string `json:"question"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return "", fmt.Errorf("a question must be a string or {\"question\": \"…\"}: %s", raw)
	}
	return q.Question, nil
}
