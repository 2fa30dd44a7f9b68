package plan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Store is the specialist findings of one plan root.
type Store struct {
	Root string // the plan root: findings/ and design/ live here
	// Context, when not nil, is the life of the changes: one that ends
	// (a signal) while a change waits for its file's lock, or before its
	// file is renamed into place, leaves the file as it was, and the change
	// fails with the context's error.
	Context context.Context
}

// ctx returns s.Context, or context.Background() when it is nil.
func (s *Store) ctx() context.Context {
	if s.Context != nil {
		return s.Context
	}
	return context.Background()
}

// FindingsDir returns the directory of the specialist files.
func (s *Store) FindingsDir() string { return filepath.Join(s.Root, "findings") }

// File returns the path of a specialist's findings file.
func (s *Store) File(name string) string { return filepath.Join(s.FindingsDir(), name+".yaml") }

// ValidSpecialist checks a specialist name: names are data, not paths (SPEC
// §1). On top of parse.ValidName it refuses names starting with "." (hidden
// files, which the output-directory rules ignore) or "-" (taken for a flag),
// names longer than 128 bytes, and names ending in .yaml or .yml: "ok.yaml"
// is a file name typed for a specialist name, and taking it would store
// findings/ok.yaml.yaml; the error suggests "ok". The error is an *Error of type
// ErrInvalidSpecialist.
func ValidSpecialist(name string) error {
	err := parse.ValidName(name)
	switch {
	case err != nil:
	case strings.HasPrefix(name, "."):
		err = errors.New("name starts with '.'")
	case strings.HasPrefix(name, "-"):
		err = errors.New("name starts with '-'")
	case len(name) > 128:
		err = errors.New("name is longer than 128 bytes")
	case strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml"):
		stem := strings.TrimSuffix(strings.TrimSuffix(name, ".yaml"), ".yml")
		return &Error{Type: ErrInvalidSpecialist, Err: errors.New("name ends in a YAML suffix"),
			Message:    fmt.Sprintf("invalid specialist name %q: a specialist name, not a file name (it would be stored as %s.yaml)", name, name),
			Suggestion: fmt.Sprintf("use %s: its findings are stored in findings/%s.yaml", stem, stem)}
	}
	if err != nil {
		return &Error{Type: ErrInvalidSpecialist, Err: err,
			Message:    fmt.Sprintf("invalid specialist name %q: %v", name, strings.TrimPrefix(err.Error(), "invalid name: ")),
			Suggestion: "use a plain name such as frontend or backend_1 (no path separators, no '..', no control characters)"}
	}
	return nil
}

// ValidNumber checks an approach number (an *Error of type ErrInvalidNumber).
func ValidNumber(n int) error {
	if n < 1 {
		return newError(ErrInvalidNumber, "approach numbers are 1, 2, 3, …", "invalid approach number %d: must be a positive integer", n)
	}
	return nil
}

// ParseNumber reads an approach number given as text.
func ParseNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, newError(ErrInvalidNumber, "approach numbers are 1, 2, 3, …", "invalid approach number %q: must be a positive integer", s)
	}
	return n, nil
}

// ValidVariant checks a variant letter: "" (standalone) or one of A-Z (an
// *Error of type ErrInvalidVariant).
func ValidVariant(v string) error {
	if v == "" || (len(v) == 1 && v[0] >= 'A' && v[0] <= 'Z') {
		return nil
	}
	return newError(ErrInvalidVariant, "variants are single uppercase letters: A, B, C, …", "invalid variant %q: must be one letter A-Z", v)
}

// ParseApproachID reads "N" or "N_L".
func ParseApproachID(id string) (number int, variant string, err error) {
	num, v, _ := strings.Cut(id, "_")
	if number, err = ParseNumber(num); err != nil {
		return 0, "", err
	}
	if strings.Contains(id, "_") && v == "" {
		return 0, "", ValidVariant("_")
	}
	return number, v, ValidVariant(v)
}

