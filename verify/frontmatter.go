package verify

import (
	"strings"

	"github.com/fluxwatch/fluxwatch/parse"
	"go.yaml.in/yaml/v3"
)

// maxFrontMatter bounds the front matter read for claims, in bytes: a
// synthesis's front matter is a header, not a report.
const maxFrontMatter = 256 << 10

// Front-matter keys a findings list item writes its fields under.
var (
	fmTitleKeys  = []string{"title", "summary", "finding", "description", "name"}
	fmSevKeys    = []string{"severity", "priority", "sev", "level"}
	fmAgentKeys  = []string{"agents", "sources", "reported_by", "found_by", "flagged_by", "raised_by"}
	fmCountKeys  = []string{"convergence", "count", "agent_count", "agents_count", "agreement"}
	fmCiteKeys   = []string{"ids", "cites", "source_ids", "finding_ids", "refs"}
	fmListKeys   = map[string]bool{"findings": true, "issues": true}
	fmFileFields = []string{"file", "location", "path"}
)

// frontMatterClaims reads the findings list of a synthesis's YAML front
// matter (text, whose first line is line first+1 of the synthesis): each
// item of a top-level "findings" or "issues" list that gives a title is a
// claim at its line, its fields read as a line's would be: severity, the
// agents and IDs it credits, the count it claims. Anything else in front
// matter (the roster, tallies, the verdict) states no claim. Invalid YAML,
// aliases and oversized front matter give none.
func frontMatterClaims(text string, first int) []Claim {
	root := frontMatterMap(text)
	if root == nil {
		return nil
	}
	var out []Claim
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if !fmListKeys[strings.ToLower(k.Value)] || v.Kind != yaml.SequenceNode {
			continue
		}
		for _, it := range v.Content {
			if c, ok := frontMatterItem(it); ok {
				c.Line = first + it.Line
				out = append(out, c)
			}
		}
	}
	return out
}

// frontMatterMap returns the top-level mapping of a synthesis's front
// matter (text, between its --- lines), or nil: empty, oversized, not
// valid YAML, or not a mapping.
func frontMatterMap(text string) *yaml.Node {
	if len(text) > maxFrontMatter || strings.TrimSpace(text) == "" {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// frontMatterItem reads one item of a front-matter findings list.
func frontMatterItem(it *yaml.Node) (Claim, bool) {
	if it.Kind != yaml.MappingNode {
		return Claim{}, false
	}
	fields := map[string]*yaml.Node{}
	for i := 0; i+1 < len(it.Content); i += 2 {
		fields[strings.ToLower(it.Content[i].Value)] = it.Content[i+1]
	}
	get := func(keys []string) *yaml.Node {
		for _, k := range keys {
			if n, ok := fields[k]; ok && n.Kind != yaml.AliasNode {
				return n
			}
		}
		return nil
	}
	title := strings.Join(strings.Fields(scalar(get(fmTitleKeys))), " ")
	if title == "" {
		return Claim{}, false
	}
	// The agents, IDs and count, written as an attribution would be:
	// "fd-a (SEC-1), fd-b | 2/3 agents".
	var parts []string
	parts = append(parts, listOf(get(fmAgentKeys))...)
	if ids := listOf(get(fmCiteKeys)); len(ids) > 0 {
		parts = append(parts, strings.Join(ids, ", "))
	}
	attr := strings.Join(parts, ", ")
	c := parseAttribution(attr)
	if n := scalar(get(fmCountKeys)); n != "" {
		c.Count, c.Of = counts(n + " agents")
	}
	if r := []rune(title); len(r) > maxTitle {
		title = string(r[:maxTitle])
	}
	c.Title = title
	if sev, ok := parse.SeverityValue(scalar(get(fmSevKeys)), true); ok {
		c.Severity = sev
	}
	if id := scalar(fields["id"]); parse.IsFindingID(id) {
		// The synthesis's own number, or an agent's ID: counted only when
		// the finding agrees (as an ID at the start of a line).
		c.ID = id
		c.Cites = appendNew(c.Cites, expandID(id)...)
		c.attrib = append(c.attrib, attribution{ids: expandID(id), lead: true})
	}
	for _, f := range fmFileFields {
		if v := scalar(fields[f]); v != "" && strings.Contains(v, ":") {
			c.FileRefs = appendNew(c.FileRefs, v)
		}
	}
	if !hasKeyword(title) && len(c.Cites) == 0 {
		return Claim{}, false // no word and no ID: nothing to tie it to
	}
	c.Text = clip(strings.TrimSpace(title + " (" + attr + ")"))
	return c, true
}

// scalar returns a node's value when it is a scalar, else "".
func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return strings.TrimSpace(n.Value)
}

// listOf returns the scalars of a sequence, or a scalar as one item.
func listOf(n *yaml.Node) []string {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		if v := strings.TrimSpace(n.Value); v != "" {
			return []string{v}
		}
		return nil
	}
	var out []string
	if n.Kind == yaml.SequenceNode {
		for _, e := range n.Content {
			if v := scalar(e); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// fmRosterKeys are the top-level front-matter keys under which a synthesis
// lists the agents it was written from ("agents_launched: [fd-a, fd-b]").
var fmRosterKeys = map[string]bool{"agents": true, "agents_launched": true, "agents_completed": true, "reviewers": true}

// frontMatterRoster returns the names a synthesis's YAML front matter lists
// as the agents it was written from (a top-level list of names under a key
// of fmRosterKeys), or nil.
func frontMatterRoster(src []byte) []string {
	r := &reader{text: string(src), block: -1}
	front, ok := r.skipFrontMatter()
	root := frontMatterMap(front)
	if !ok || root == nil {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k, v := root.Content[i], root.Content[i+1]; fmRosterKeys[strings.ToLower(k.Value)] && v.Kind == yaml.SequenceNode {
			for _, it := range v.Content {
				if it.Kind == yaml.ScalarNode && strings.TrimSpace(it.Value) != "" {
					out = append(out, strings.TrimSpace(it.Value))
				}
			}
		}
	}
	return out
}
