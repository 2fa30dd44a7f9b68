package parse

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// ReadSpecialist decodes a specialist findings file, accepting both field-name
// generations of SPEC §4.1: is_variant/pending_refinement and envoy's
// variant/user_requested_changes/user_addressed_questions.
//
// Unknown keys are warnings (their values are kept in Extra); values of the
// wrong type, an input over MaxYAMLSize, a YAML syntax error or an alias bomb
// are errors. Every diagnostic carries its line. The Specialist is never nil:
// it holds what could be read. The error is non-nil, wrapping
// ErrMalformedYAML, when any diagnostic is an error: such a file must not be
// rewritten from what was read.
//
// Approaches are returned in file order. An approach with is_variant: true and
// no variant letter gets the next free letter of its number (a warning); the
// same number both standalone and as variants, or one id twice, is a warning.
func ReadSpecialist(data []byte) (*Specialist, []Diagnostic, error) {
	var d yamlDoc
	s := &Specialist{}
	root := d.decode(data)
	switch {
	case (root == nil && len(d.diags) == 0) || (root != nil && isNull(root)):
		d.warnf(nil, "empty specialist findings file")
	case root != nil:
		d.specialist(root, s)
	}
	diags, err := d.result()
	return s, diags, err
}

func (d *yamlDoc) specialist(root *yaml.Node, s *Specialist) {
	sawName := false
	for _, f := range d.fields(root, "specialist findings") {
		switch f.key {
		case "specialist_name":
			s.Name, sawName = d.str(f), true
		case "notes":
			s.Notes = d.str(f)
		case "approaches":
			for _, item := range d.items(f) {
				if a, ok := d.approach(item); ok {
					s.Approaches = append(s.Approaches, a)
				}
			}
		default:
			d.unknown(f, "specialist findings")
			if s.Extra == nil {
				s.Extra = map[string]*yaml.Node{}
			}
			s.Extra[f.key] = copyNode(f.value)
		}
	}
	if !sawName && deref(root).Kind == yaml.MappingNode {
		d.warnf(root, "no specialist_name")
	}
	d.checkApproaches(s.Approaches)
}

func (d *yamlDoc) unknown(f yamlField, what string) {
	d.warnf(f.keyNode, "%s: unknown key %q", what, f.key)
}

// approach reads one element of approaches.
func (d *yamlDoc) approach(item *yaml.Node) (Approach, bool) {
	a := Approach{Line: item.Line}
	if deref(item).Kind != yaml.MappingNode {
		d.errorf(item, "approach: want a mapping, got %s", kindName(item))
		return a, false
	}
	var (
		hasNumber, numberOK bool
		isVariant           *yamlField
		refinement          *yamlField // pending_refinement, when present
		requested           *yamlField // user_requested_changes, when present
	)
	for _, f := range d.fields(item, "approach") {
		switch f.key {
		case "number":
			hasNumber = true
			a.Number, numberOK = d.integer(f)
			if numberOK && a.Number < 1 {
				d.errorf(f.rawValue, "number: %d is not a positive integer", a.Number)
				numberOK = false
			}
		case "variant":
			a.Variant = d.variant(f)
		case "is_variant":
			a.IsVariant = d.boolean(f)
			isVariant = &f
		case "description":
			a.Description = d.str(f)
		case "relevant_files":
			a.RelevantFiles = d.strList(f)
		case "required_clarifying_questions":
			d.questions(f, &a, false)
		case "user_addressed_questions":
			d.questions(f, &a, true)
		case "pending_refinement":
			refinement = &f
		case "user_requested_changes":
			requested = &f
		case "approach_detail":
			a.Detail = d.str(f)
		default:
			d.unknown(f, "approach")
			if a.Extra == nil {
				a.Extra = map[string]*yaml.Node{}
			}
			a.Extra[f.key] = copyNode(f.value)
		}
	}
	switch {
	case refinement != nil && requested != nil:
		p, r := d.str(*refinement), d.str(*requested)
		a.PendingRefinement = p
		if r != "" && r != p {
			if p == "" {
				a.PendingRefinement = r
			} else {
				d.warnf(requested.keyNode, "approach: pending_refinement and user_requested_changes differ; pending_refinement is used")
			}
		}
	case refinement != nil:
		a.PendingRefinement = d.str(*refinement)
	case requested != nil:
		a.PendingRefinement = d.str(*requested)
	}
	if !hasNumber {
		d.errorf(item, "approach: no number")
	}
	if a.Variant != "" {
		if isVariant != nil && !a.IsVariant {
			d.warnf(isVariant.keyNode, "approach %s: is_variant is false but variant is %q; read as a variant", a.ID(), a.Variant)
		}
		a.IsVariant = true
	}
	return a, hasNumber && numberOK
}

