package parse

// ReadReport parses one agent report (SPEC §2). It never fails: input it cannot
// read as an index is read by the prose fallback, and every deviation is a
// diagnostic. The diagnostics carry no path; callers add it with WithPath.
func ReadReport(data []byte) *Report {
	// Placeholder until the report parser lands: everything is malformed.
	return &Report{Status: StatusMalformed, Findings: []Finding{}, Improvements: []Improvement{}}
}
