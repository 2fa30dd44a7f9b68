package parse

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Specialist is a specialist findings file, findings/{specialist}.yaml (SPEC §4.1).
type Specialist struct {
	Name       string     `json:"specialist_name"`
	Notes      string     `json:"notes"`
	Approaches []Approach `json:"approaches"`
	// Extra holds the values of the top-level keys this reader does not know,
	// as YAML (aliases expanded, comments dropped), so that a rewrite keeps
	// them: EncodeSpecialist writes them back after the known keys.
	Extra map[string]*yaml.Node `json:"-"`
}

// Approach is one approach of a specialist. Number N with Variant "" is a
// standalone approach; with Variant "A".."Z" it is one variant of N.
type Approach struct {
	Number        int      `json:"number"`
	Variant       string   `json:"variant"`
	IsVariant     bool     `json:"is_variant"`
	Description   string   `json:"description"`
	RelevantFiles []string `json:"relevant_files"`
	// Questions are the required clarifying questions; AddressedQuestions the
	// ones the user has answered (envoy's user_addressed_questions).
	Questions          []string `json:"required_clarifying_questions"`
	AddressedQuestions []string `json:"user_addressed_questions,omitempty"`
	// Answers are the user's answers, in the order read, one per addressed
	// question (AddressedQuestions lists the same questions).
	Answers []Answer `json:"answers,omitempty"`
	// PendingRefinement is the revision asked of the specialist (envoy:
	// user_requested_changes); "" when none is pending.
	PendingRefinement string `json:"pending_refinement"`
	Detail            string `json:"approach_detail"`
	// Line is the line of the approach in its file (0 when not read from one).
	Line int `json:"-"`
	// Extra holds the keys of the approach this reader does not know, as
	// for Specialist.Extra.
	Extra map[string]*yaml.Node `json:"-"`
}

// Answer is a clarifying question and the user's answer to it.
type Answer struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// ID returns the approach id: "N" for a standalone approach, "N_L" for a variant.
func (a Approach) ID() string {
	if a.Variant == "" {
		return strconv.Itoa(a.Number)
	}
	return strconv.Itoa(a.Number) + "_" + a.Variant
}

// Unanswered returns the required clarifying questions the user has not
// answered, in order.
func (a Approach) Unanswered() []string {
	done := make(map[string]bool, len(a.AddressedQuestions))
	for _, q := range a.AddressedQuestions {
		done[q] = true
	}
	var out []string
	for _, q := range a.Questions {
		if !done[q] {
			out = append(out, q)
		}
	}
	return out
}

// DesignManifest is design/manifest.yaml.
type DesignManifest struct {
	Designs []Design `json:"designs"`
}

// Design is one entry of a design manifest.
type Design struct {
	ScreenshotFileName string `json:"screenshot_file_name"`
	Description        string `json:"description"`
}

// FeatureManifest is a feature directory's MANIFEST.yaml (SPEC §4.3).
type FeatureManifest struct {
	FeatureName string `json:"feature_name"`
	FeatureSlug string `json:"feature_slug"`
	CreatedAt   string `json:"created_at"`
	CreatedBy   string `json:"created_by"`
	Description string `json:"description"`
	Status      string `json:"status"`
	// AgentsContributed and Artifacts accept plain strings or the seed
	// protocol's records ({agent, artifact, timestamp, status} and
	// {path, type, agent}); a record contributes its agent and its path.
	AgentsContributed []string `json:"agents_contributed"`
	Artifacts         []string `json:"artifacts"`
}
