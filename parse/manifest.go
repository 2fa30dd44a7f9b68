package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/fluxwatch/fluxwatch/internal/inert"
)

// ManifestFile is the name of a run manifest in a run directory: what the
// orchestrator that launched the agents declares of the run.
const ManifestFile = "run.json"

// RunManifest is a run manifest (run.json): the provenance of the run, for
// every agent, and of each agent by name, with the same keys as a report's
// front matter (model, prompt_hash, tool_version, commit, started,
// finished, run_id, tokens, usage):
//
//	{"model": "sonnet", "commit": "0a1b2c3",
//	 "agents": {"fd-safety": {"model": "opus", "tokens": 48200}}}
type RunManifest struct {
	Run    Provenance
	Agents map[string]Provenance
}

// For returns what the manifest declares of agent: its own entry, each
// field it leaves unknown taken from the run's.
func (m *RunManifest) For(agent string) Provenance {
	if m == nil {
		return Provenance{}
	}
	return m.Agents[agent].Or(m.Run)
}

// Or returns p with each unknown field taken from q.
func (p Provenance) Or(q Provenance) Provenance {
	or := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	p.Model, p.PromptHash, p.ToolVersion = or(p.Model, q.Model), or(p.PromptHash, q.PromptHash), or(p.ToolVersion, q.ToolVersion)
	p.Commit, p.Started, p.Finished, p.RunID = or(p.Commit, q.Commit), or(p.Started, q.Started), or(p.Finished, q.Finished), or(p.RunID, q.RunID)
	p.Repository = or(p.Repository, q.Repository)
	if p.Tokens == 0 {
		p.Tokens = q.Tokens
	}
	return p
}

// ReadRunManifest decodes run.json. A value of the wrong type is a warning
// and left unknown; the error is for a file that is not a JSON object.
func ReadRunManifest(data []byte) (*RunManifest, []Diagnostic, error) {
	var top map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&top); err != nil || top == nil {
		if err == nil {
			err = fmt.Errorf("not a JSON object")
		}
		return nil, []Diagnostic{diag(1, LevelError, "run manifest: %s", inert.Collapse(err.Error()))}, err
	}
	var diags []Diagnostic
	m := &RunManifest{Agents: map[string]Provenance{}}
	m.Run = manifestProvenance(top, "", &diags)
	if raw, ok := top["agents"]; ok {
		var agents map[string]map[string]json.RawMessage
		if err := json.Unmarshal(raw, &agents); err != nil {
			diags = append(diags, diag(1, LevelWarning, "run manifest: agents is not an object of objects: ignored"))
		}
		for _, name := range slices.Sorted(maps.Keys(agents)) {
			if err := ValidName(name); err != nil {
				diags = append(diags, diag(1, LevelWarning, "run manifest: agent %q: %v: ignored", name, err))
				continue
			}
			m.Agents[name] = manifestProvenance(agents[name], name, &diags)
		}
	}
	return m, diags, nil
}

// manifestProvenance reads the provenance keys of one object of run.json
// (of agent, "" for the run).
func manifestProvenance(obj map[string]json.RawMessage, agent string, diags *[]Diagnostic) Provenance {
	scalars := map[string]string{}
	var usage []fmField
	hasUsage := false
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		raw := obj[k]
		var s string
		var n json.Number
		switch {
		case k == "agents" && agent == "":
		case k == "usage":
			var u map[string]json.Number
			if json.Unmarshal(raw, &u) == nil {
				hasUsage = true
				for _, uk := range []string{"total_tokens", "tokens", "input_tokens", "output_tokens"} {
					if v, ok := u[uk]; ok {
						usage = append(usage, fmField{uk, v.String()})
					}
				}
			}
		case json.Unmarshal(raw, &s) == nil:
			scalars[k] = s
		case json.Unmarshal(raw, &n) == nil:
			scalars[k] = n.String()
		case !provenanceKey(k):
		default:
			where := "run manifest"
			if agent != "" {
				where += ": agent " + strconv.Quote(agent)
			}
			*diags = append(*diags, diag(1, LevelInfo, "%s: %s is neither a string nor a number: ignored", where, k))
		}
	}
	return readProvenance(scalars, usage, hasUsage)
}

// provenanceKey reports whether k is a key of Provenance.
func provenanceKey(k string) bool {
	if k == "tokens" || k == "total_tokens" {
		return true
	}
	for _, pk := range provenanceKeys {
		for _, key := range pk.keys {
			if key == k {
				return true
			}
		}
	}
	return false
}
