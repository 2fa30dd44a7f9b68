package parse

// EvidenceClaim is a claim to check against the reviewed repository (SPEC
// §5.7): an evidence claim of one agent's finding, or one of its file:line
// references (Excerpt empty). synth makes them; a verifier (package
// evidence) checks them.
type EvidenceClaim struct {
	Agent string `json:"agent"`
	Claim
}

// Evidence statuses (SPEC §5.7): the Status of a ClaimResult.
const (
	EvidenceVerified    = "verified"
	EvidenceMoved       = "moved"
	EvidenceMismatch    = "mismatch"
	EvidenceMissingFile = "missing-file"
	EvidenceOutOfRange  = "out-of-range"
	// EvidenceSkipped: the file exists but was not read (binary, over the
	// size cap, not a regular file, unreadable). It neither grounds nor fails
	// a finding.
	EvidenceSkipped = "skipped"
)

// ClaimResult is the outcome of checking one claim.
type ClaimResult struct {
	EvidenceClaim
	Status string `json:"status"`
	// Found is where a moved excerpt really is ("path:12-14").
	Found string `json:"found,omitempty"`
	// Note says why a claim failed or was skipped ("no such file", "path
	// leaves the repository", "file has 40 lines", "binary file").
	Note string `json:"note,omitempty"`
}