// Read reads one specialist's findings file. The diagnostics are its
// warnings. Errors: ErrInvalidSpecialist, ErrNotFound (no file),
// ErrMalformedYAML (the message names file:line:col), ErrIO.
func (s *Store) Read(name string) (*parse.Specialist, []parse.Diagnostic, error) {
	if err := ValidSpecialist(name); err != nil {
		return nil, nil, err
	}
	sp, diags, exists, err := s.read(name)
	if err == nil && !exists {
		err = newError(ErrNotFound, "write it first: fluxwatch plan write-finding "+name+" --notes …",
			"no findings for specialist %q (%s does not exist)", name, s.File(name))
	}
	return sp, diags, err
}

// read reads a specialist file; exists is false (and the specialist empty)
// when there is none.
func (s *Store) read(name string) (sp *parse.Specialist, diags []parse.Diagnostic, exists bool, err error) {
	sp, diags, exists, err = readYAML(s, specialistRel(name), parse.ReadSpecialist)
	if !exists {
		sp.Name = name
	}
	if err != nil || !exists {
		return sp, diags, exists, err
	}
	path := s.File(name)
	if sp.Name != "" && sp.Name != name {
		diags = append(diags, parse.Diagnostic{Path: path, Level: parse.LevelWarning,
			Message: fmt.Sprintf("specialist_name %q differs from the file name; the file name %q is used", sp.Name, name)})
	}
	return sp, diags, true, nil
}

// specialistRel is the name of a specialist's file inside the plan root.
func specialistRel(name string) string { return filepath.Join("findings", name+".yaml") }

// openRoot opens the plan root as an os.Root: every file of the plan is
// opened through it, so no symbolic link, of a file or of a directory such
// as findings/, leads outside it. With create, a missing root is made
// first. A missing root is an error wrapping fs.ErrNotExist.
func (s *Store) openRoot(create bool) (*os.Root, error) {
	if create {
		if err := os.MkdirAll(s.Root, 0o755); err != nil {
			return nil, ioError(err, "create %s", s.Root)
		}
	}
	root, err := fsio.OpenRoot(s.Root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case err != nil:
		return nil, ioError(err, "open %s", s.Root)
	}
	return root, nil
}

// refused is the error for rel inside the root that the root would not
// open or lock (err): ErrUnsafePath when rel leads out of the root through
// a symbolic link (fsio.ResolveIn), else an I/O error naming it and saying
// why (not a regular file, permission denied, …).
func (s *Store) refused(err error, verb, rel string) error {
	path := filepath.Join(s.Root, rel)
	if _, rerr := fsio.ResolveIn(s.Root, rel); errors.Is(rerr, fsio.ErrOutside) {
		return newError(ErrUnsafePath, "replace the link with the file or directory itself",
			"%s leads outside the plan root through a symbolic link; not followed", path)
	}
	return ioError(fsio.Cause(err), "%s %s", verb, path)
}

// readFile reads the YAML file rel of the plan root, inside the root
// (ErrUnsafePath for a link out of it), without blocking, regular files only,
// and refuses a file over parse.MaxYAMLSize (ErrMalformedYAML). A missing
// file is an error wrapping fs.ErrNotExist.
func (s *Store) readFile(rel string) ([]byte, error) {
	root, err := s.openRoot(false)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	path := filepath.Join(s.Root, rel)
	f, info, err := fsio.OpenIn(root, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Lstat(path); serr != nil {
			return nil, err // missing, not a link out
		}
		return nil, s.refused(err, "read", rel)
	case err != nil:
		return nil, s.refused(err, "read", rel)
	}
	defer f.Close()
	if info.Size() > parse.MaxYAMLSize {
		d := parse.Diagnostic{Path: path, Level: parse.LevelError,
			Message: fmt.Sprintf("file is %d bytes, over the %d-byte limit for YAML files", info.Size(), parse.MaxYAMLSize)}
		return nil, malformed([]parse.Diagnostic{d}, path)
	}
	// The file may have grown since the stat: read one byte past the limit,
	// and let the reader refuse it.
	data, err := fsio.ReadAll(f, info.Size(), parse.MaxYAMLSize+1)
	if err != nil {
		return nil, ioError(err, "read %s", path)
	}
	return data, nil
}

