package parse

import "strconv"

// Specialist is a specialist findings file, findings/{specialist}.yaml (SPEC §4.1).
type Specialist struct {
	Name       string     `json:"specialist_name"`
	Notes      string     `json:"notes"`
	Approaches []Approach `json:"approaches"`
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
	// PendingRefinement is the revision asked of the specialist (envoy:
	// user_requested_changes); "" when none is pending.
	PendingRefinement string `json:"pending_refinement"`
	Detail            string `json:"approach_detail"`
}

// ID returns the approach id: "N" for a standalone approach, "N_L" for a variant.
func (a Approach) ID() string {
	if a.Variant == "" {
		return strconv.Itoa(a.Number)
	}
	return strconv.Itoa(a.Number) + "_" + a.Variant
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
	FeatureName       string   `json:"feature_name"`
	FeatureSlug       string   `json:"feature_slug"`
	CreatedAt         string   `json:"created_at"`
	CreatedBy         string   `json:"created_by"`
	Description       string   `json:"description"`
	Status            string   `json:"status"`
	AgentsContributed []string `json:"agents_contributed"`
	Artifacts         []string `json:"artifacts"`
}

// ReadSpecialist decodes a specialist findings file, accepting both field-name
// generations of SPEC §4.1. Errors carry the line.
func ReadSpecialist(data []byte) (*Specialist, []Diagnostic, error) {
	// Placeholder until the YAML readers land.
	return &Specialist{}, nil, nil
}

// ReadDesignManifest decodes design/manifest.yaml.
func ReadDesignManifest(data []byte) (*DesignManifest, []Diagnostic, error) {
	// Placeholder until the YAML readers land.
	return &DesignManifest{}, nil, nil
}

// ReadFeatureManifest decodes a feature directory's MANIFEST.yaml.
func ReadFeatureManifest(data []byte) (*FeatureManifest, []Diagnostic, error) {
	// Placeholder until the YAML readers land.
	return &FeatureManifest{}, nil, nil
}