// variant reads a variant letter: null or "" is a standalone approach; a
// lowercase letter is upper-cased with a warning; anything else is an error.
func (d *yamlDoc) variant(f yamlField) string {
	v := f.value
	if isNull(v) {
		return ""
	}
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		d.errorf(f.rawValue, "variant: want null or a letter A-Z, got %s", kindName(v))
		return ""
	}
	switch s := v.Value; {
	case s == "":
		return ""
	case len(s) == 1 && s[0] >= 'A' && s[0] <= 'Z':
		return s
	case len(s) == 1 && s[0] >= 'a' && s[0] <= 'z':
		d.warnf(f.rawValue, "variant: %q read as %q", s, strings.ToUpper(s))
		return strings.ToUpper(s)
	default:
		d.errorf(f.rawValue, "variant: want null or a letter A-Z, got %q", s)
		return ""
	}
}

// questions reads required_clarifying_questions (addressed false) or
// user_addressed_questions (addressed true). An item is a string (the
// question) or a mapping {question, answer}. A question with a non-empty
// answer is addressed.
func (d *yamlDoc) questions(f yamlField, a *Approach, addressed bool) {
	for _, item := range d.items(f) {
		var q, ans string
		switch it := deref(item); {
		case it.Kind == yaml.ScalarNode && it.Tag != "!!null" && it.Tag != "!!binary":
			q = it.Value
		case it.Kind == yaml.MappingNode:
			for _, qf := range d.fields(it, f.key) {
				switch qf.key {
				case "question":
					q = d.str(qf)
				case "answer":
					ans = d.str(qf)
				default:
					d.unknown(qf, f.key)
				}
			}
		default:
			d.errorf(item, "%s: want a question or {question, answer}, got %s", f.key, kindName(it))
			continue
		}
		if !addressed && q != "" {
			// An empty question is the seed's template `- question: ""`.
			a.Questions = append(a.Questions, q)
		}
		if ans != "" {
			a.addAnswer(q, ans)
		}
	}
}

func (a *Approach) addAnswer(q, ans string) {
	for i := range a.Answers {
		if a.Answers[i].Question == q {
			a.Answers[i].Answer = ans
			return
		}
	}
	a.Answers = append(a.Answers, Answer{Question: q, Answer: ans})
	a.AddressedQuestions = append(a.AddressedQuestions, q)
}

// checkApproaches gives letters to variants written without one (the first
// generation's is_variant: true) and warns about ids that repeat and numbers
// that are both standalone and variants.
func (d *yamlDoc) checkApproaches(as []Approach) {
	used := map[int]map[string]bool{}
	for _, a := range as {
		if used[a.Number] == nil {
			used[a.Number] = map[string]bool{}
		}
		used[a.Number][a.Variant] = true
	}
	for i := range as {
		a := &as[i]
		if a.IsVariant && a.Variant == "" {
			for l := byte('A'); l <= 'Z'; l++ {
				if !used[a.Number][string(l)] {
					a.Variant = string(l)
					used[a.Number][a.Variant] = true
					d.push(Diagnostic{Line: a.Line, Level: LevelWarning},
						"approach %s: is_variant without a variant letter; read as variant %s", a.ID(), a.Variant)
					break
				}
			}
			if a.Variant == "" {
				d.push(Diagnostic{Line: a.Line, Level: LevelError},
					"approach %s: is_variant but every letter A-Z is taken", a.ID())
			}
		}
	}
	seen := map[string]int{}
	standalone := map[int]bool{}
	variants := map[int]bool{}
	for _, a := range as {
		id := a.ID()
		if line, dup := seen[id]; dup {
			d.push(Diagnostic{Line: a.Line, Level: LevelWarning},
				"approach %s given twice (first at line %d)", id, line)
		} else {
			seen[id] = a.Line
		}
		if a.Variant == "" {
			standalone[a.Number] = true
		} else {
			variants[a.Number] = true
		}
	}
	warned := map[int]bool{}
	for _, a := range as {
		if standalone[a.Number] && variants[a.Number] && !warned[a.Number] {
			warned[a.Number] = true
			d.push(Diagnostic{Line: a.Line, Level: LevelWarning},
				"approach %d is both standalone and variants; SPEC §4.1 allows one or the other", a.Number)
		}
	}
}