// malformed is the ErrMalformedYAML for the file at path, naming the first
// error diagnostic.
func malformed(diags []parse.Diagnostic, path string) *Error {
	var first parse.Diagnostic
	for _, d := range diags {
		if d.Level == parse.LevelError {
			first = d
			break
		}
	}
	return &Error{Type: ErrMalformedYAML, Err: parse.ErrMalformedYAML,
		Message:    "malformed YAML: " + first.String(),
		Suggestion: "fix " + path + " by hand; fluxwatch never overwrites a file it cannot read"}
}

// update runs change on a specialist's findings under the file's lock and
// writes the result back atomically in the SPEC §4.1 form, approaches sorted
// (by number; the standalone, then variants A, B, …). With mustExist, a
// missing file is ErrNotFound. A malformed file is ErrMalformedYAML and is left
// untouched; so is every file when change fails, when the result would be
// over parse.MaxYAMLSize (ErrInvalidArguments: no read would accept it), and
// when s.Context ends first (its error, not an *Error). It returns the
// file's warnings and whether the file existed.
func (s *Store) update(name string, mustExist bool, change func(sp *parse.Specialist) error) (diags []parse.Diagnostic, existed bool, err error) {
	if err := ValidSpecialist(name); err != nil {
		return nil, false, err
	}
	root, err := s.openRoot(true)
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	if err := root.MkdirAll("findings", 0o755); err != nil {
		return nil, false, s.refused(err, "create", "findings")
	}
	rel := specialistRel(name)
	unlock, err := fsio.LockIn(root, rel+".lock")
	if err != nil {
		return nil, false, s.refused(err, "lock", rel+".lock")
	}
	defer unlock()
	if err := s.ctx().Err(); err != nil {
		return nil, false, err // a signal while the lock was awaited: nothing is changed
	}
	sp, diags, existed, err := s.read(name)
	if err != nil {
		return diags, existed, err
	}
	if !existed && mustExist {
		return nil, false, newError(ErrNotFound, "write it first: fluxwatch plan write-finding "+name+" --notes …",
			"no findings for specialist %q (%s does not exist)", name, s.File(name))
	}
	if err := change(sp); err != nil {
		return diags, existed, err
	}
	sp.Name = name
	sortApproaches(sp.Approaches)
	data, err := parse.EncodeSpecialist(sp)
	if err != nil {
		return diags, existed, ioError(err, "encode %s", s.File(name))
	}
	if len(data) > parse.MaxYAMLSize {
		// Written, it would be a file that no read accepts.
		return diags, existed, newError(ErrInvalidArguments,
			"shorten the notes or the approaches' context, or clear approaches with clear-approach",
			"%s would be %d bytes, over the %d-byte limit for YAML files; nothing was changed", s.File(name), len(data), parse.MaxYAMLSize)
	}
	if err := fsio.WriteFileIn(s.ctx(), root, rel, data, 0o644); err != nil {
		if ctxErr := s.ctx().Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return diags, existed, ctxErr
		}
		return diags, existed, &Error{Type: ErrIO, Message: err.Error(), Err: err}
	}
	return diags, existed, nil
}

// sortApproaches orders approaches by number, the standalone before variants
// A, B, …; equal ids keep their order.
func sortApproaches(as []parse.Approach) {
	slices.SortStableFunc(as, func(a, b parse.Approach) int {
		if a.Number != b.Number {
			return a.Number - b.Number
		}
		return strings.Compare(a.Variant, b.Variant)
	})
}

// ids returns the ids of approaches.
func ids(as []parse.Approach) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID()
	}
	return out
}

// ofNumber returns the approaches numbered n: the standalone or the variants.
func ofNumber(as []parse.Approach, n int) (standalone *parse.Approach, variants []parse.Approach) {
	for i := range as {
		if as[i].Number != n {
			continue
		}
		if as[i].Variant == "" {
			if standalone == nil {
				standalone = &as[i]
			}
		} else {
			variants = append(variants, as[i])
		}
	}
	return standalone, variants
}

