package synth

import _ "embed"

//go:embed findings.schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of findings.json.
func Schema() []byte { return append([]byte(nil), schema...) }
