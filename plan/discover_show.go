package plan

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/inert"
)

// This file is what discover shows: its JSON, and the question it asks on
// a terminal when the choice is not clear.

// DiscoverOutput is the JSON that discover prints.
type DiscoverOutput struct {
	Directory  *string        `json:"directory"` // null when nothing was found
	Tier       int            `json:"tier"`
	Score      *float64       `json:"score"`
	Source     string         `json:"source,omitempty"`
	Candidates []Candidate    `json:"candidates,omitempty"`
	Notes      []string       `json:"notes,omitempty"`
	Error      *EnvelopeError `json:"error,omitempty"`
}

// WriteDiscover prints res as discover's JSON on w, with perr when the
// discovery failed.
func WriteDiscover(w io.Writer, res Result, perr *Error) error {
	out := DiscoverOutput{Tier: res.Tier, Score: res.Score, Source: res.Source, Candidates: res.Candidates, Notes: res.Notes}
	if res.Directory != "" {
		out.Directory = &res.Directory
	}
	if perr != nil {
		out.Error = &EnvelopeError{Type: perr.Type, Message: perr.Message, Suggestion: perr.Suggestion}
	}
	return WriteJSON(w, out)
}

// Choose asks the user, on a terminal (answers read from in, the
// questions written to w), to pick one of the candidates of an ambiguous
// discovery, or to create a new directory with create. Three answers that
// are no choice, or the end of in, leave it ambiguous (ErrAmbiguous).
func Choose(in io.Reader, w io.Writer, o Options, c CreateOptions, res Result, create bool) (Result, error) {
	fmt.Fprintln(w, "Several recent feature directories could be meant, and none matches the task clearly:")
	for i, cand := range res.Candidates {
		name := cand.FeatureName
		if name == "" {
			name = cand.FeatureSlug
		}
		modified := cand.Modified
		if t, err := time.Parse(time.RFC3339, cand.Modified); err == nil {
			modified = t.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(w, "  %d) %s\n     %q, score %.3f, modified %s\n", i+1, inert.Line(cand.Directory), name, cand.Score, inert.Line(modified))
	}
	prompt := fmt.Sprintf("Choose 1-%d", len(res.Candidates))
	if create {
		fmt.Fprintln(w, "  c) create a new feature directory")
		prompt += " or c"
	}
	r := bufio.NewReader(in)
	for tries := 0; tries < 3; tries++ {
		fmt.Fprintf(w, "%s: ", prompt)
		line, err := r.ReadString('\n')
		answer := strings.TrimSpace(line)
		if create && strings.EqualFold(answer, "c") {
			created, cerr := Create(o, c)
			created.Notes = res.Notes
			return created, cerr
		}
		if n, perr := strconv.Atoi(answer); perr == nil && n >= 1 && n <= len(res.Candidates) {
			cand := res.Candidates[n-1]
			score := cand.Score
			return Result{Directory: cand.Directory, Tier: 2, Score: &score, Source: "chosen", Notes: res.Notes}, nil
		}
		if err != nil {
			break // end of input
		}
		fmt.Fprintf(w, "%q is not a choice.\n", answer)
	}
	return res, &Error{Type: ErrAmbiguous, Message: "no feature directory chosen",
		Suggestion: "pick one with --dir DIR"}
}