// nextVariant returns the first letter not used by a variant of n.
func nextVariant(as []parse.Approach, n int) (string, error) {
	used := map[string]bool{}
	for _, a := range as {
		if a.Number == n {
			used[a.Variant] = true
		}
	}
	for l := 'A'; l <= 'Z'; l++ {
		if !used[string(l)] {
			return string(l), nil
		}
	}
	return "", newError(ErrInvalidVariant, "clear a variant first with clear-approach",
		"approach %d already has 26 variants (A-Z)", n)
}

// conflict checks standalone/variant exclusivity for adding approach n, a
// variant when what names it ("variant B", "a variant"), a standalone
// approach when what is "" (SPEC §4.2).
func conflict(name string, as []parse.Approach, n int, what string) error {
	standalone, variants := ofNumber(as, n)
	switch {
	case what != "" && standalone != nil:
		return newError(ErrStandaloneExists,
			fmt.Sprintf("clear it first with `fluxwatch plan clear-approach %s %d`, or write approach %d without --variant", name, n, n),
			"approach %d of %s exists as a standalone approach; cannot add %s", n, name, what)
	case what == "" && len(variants) > 0:
		return newError(ErrVariantsExist,
			fmt.Sprintf("clear them first with `fluxwatch plan clear-approach %s %d` (clears every variant), or add this one with --variant", name, n),
			"approach %d of %s has variants %s; cannot add a standalone approach", n, name, strings.Join(ids(variants), ", "))
	}
	return nil
}

// ApproachInput is what a specialist writes for one approach.
type ApproachInput struct {
	Number int
	// Variant is "" for a standalone approach or a letter A-Z; with
	// NextVariant, the first free letter of Number is taken instead.
	Variant     string
	NextVariant bool
	Description string
	Detail      string // the full context: pseudo-code, findings
	Files       []string
	Questions   []string
}

// WriteApproachResult says what WriteApproach did.
type WriteApproachResult struct {
	Specialist string  `json:"specialist"`
	ApproachID string  `json:"approach_id"`
	Number     int     `json:"number"`
	Variant    *string `json:"variant"`
	IsVariant  bool    `json:"is_variant"`
	Created    bool    `json:"created"`
	Updated    bool    `json:"updated"`
	// ClearedRefinement is the pending refinement the write addressed, if any.
	ClearedRefinement string   `json:"cleared_refinement,omitempty"`
	File              string   `json:"file"`
	Warnings          []string `json:"warnings,omitempty"`
}

// WriteApproach adds or replaces one approach of a specialist (creating the
// file if needed) and clears its pending refinement. What the specialist
// writes (description, files, questions, detail) is replaced; the user's
// answers and keys fluxwatch does not know are kept. Errors:
// ErrInvalidSpecialist, ErrInvalidNumber, ErrInvalidVariant,
// ErrStandaloneExists, ErrVariantsExist, ErrMalformedYAML, ErrIO.
func (s *Store) WriteApproach(name string, in ApproachInput) (WriteApproachResult, error) {
	res := WriteApproachResult{Specialist: name, Number: in.Number, File: s.File(name)}
	if err := ValidSpecialist(name); err != nil {
		return res, err
	}
	if err := ValidNumber(in.Number); err != nil {
		return res, err
	}
	if err := ValidVariant(in.Variant); err != nil {
		return res, err
	}
	diags, _, err := s.update(name, false, func(sp *parse.Specialist) error {
		v, what := in.Variant, ""
		switch {
		case in.NextVariant:
			what = "a variant"
		case v != "":
			what = "variant " + v
		}
		if err := conflict(name, sp.Approaches, in.Number, what); err != nil {
			return err
		}
		if in.NextVariant {
			var err error
			if v, err = nextVariant(sp.Approaches, in.Number); err != nil {
				return err
			}
		}
		a := parse.Approach{
			Number:        in.Number,
			Variant:       v,
			IsVariant:     v != "",
			Description:   in.Description,
			RelevantFiles: in.Files,
			Questions:     in.Questions,
			Detail:        in.Detail,
		}
		res.Created = true
		for i := range sp.Approaches {
			old := &sp.Approaches[i]
			if old.Number == a.Number && old.Variant == a.Variant {
				res.ClearedRefinement = old.PendingRefinement
				a.Answers, a.AddressedQuestions, a.Extra = old.Answers, old.AddressedQuestions, old.Extra
				*old = a
				res.Created = false
				break
			}
		}
		if res.Created {
			sp.Approaches = append(sp.Approaches, a)
		}
		res.ApproachID = a.ID()
		if v != "" {
			res.Variant = &v
			res.IsVariant = true
		}
		return nil
	})
	res.Updated = err == nil && !res.Created
	res.Warnings = Warnings(diags)
	return res, err
}