// ReadDesignManifest decodes design/manifest.yaml: designs, a list of
// {screenshot_file_name, description}. Diagnostics and errors as for
// ReadSpecialist; the manifest is never nil.
func ReadDesignManifest(data []byte) (*DesignManifest, []Diagnostic, error) {
	var d yamlDoc
	m := &DesignManifest{}
	root := d.decode(data)
	if root != nil && !isNull(root) {
		for _, f := range d.fields(root, "design manifest") {
			if f.key != "designs" {
				d.unknown(f, "design manifest")
				continue
			}
			for _, item := range d.items(f) {
				if deref(item).Kind != yaml.MappingNode {
					d.errorf(item, "design: want a mapping, got %s", kindName(item))
					continue
				}
				var des Design
				for _, df := range d.fields(item, "design") {
					switch df.key {
					case "screenshot_file_name":
						des.ScreenshotFileName = d.str(df)
					case "description":
						des.Description = d.str(df)
					default:
						d.unknown(df, "design")
					}
				}
				if des.ScreenshotFileName == "" {
					d.warnf(item, "design: no screenshot_file_name")
				}
				m.Designs = append(m.Designs, des)
			}
		}
	}
	diags, err := d.result()
	return m, diags, err
}

// ReadFeatureManifest decodes a feature directory's MANIFEST.yaml (SPEC
// §4.3). agents_contributed and artifacts may hold strings or records (the
// seed protocol writes {agent, artifact, timestamp, status} and {path, type,
// agent}); a record contributes its agent, resp. its path. Diagnostics and
// errors as for ReadSpecialist; the manifest is never nil.
func ReadFeatureManifest(data []byte) (*FeatureManifest, []Diagnostic, error) {
	var d yamlDoc
	m := &FeatureManifest{}
	root := d.decode(data)
	if root != nil && !isNull(root) {
		strs := map[string]*string{
			"feature_name": &m.FeatureName, "feature_slug": &m.FeatureSlug,
			"created_at": &m.CreatedAt, "created_by": &m.CreatedBy,
			"description": &m.Description, "status": &m.Status,
		}
		for _, f := range d.fields(root, "feature manifest") {
			if p, ok := strs[f.key]; ok {
				*p = d.str(f)
				continue
			}
			switch f.key {
			case "agents_contributed":
				m.AgentsContributed = d.records(f, "agent")
			case "artifacts":
				m.Artifacts = d.records(f, "path")
			default:
				d.unknown(f, "feature manifest")
			}
		}
	}
	diags, err := d.result()
	return m, diags, err
}

// records reads a list whose items are strings or mappings; a mapping gives
// the string value of its key (other keys are free-form and not checked).
func (d *yamlDoc) records(f yamlField, key string) []string {
	var out []string
	for _, item := range d.items(f) {
		switch it := deref(item); {
		case it.Kind == yaml.ScalarNode && it.Tag != "!!null" && it.Tag != "!!binary":
			out = append(out, it.Value)
		case it.Kind == yaml.MappingNode:
			found := false
			for _, rf := range d.fields(it, f.key) {
				if rf.key == key {
					if s := d.str(rf); s != "" {
						out = append(out, s)
						found = true
					}
				}
			}
			if !found {
				d.warnf(item, "%s: record without %s", f.key, key)
			}
		default:
			d.errorf(item, "%s: want a string or a record, got %s", f.key, kindName(it))
		}
	}
	return out
}
