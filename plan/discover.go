package plan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fluxwatch/fluxwatch/internal/fsio"
	"github.com/fluxwatch/fluxwatch/parse"
)

// Discovery defaults (SPEC §4.3).
const (
	DefaultFeaturesRoot = ".claude/features"
	DefaultWindow       = 60 * time.Minute
	DefaultThreshold    = 0.70
	ManifestName        = "MANIFEST.yaml"
)

// Options says where to look for a feature directory.
type Options struct {
	Dir    string // --dir: an explicit directory; it must exist
	Task   string // the task text: its feature_directory: line, and what candidates are scored against
	EnvDir string // the value of $FLUX_OUTPUT_DIR
	// Root is where tier 2 looks for MANIFEST.yaml files (DefaultFeaturesRoot
	// when ""); relative to the current directory unless absolute.
	Root string
	// Window: only manifests modified this recently count (DefaultWindow when 0).
	Window time.Duration
	// Threshold: the best score must reach it, and beat the second, for tier
	// 2 to choose among several candidates (DefaultThreshold when 0).
	Threshold float64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Root == "" {
		o.Root = DefaultFeaturesRoot
	}
	if o.Window == 0 {
		o.Window = DefaultWindow
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Scores are the similarities of a candidate's fields to the task.
type Scores struct {
	FeatureName float64 `json:"feature_name"`
	Description float64 `json:"description"`
	FeatureSlug float64 `json:"feature_slug"`
}

// Candidate is a feature directory found by tier 2.
type Candidate struct {
	Directory   string `json:"directory"`
	FeatureName string `json:"feature_name"`
	FeatureSlug string `json:"feature_slug"`
	Description string `json:"description"`
	Modified    string `json:"modified"` // the manifest's mtime, RFC 3339
	// Score is 0.4·name + 0.4·description + 0.2·slug, rounded to 3 decimals.
	Score  float64 `json:"score"`
	Scores Scores  `json:"scores"`
	mtime  time.Time
}

// Result is what discovery found.
type Result struct {
	Directory string `json:"directory"` // "" when nothing was found
	Tier      int    `json:"tier"`      // 1, 2 or 3; 0 when nothing was found
	// Score is the chosen candidate's score (tier 2 only).
	Score *float64 `json:"score"`
	// Source says how the directory was found: "--dir", "task",
	// "FLUX_OUTPUT_DIR", "only recent manifest", "best match", "chosen",
	// "created".
	Source     string      `json:"source,omitempty"`
	Candidates []Candidate `json:"candidates,omitempty"`
	// Notes are things the user may want to know: explicit directories that
	// do not exist, manifests outside the window or unreadable.
	Notes []string `json:"notes,omitempty"`
}

// ErrorType returns the Type of err when it is an *Error, else "".
func ErrorType(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Type
	}
	return ""
}

var featureDirRe = regexp.MustCompile(`(?m)^[ \t>*_-]*feature_directory[*_]*[ \t]*:[ \t]*(.*?)[ \t]*$`)

// TaskDirectory returns the value of the first `feature_directory:` line of a
// task text (quotes and backticks removed), or "".
func TaskDirectory(task string) string {
	m := featureDirRe.FindStringSubmatch(task)
	if m == nil {
		return ""
	}
	return strings.Trim(m[1], "\"'`*_ ")
}

// Discover runs tiers 1 and 2 of SPEC §4.3. Tier 1: o.Dir (an error if it does
// not exist), else the task's feature_directory:, else o.EnvDir, when it is an
// existing directory. Tier 2: the MANIFEST.yaml files under o.Root modified
// within o.Window; one is chosen; of several, the best-scoring when it reaches
// o.Threshold and beats the second.
//
// Errors: ErrNotFound when nothing was found (the result holds the notes),
// ErrAmbiguous when several candidates fit about equally (the result holds
// them, best first), ErrIO.
func Discover(o Options) (Result, error) {
	o = o.withDefaults()
	var res Result
	if o.Dir != "" {
		if !isDir(o.Dir) {
			return res, newError(ErrNotFound, "create it first, or leave out --dir to discover the directory",
				"--dir %s is not an existing directory", o.Dir)
		}
		return Result{Directory: filepath.Clean(o.Dir), Tier: 1, Source: "--dir"}, nil
	}
	for _, src := range []struct{ dir, name string }{{TaskDirectory(o.Task), "task"}, {o.EnvDir, "FLUX_OUTPUT_DIR"}} {
		switch {
		case src.dir == "":
		case isDir(src.dir):
			return Result{Directory: filepath.Clean(src.dir), Tier: 1, Source: src.name, Notes: res.Notes}, nil
		default:
			res.Notes = append(res.Notes, fmt.Sprintf("%s names %s, which is not an existing directory", src.name, src.dir))
		}
	}
	cands, notes, err := candidates(o)
	res.Notes = append(res.Notes, notes...)
	if err != nil {
		return res, err
	}
	res.Candidates = cands
	switch {
	case len(cands) == 0:
		return res, newError(ErrNotFound, "pass --create to make a new feature directory, or --dir DIR",
			"no feature directory: no %s under %s modified in the last %v", ManifestName, o.Root, o.Window)
	case len(cands) == 1:
		res.Directory, res.Tier, res.Source = cands[0].Directory, 2, "only recent manifest"
		res.Score = &cands[0].Score
		return res, nil
	}
	best := cands[0]
	if best.Score >= o.Threshold && best.Score > cands[1].Score {
		res.Directory, res.Tier, res.Source = best.Directory, 2, "best match"
		res.Score = &best.Score
		return res, nil
	}
	why := fmt.Sprintf("the best score %.3f is below %.2f", best.Score, o.Threshold)
	if best.Score >= o.Threshold {
		why = fmt.Sprintf("the best score %.3f is shared by %s and %s", best.Score, best.Directory, cands[1].Directory)
	}
	return res, newError(ErrAmbiguous, "pick one with --dir DIR, or describe the feature better with --task",
		"%d recent feature directories and no clear match: %s", len(cands), why)
}

// DiscoverDir is tiers 1 and 2 of discovery for commands that take an
// optional output directory (synth and watch when DIR is omitted): it never
// asks and never creates. It returns the directory and its tier. Errors as
// for Discover: on ErrNotFound the caller falls back to the current
// directory; on ErrAmbiguous it should say so (the message names the
// candidates' count and why none was chosen).
func DiscoverDir(o Options) (dir string, tier int, err error) {
	res, err := Discover(o)
	if err != nil {
		return "", 0, err
	}
	return res.Directory, res.Tier, nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// candidates finds the manifests under o.Root modified within o.Window, reads
// and scores them, and sorts them: score descending, then newest first, then
// by directory.
func candidates(o Options) ([]Candidate, []string, error) {
	var (
		out   []Candidate
		notes []string
		stale int
	)
	now := o.Now()
	walkRoot := o.Root
	if fi, err := os.Lstat(o.Root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// WalkDir does not follow a link, not even the root: start inside
		// the directory it leads to, the paths still under o.Root. Links
		// below the root are not followed.
		walkRoot = o.Root + string(filepath.Separator)
	}
	err := filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == walkRoot && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			notes = append(notes, fmt.Sprintf("skipped %s: %v", path, err))
			return nil
		}
		if d.Name() != ManifestName || !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			notes = append(notes, fmt.Sprintf("skipped %s: %v", path, err))
			return nil
		}
		if now.Sub(fi.ModTime()) > o.Window {
			stale++
			return nil
		}
		c := Candidate{Directory: filepath.Dir(path), Modified: fi.ModTime().UTC().Format(time.RFC3339), mtime: fi.ModTime()}
		data, err := fsio.ReadFile(path, parse.MaxYAMLSize+1) // the reader refuses more than MaxYAMLSize
		if err != nil {
			notes = append(notes, fmt.Sprintf("skipped %s: %v", path, err))
			return nil
		}
		m, diags, err := parse.ReadFeatureManifest(data)
		if err != nil {
			for _, d := range parse.WithPath(diags, path) {
				if d.Level == parse.LevelError {
					notes = append(notes, "read what could be read of "+d.String())
					break
				}
			}
		}
		c.FeatureName, c.FeatureSlug, c.Description = m.FeatureName, m.FeatureSlug, m.Description
		slug := c.FeatureSlug
		if slug == "" {
			slug = dirSlug(filepath.Base(c.Directory))
		}
		c.Scores = Scores{
			FeatureName: round3(Similarity(o.Task, c.FeatureName)),
			Description: round3(Similarity(o.Task, c.Description)),
			FeatureSlug: round3(Similarity(o.Task, slug)),
		}
		c.Score = round3(0.4*c.Scores.FeatureName + 0.4*c.Scores.Description + 0.2*c.Scores.FeatureSlug)
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, notes, ioError(err, "search %s", o.Root)
	}
	if stale > 0 {
		notes = append(notes, fmt.Sprintf("%d %s older than %v ignored", stale, plural(stale, "manifest", "manifests"), o.Window))
	}
	slices.SortFunc(out, func(a, b Candidate) int {
		switch {
		case a.Score != b.Score:
			if a.Score > b.Score {
				return -1
			}
			return 1
		case !a.mtime.Equal(b.mtime):
			return b.mtime.Compare(a.mtime)
		}
		return strings.Compare(a.Directory, b.Directory)
	})
	return out, notes, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

var dirStampRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}-\d{6}-`)

// dirSlug is the slug part of a feature directory name
// (2025-12-30-143022-tanstack-migration → tanstack-migration).
func dirSlug(base string) string {
	return dirStampRe.ReplaceAllString(base, "")
}

// LockName is the lock file, under the features root, that FindOrCreate
// holds while it looks again and creates.
const LockName = ".fluxwatch-discover.lock"

// FindOrCreate is discovery with tier 3 (`discover --create`): Discover,
// and when it finds nothing, Create, but under an exclusive lock on
// ROOT/LockName and only after looking again under it. Concurrent callers
// for one task (agents started at once, each told to discover with
// --create) so make one directory: the first creates it, every other finds
// it when its turn comes, as a later Discover does (SPEC §10, "concurrent
// agents agree"). Errors as for Discover and Create; ErrIO when the root
// or its lock cannot be made.
func FindOrCreate(o Options, c CreateOptions) (Result, error) {
	o = o.withDefaults()
	res, err := Discover(o)
	if ErrorType(err) != ErrNotFound || o.Dir != "" {
		return res, err
	}
	if err := os.MkdirAll(o.Root, 0o755); err != nil {
		return res, ioError(err, "create %s", o.Root)
	}
	root, err := os.OpenRoot(o.Root)
	if err != nil {
		return res, ioError(err, "open %s", o.Root)
	}
	defer root.Close()
	unlock, err := fsio.LockIn(root, LockName)
	if err != nil {
		return res, ioError(err, "%s", filepath.Join(o.Root, LockName))
	}
	defer unlock()
	again, err := Discover(o)
	if ErrorType(err) != ErrNotFound {
		// Made meanwhile by another caller (or its error): what any
		// later discovery will find too.
		again.Notes = mergeNotes(res.Notes, again.Notes)
		return again, err
	}
	created, err := Create(o, c)
	created.Notes = res.Notes
	return created, err
}

// mergeNotes is a followed by the notes of b it does not hold.
func mergeNotes(a, b []string) []string {
	out := slices.Clone(a)
	for _, n := range b {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// CreateOptions are the fields of a new feature directory's manifest.
type CreateOptions struct {
	Name string // feature_name; from the slug's words when ""
	Slug string // feature_slug; from the task's keywords when ""
	By   string // created_by; "fluxwatch" when ""
}

// Create is tier 3 of SPEC §4.3: it makes ROOT/YYYY-MM-DD-HHMMSS-<slug> (the
// time of o.Now in its own location; -2, -3, … appended if that exists) with a
// MANIFEST.yaml holding feature_name, feature_slug, created_at (UTC, RFC 3339),
// created_by, description (the task, without its feature_directory: line),
// status in-progress, and empty agents_contributed and artifacts. Errors:
// ErrInvalidArguments for a slug that is not lowercase kebab-case or a
// manifest that would be over parse.MaxYAMLSize (nothing is created), ErrIO.
func Create(o Options, c CreateOptions) (Result, error) {
	o = o.withDefaults()
	task := strings.TrimSpace(featureDirRe.ReplaceAllString(o.Task, ""))
	slug := c.Slug
	if slug == "" {
		slug = Slug(task)
	} else if !slugRe.MatchString(slug) {
		return Result{}, newError(ErrInvalidArguments, "use lowercase words joined by '-', such as rate-limiting",
			"invalid slug %q: want lowercase kebab-case", slug)
	}
	name := c.Name
	if name == "" {
		name = titleWords(slug)
	}
	by := c.By
	if by == "" {
		by = "fluxwatch"
	}
	description := task
	if description == "" {
		description = name
	}
	now := o.Now()
	m := &parse.FeatureManifest{
		FeatureName:       name,
		FeatureSlug:       slug,
		CreatedAt:         now.UTC().Format(time.RFC3339),
		CreatedBy:         by,
		Description:       description,
		Status:            "in-progress",
		AgentsContributed: []string{},
		Artifacts:         []string{},
	}
	data, err := parse.EncodeFeatureManifest(m)
	if err != nil {
		return Result{}, ioError(err, "encode %s", ManifestName)
	}
	if len(data) > parse.MaxYAMLSize {
		// Written, it would be a manifest that discovery skips.
		return Result{}, newError(ErrInvalidArguments, "shorten the task; nothing was created",
			"the %s would be %d bytes, over the %d-byte limit for YAML files", ManifestName, len(data), parse.MaxYAMLSize)
	}
	if err := os.MkdirAll(o.Root, 0o755); err != nil {
		return Result{}, ioError(err, "create %s", o.Root)
	}
	base := now.Format("2006-01-02-150405") + "-" + slug
	dir := filepath.Join(o.Root, base)
	for i := 2; ; i++ {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || i > 99 {
			return Result{}, ioError(err, "create %s", dir)
		}
		dir = filepath.Join(o.Root, fmt.Sprintf("%s-%d", base, i))
	}
	if _, err := fsio.WriteFile(context.Background(), filepath.Join(dir, ManifestName), data, 0o644); err != nil {
		return Result{}, &Error{Type: ErrIO, Message: err.Error(), Err: err}
	}
	return Result{Directory: dir, Tier: 3, Source: "created"}, nil
}

var slugRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func titleWords(slug string) string {
	words := strings.Split(slug, "-")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}