// WriteFindingResult says what WriteFinding did.
type WriteFindingResult struct {
	Specialist    string   `json:"specialist"`
	Created       bool     `json:"created"` // the file did not exist
	ApproachCount int      `json:"approach_count"`
	ApproachIDs   []string `json:"approach_ids"`
	File          string   `json:"file"`
	Warnings      []string `json:"warnings,omitempty"`
}

// WriteFinding writes a specialist's findings file: its notes when notes is
// not nil, its approaches when approaches is not nil (nil keeps what the file
// holds; an empty slice removes every approach). Replaced approaches lose
// their pending refinements, as with WriteApproach, and keep the user's
// answers. approaches must satisfy ValidApproaches. Errors as for
// WriteApproach, and ErrInvalidJSON from ValidApproaches.
func (s *Store) WriteFinding(name string, notes *string, approaches []parse.Approach) (WriteFindingResult, error) {
	res := WriteFindingResult{Specialist: name, File: s.File(name)}
	if err := ValidSpecialist(name); err != nil {
		return res, err
	}
	if approaches != nil {
		var err error
		if approaches, err = ValidApproaches(approaches); err != nil {
			return res, err
		}
	}
	diags, existed, err := s.update(name, false, func(sp *parse.Specialist) error {
		if notes != nil {
			sp.Notes = *notes
		}
		if approaches != nil {
			old := sp.Approaches
			sp.Approaches = slices.Clone(approaches)
			for i := range sp.Approaches {
				a := &sp.Approaches[i]
				a.PendingRefinement = ""
				for _, o := range old {
					if o.Number == a.Number && o.Variant == a.Variant {
						a.Answers, a.AddressedQuestions, a.Extra = o.Answers, o.AddressedQuestions, o.Extra
						break
					}
				}
			}
		}
		sortApproaches(sp.Approaches)
		res.ApproachCount = len(sp.Approaches)
		res.ApproachIDs = ids(sp.Approaches)
		return nil
	})
	res.Created = err == nil && !existed
	res.Warnings = Warnings(diags)
	return res, err
}

// ValidApproaches checks a whole list of approaches as written by
// write-finding: numbers and letters valid, is_variant without a letter given
// the next free one, no id twice, no number both standalone and variants. It
// returns the list with letters filled in. Errors: ErrInvalidNumber,
// ErrInvalidVariant, ErrInvalidJSON (an id twice), ErrStandaloneExists,
// ErrVariantsExist.
func ValidApproaches(in []parse.Approach) ([]parse.Approach, error) {
	out := make([]parse.Approach, 0, len(in))
	for _, a := range in {
		if err := ValidNumber(a.Number); err != nil {
			return nil, err
		}
		if err := ValidVariant(a.Variant); err != nil {
			return nil, err
		}
		if a.Variant != "" {
			a.IsVariant = true
		}
		out = append(out, a)
	}
	// Explicit letters first, so that a letterless variant never takes one.
	for i := range out {
		a := &out[i]
		if a.IsVariant && a.Variant == "" {
			l, err := nextVariant(out, a.Number)
			if err != nil {
				return nil, err
			}
			a.Variant = l
		}
	}
	seen := map[string]bool{}
	for i, a := range out {
		if seen[a.ID()] {
			return nil, newError(ErrInvalidJSON, "give each approach id (number and variant) once",
				"approach %s is given twice", a.ID())
		}
		seen[a.ID()] = true
		others := slices.Delete(slices.Clone(out), i, i+1)
		standalone, variants := ofNumber(others, a.Number)
		switch {
		case a.Variant != "" && standalone != nil:
			return nil, newError(ErrStandaloneExists, "give approach "+strconv.Itoa(a.Number)+" either as one standalone approach or as variants",
				"approach %d is given both as a standalone approach and as variant %s", a.Number, a.Variant)
		case a.Variant == "" && len(variants) > 0:
			return nil, newError(ErrVariantsExist, "give approach "+strconv.Itoa(a.Number)+" either as one standalone approach or as variants",
				"approach %d is given both as a standalone approach and as variants %s", a.Number, strings.Join(ids(variants), ", "))
		}
	}
	return out, nil
}

