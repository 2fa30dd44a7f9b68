package plan

import "github.com/fluxwatch/fluxwatch/parse"

// Head is what names an approach in both printed forms, ApproachView and
// SummaryView, where it is embedded: its fields print in their place.
type Head struct {
	ApproachID string  `json:"approach_id"`
	Number     int     `json:"number"`
	Variant    *string `json:"variant"` // null for a standalone approach
	IsVariant  bool    `json:"is_variant"`
}

// headOf returns the Head of approach a.
func headOf(a parse.Approach) Head {
	return Head{ApproachID: a.ID(), Number: a.Number, Variant: variant(a), IsVariant: a.Variant != ""}
}

// ApproachView is an approach as the plan commands print it.
type ApproachView struct {
	Specialist string `json:"specialist,omitempty"`
	Head
	// Variants lists the ids of every variant of this number, on variants.
	Variants      []string `json:"variants,omitempty"`
	Description   string   `json:"description"`
	RelevantFiles []string `json:"relevant_files"`
	// Questions are the required clarifying questions, Unanswered those the
	// user has not answered, Answered the user's answers.
	Questions         []string       `json:"required_clarifying_questions"`
	Unanswered        []string       `json:"unanswered_questions"`
	Answered          []parse.Answer `json:"user_addressed_questions"`
	PendingRefinement string         `json:"pending_refinement"`
	// Detail is the full context; left out of summaries.
	Detail *string `json:"approach_detail,omitempty"`
}

// View returns the printed form of approach a of specialist; siblings are
// the approaches of the same file (for the variant group). With full the
// detail is included.
func View(specialist string, a parse.Approach, siblings []parse.Approach, full bool) ApproachView {
	v := ApproachView{
		Specialist:        specialist,
		Head:              headOf(a),
		Description:       a.Description,
		RelevantFiles:     nonNil(a.RelevantFiles),
		Questions:         nonNil(a.Questions),
		Unanswered:        nonNil(a.Unanswered()),
		Answered:          a.Answers,
		PendingRefinement: a.PendingRefinement,
	}
	if v.Answered == nil {
		v.Answered = []parse.Answer{}
	}
	if a.Variant != "" {
		_, variants := ofNumber(siblings, a.Number)
		v.Variants = ids(variants)
	}
	if full {
		d := a.Detail
		v.Detail = &d
	}
	return v
}

// SummaryView is an approach in the list of get-findings without --full.
type SummaryView struct {
	Specialist string `json:"specialist"`
	Head
	Description       string   `json:"description"`
	RelevantFiles     []string `json:"relevant_files"`
	PendingRefinement string   `json:"pending_refinement"`
	Unanswered        int      `json:"unanswered_questions"`
}

// Summary returns the summary form of approach a of specialist.
func Summary(specialist string, a parse.Approach) SummaryView {
	return SummaryView{
		Specialist:        specialist,
		Head:              headOf(a),
		Description:       a.Description,
		RelevantFiles:     nonNil(a.RelevantFiles),
		PendingRefinement: a.PendingRefinement,
		Unanswered:        len(a.Unanswered()),
	}
}

// variant is a's variant letter, or nil (JSON null) when a is no variant.
func variant(a parse.Approach) *string {
	if a.Variant == "" {
		return nil
	}
	l := a.Variant
	return &l
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
