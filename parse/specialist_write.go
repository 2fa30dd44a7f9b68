package parse

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// EncodeSpecialist renders s in the form of SPEC §4.1 (the current field
// names, whatever generation it was read from): specialist_name, notes, then
// each approach as number, variant (null for a standalone), is_variant,
// description, relevant_files, required_clarifying_questions,
// user_addressed_questions (only when the user answered any),
// pending_refinement, approach_detail. Multi-line text is written as a
// literal block. Keys kept in Extra follow, sorted. Approaches are written in
// the order given. ReadSpecialist reads the result back to an equal value.
func EncodeSpecialist(s *Specialist) ([]byte, error) {
	root := mapNode(
		"specialist_name", strNode(s.Name),
		"notes", strNode(s.Notes),
	)
	approaches := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, a := range s.Approaches {
		n, err := approachNode(a)
		if err != nil {
			return nil, err
		}
		approaches.Content = append(approaches.Content, n)
	}
	if len(approaches.Content) == 0 {
		approaches.Style = yaml.FlowStyle
	}
	root.Content = append(root.Content, strNode("approaches"), approaches)
	if err := addExtra(root, s.Extra); err != nil {
		return nil, err
	}
	return encodeNode(root)
}

func approachNode(a Approach) (*yaml.Node, error) {
	variant := nullNode()
	if a.Variant != "" {
		variant = strNode(a.Variant)
	}
	questions := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, q := range a.Questions {
		questions.Content = append(questions.Content, mapNode("question", strNode(q)))
	}
	if len(questions.Content) == 0 {
		questions.Style = yaml.FlowStyle
	}
	n := mapNode(
		"number", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(a.Number)},
		"variant", variant,
		"is_variant", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(a.Variant != "")},
		"description", strNode(a.Description),
		"relevant_files", strSeq(a.RelevantFiles),
		"required_clarifying_questions", questions,
	)
	if len(a.Answers) > 0 {
		answered := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, qa := range a.Answers {
			answered.Content = append(answered.Content, mapNode("question", strNode(qa.Question), "answer", strNode(qa.Answer)))
		}
		n.Content = append(n.Content, strNode("user_addressed_questions"), answered)
	}
	n.Content = append(n.Content,
		strNode("pending_refinement"), strNode(a.PendingRefinement),
		strNode("approach_detail"), strNode(a.Detail),
	)
	if err := addExtra(n, a.Extra); err != nil {
		return nil, fmt.Errorf("approach %s: %w", a.ID(), err)
	}
	return n, nil
}

// EncodeFeatureManifest renders a feature directory's MANIFEST.yaml with the
// fields of SPEC §4.3 in their order.
func EncodeFeatureManifest(m *FeatureManifest) ([]byte, error) {
	return encodeNode(mapNode(
		"feature_name", strNode(m.FeatureName),
		"feature_slug", strNode(m.FeatureSlug),
		"created_at", strNode(m.CreatedAt),
		"created_by", strNode(m.CreatedBy),
		"description", strNode(m.Description),
		"status", strNode(m.Status),
		"agents_contributed", strSeq(m.AgentsContributed),
		"artifacts", strSeq(m.Artifacts),
	))
}

// EncodeDesignManifest renders design/manifest.yaml.
func EncodeDesignManifest(m *DesignManifest) ([]byte, error) {
	designs := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, d := range m.Designs {
		designs.Content = append(designs.Content, mapNode(
			"screenshot_file_name", strNode(d.ScreenshotFileName),
			"description", strNode(d.Description)))
	}
	if len(designs.Content) == 0 {
		designs.Style = yaml.FlowStyle
	}
	return encodeNode(mapNode("designs", designs))
}

func encodeNode(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, fmt.Errorf("encode YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode YAML: %w", err)
	}
	return buf.Bytes(), nil
}

// mapNode builds a mapping from alternating keys and value nodes.
func mapNode(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, strNode(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

// strNode is a string scalar. Multi-line text is a literal block when a
// block holds it safely, double-quoted (every character escaped as needed)
// otherwise: tabs, carriage returns and whitespace-only lines are where
// block scalars fail to read back.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case strings.Contains(s, "\n") && literalSafe(s):
		n.Style = yaml.LiteralStyle
	case strings.Contains(s, "\n"):
		n.Style = yaml.DoubleQuotedStyle
	case yaml11Bool[strings.ToLower(s)]:
		// A YAML 1.1 reader (PyYAML, older tools) would read these as
		// booleans; quote them for the other tools that read our files.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func literalSafe(s string) bool {
	if strings.ContainsAny(s, "\t\r") {
		return false
	}
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if line != "" && strings.TrimSpace(line) == "" {
			return false
		}
	}
	return true
}

var yaml11Bool = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true}

func nullNode() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

func strSeq(ss []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, s := range ss {
		n.Content = append(n.Content, strNode(s))
	}
	if len(ss) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}

func addExtra(n *yaml.Node, extra map[string]*yaml.Node) error {
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		v := extra[k]
		if v == nil {
			v = nullNode()
		}
		n.Content = append(n.Content, strNode(k), v)
	}
	return nil
}