// ClearResult says what ClearApproach did.
type ClearResult struct {
	Specialist     string   `json:"specialist"`
	Cleared        []string `json:"cleared"`
	RemainingCount int      `json:"remaining_count"`
	File           string   `json:"file"`
	Warnings       []string `json:"warnings,omitempty"`
}

// ClearApproach removes approach number n: with variant "" the standalone
// approach or, when n has variants, every variant; with a letter, that
// variant. Errors: ErrInvalidSpecialist, ErrInvalidNumber, ErrInvalidVariant,
// ErrNotFound, ErrMalformedYAML, ErrIO.
func (s *Store) ClearApproach(name string, n int, variant string) (ClearResult, error) {
	res := ClearResult{Specialist: name, Cleared: []string{}, File: s.File(name)}
	if err := validTarget(name, n, variant); err != nil {
		return res, err
	}
	diags, _, err := s.update(name, true, func(sp *parse.Specialist) error {
		kept := sp.Approaches[:0:0]
		for _, a := range sp.Approaches {
			if a.Number == n && (variant == "" || a.Variant == variant) {
				res.Cleared = append(res.Cleared, a.ID())
				continue
			}
			kept = append(kept, a)
		}
		if len(res.Cleared) == 0 {
			return notFound(name, sp.Approaches, n, variant)
		}
		sp.Approaches = kept
		res.RemainingCount = len(kept)
		return nil
	})
	res.Warnings = Warnings(diags)
	return res, err
}

func validTarget(name string, n int, variant string) error {
	if err := ValidSpecialist(name); err != nil {
		return err
	}
	if err := ValidNumber(n); err != nil {
		return err
	}
	return ValidVariant(variant)
}

// notFound is the ErrNotFound for approach n[_variant] of a specialist, with
// the approaches that do exist as the suggestion.
func notFound(name string, as []parse.Approach, n int, variant string) *Error {
	id := parse.Approach{Number: n, Variant: variant}.ID()
	suggestion := name + " has no approaches yet"
	if len(as) > 0 {
		suggestion = name + " has approaches " + strings.Join(ids(as), ", ")
	}
	return newError(ErrNotFound, suggestion, "approach %s not found for specialist %s", id, name)
}

// RefineResult says what Refine did.
type RefineResult struct {
	Specialist        string   `json:"specialist"`
	ApproachID        string   `json:"approach_id"`
	PendingRefinement string   `json:"pending_refinement"`
	File              string   `json:"file"`
	Warnings          []string `json:"warnings,omitempty"`
}

// Refine sets the pending refinement of approach n[_variant]: the revision
// asked of the specialist, which the next WriteApproach of that approach
// clears. An empty text clears it. With variant "", n must be a standalone
// approach. Errors: ErrInvalidSpecialist, ErrInvalidNumber, ErrInvalidVariant,
// ErrNotFound, ErrMalformedYAML, ErrIO.
func (s *Store) Refine(name string, n int, variant, text string) (RefineResult, error) {
	res := RefineResult{Specialist: name, ApproachID: parse.Approach{Number: n, Variant: variant}.ID(),
		PendingRefinement: text, File: s.File(name)}
	if err := validTarget(name, n, variant); err != nil {
		return res, err
	}
	diags, _, err := s.update(name, true, func(sp *parse.Specialist) error {
		for i := range sp.Approaches {
			if a := &sp.Approaches[i]; a.Number == n && a.Variant == variant {
				a.PendingRefinement = text
				return nil
			}
		}
		e := notFound(name, sp.Approaches, n, variant)
		if _, variants := ofNumber(sp.Approaches, n); variant == "" && len(variants) > 0 {
			e.Suggestion = fmt.Sprintf("approach %d has variants %s: name one, e.g. `fluxwatch plan refine %s %s --text …`",
				n, strings.Join(ids(variants), ", "), name, variants[0].ID())
		}
		return e
	})
	res.Warnings = Warnings(diags)
	return res, err
}

// Approaches returns approach n of a specialist: with variant "" the
// standalone approach or every variant of n, with a letter that variant;
// and the whole specialist file it comes from. Errors: ErrInvalidSpecialist,
// ErrInvalidNumber, ErrInvalidVariant, ErrNotFound, ErrMalformedYAML, ErrIO.
func (s *Store) Approaches(name string, n int, variant string) (*parse.Specialist, []parse.Approach, []parse.Diagnostic, error) {
	if err := validTarget(name, n, variant); err != nil {
		return nil, nil, nil, err
	}
	sp, diags, err := s.Read(name)
	if err != nil {
		return nil, nil, diags, err
	}
	var out []parse.Approach
	for _, a := range sp.Approaches {
		if a.Number == n && (variant == "" || a.Variant == variant) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return sp, nil, diags, notFound(name, sp.Approaches, n, variant)
	}
	sortApproaches(out)
	return sp, out, diags, nil
}

// SpecialistFile is one specialist's findings as read from its file.
type SpecialistFile struct {
	Name       string // from the file name
	File       string // the file's path
	Specialist *parse.Specialist
}

// All reads every specialist file of the root: findings/*.yaml whose names
// are valid specialist names, sorted by name; subdirectories (such as
// findings/_archive/) are not read. No findings directory is no specialists.
// The diagnostics are the files' warnings. Errors: ErrMalformedYAML naming
// the first file that does not read, ErrIO.
func (s *Store) All() ([]SpecialistFile, []parse.Diagnostic, error) {
	root, err := s.openRoot(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	d, err := fsio.OpenDirIn(root, "findings")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, s.refused(err, "read", "findings")
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, nil, ioError(err, "read %s", s.FindingsDir())
	}
	var (
		out   []SpecialistFile
		diags []parse.Diagnostic
	)
	for _, e := range entries {
		n := parse.ClassifyName("findings/" + e.Name())
		if !e.Type().IsRegular() || n.Kind != parse.KindSpecialist || ValidSpecialist(n.Agent) != nil {
			continue
		}
		sp, d, exists, err := s.read(n.Agent)
		diags = append(diags, d...)
		if err != nil {
			return nil, diags, err
		}
		if exists {
			out = append(out, SpecialistFile{Name: n.Agent, File: s.File(n.Agent), Specialist: sp})
		}
	}
	slices.SortFunc(out, func(a, b SpecialistFile) int { return strings.Compare(a.Name, b.Name) })
	return out, diags, nil
}

// DesignFile is the design manifest's path relative to the plan root.
const DesignFile = "design/manifest.yaml"

// DesignManifest reads design/manifest.yaml; exists is false when there is
// none. Errors: ErrMalformedYAML, ErrIO.
func (s *Store) DesignManifest() (m *parse.DesignManifest, diags []parse.Diagnostic, exists bool, err error) {
	return readYAML(s, filepath.FromSlash(DesignFile), parse.ReadDesignManifest)
}

// readYAML reads the file rel of the plan root and parses it with read,
// naming the file in its diagnostics. exists is false, and the value a
// zero T, when there is no such file; a file read cannot parse is
// ErrMalformedYAML, with the value read made of it.
func readYAML[T any](s *Store, rel string, read func([]byte) (*T, []parse.Diagnostic, error)) (v *T, diags []parse.Diagnostic, exists bool, err error) {
	data, err := s.readFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return new(T), nil, false, nil
	}
	if err != nil {
		return nil, nil, true, err
	}
	path := filepath.Join(s.Root, rel)
	v, diags, err = read(data)
	diags = parse.WithPath(diags, path)
	if err != nil {
		return v, diags, true, malformed(diags, path)
	}
	return v, diags, true, nil
}

// Warnings formats diagnostics as the warnings of a result, one
// "path:line:col: message" each: what the write results hold, and what
// `fluxwatch plan` prints for the reads.
func Warnings(diags []parse.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.String())
	}
	return out
}
