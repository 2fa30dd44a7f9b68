package plan

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fluxwatch/fluxwatch/parse"
)

// now is the injected clock of the discovery tests.
var now = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

func clock() time.Time { return now }

// feature writes root/dir/MANIFEST.yaml with the given fields and mtime age.
func feature(t *testing.T, root, dir, name, slug, description string, age time.Duration) string {
	t.Helper()
	d := filepath.Join(root, dir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := parse.EncodeFeatureManifest(&parse.FeatureManifest{FeatureName: name, FeatureSlug: slug, Description: description, Status: "in-progress"})
	if err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(d, ManifestName)
	if err := os.WriteFile(m, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(m, now.Add(-age), now.Add(-age)); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDiscoverTier1(t *testing.T) {
	base := t.TempDir()
	explicit := filepath.Join(base, "explicit")
	fromTask := filepath.Join(base, "from-task")
	fromEnv := filepath.Join(base, "from-env")
	for _, d := range []string{explicit, fromTask, fromEnv} {
		os.Mkdir(d, 0o755)
	}
	missing := filepath.Join(base, "missing")
	root := filepath.Join(base, "features")
	recent := feature(t, root, "2026-11-20-093000-rate-limiting", "Rate limiting", "rate-limiting", "", 30*time.Minute)

	cases := []struct {
		name       string
		o          Options
		wantDir    string
		wantTier   int
		wantSource string
		wantErr    string
		wantNote   string
	}{
		{"--dir", Options{Dir: explicit, Task: "feature_directory: " + fromTask, EnvDir: fromEnv}, explicit, 1, "--dir", "", ""},
		{"--dir missing is an error", Options{Dir: missing, EnvDir: fromEnv}, "", 0, "", ErrNotFound, ""},
		{"task line", Options{Task: "Review it.\nfeature_directory: \"" + fromTask + "\"\n", EnvDir: fromEnv}, fromTask, 1, "task", "", ""},
		{"bold task line", Options{Task: "- **feature_directory:** `" + fromTask + "`"}, fromTask, 1, "task", "", ""},
		{"env", Options{EnvDir: fromEnv}, fromEnv, 1, "FLUX_OUTPUT_DIR", "", ""},
		{"missing task dir falls through to env", Options{Task: "feature_directory: " + missing, EnvDir: fromEnv}, fromEnv, 1, "FLUX_OUTPUT_DIR", "", "task names"},
		{"missing env falls through to tier 2", Options{EnvDir: missing}, recent, 2, "only recent manifest", "", "FLUX_OUTPUT_DIR names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.o.Root, c.o.Now = root, clock
			res, err := Discover(c.o)
			if got := ErrorType(err); got != c.wantErr {
				t.Fatalf("error %v, want type %q", err, c.wantErr)
			}
			if res.Directory != c.wantDir || res.Tier != c.wantTier || res.Source != c.wantSource {
				t.Errorf("got %q tier %d source %q, want %q tier %d source %q", res.Directory, res.Tier, res.Source, c.wantDir, c.wantTier, c.wantSource)
			}
			if c.wantNote != "" && !strings.Contains(strings.Join(res.Notes, "\n"), c.wantNote) {
				t.Errorf("notes %q lack %q", res.Notes, c.wantNote)
			}
		})
	}
}

func TestDiscoverTier2(t *testing.T) {
	type feat struct {
		dir, name, slug, description string
		age                          time.Duration
	}
	rate := feat{"2026-11-20-091500-rate-limiting", "API rate limiting", "rate-limiting", "Add per-user rate limiting to the public API with a token bucket", 45 * time.Minute}
	tanstack := feat{"2026-11-20-094000-tanstack-migration", "TanStack Ecosystem Migration", "tanstack-migration", "Migrate from React Router v7 to TanStack Router and TanStack Table", 20 * time.Minute}
	stale := feat{"2026-11-19-080000-search-index", "Search index", "search-index", "Rebuild the search index nightly", 26 * time.Hour}
	cases := []struct {
		name     string
		feats    []feat
		task     string
		window   time.Duration
		wantDir  string // "" when none is chosen
		wantErr  string
		wantCand int
	}{
		{"none", nil, "anything", 0, "", ErrNotFound, 0},
		{"only a stale one", []feat{stale}, "search index", 0, "", ErrNotFound, 0},
		{"one recent", []feat{rate, stale}, "unrelated words entirely", 0, rate.dir, "", 1},
		{"several, clear match", []feat{rate, tanstack, stale}, "Review the TanStack migration: TanStack Router and TanStack Table", 0, tanstack.dir, "", 2},
		{"several, other match", []feat{rate, tanstack}, "Check the API rate limiting: per-user token bucket", 0, rate.dir, "", 2},
		{"several, low confidence", []feat{rate, tanstack}, "Review the database schema", 0, "", ErrAmbiguous, 2},
		{"stale one inside a wider window", []feat{stale, rate}, "rebuild the nightly search index", 48 * time.Hour, stale.dir, "", 2},
		{"tie", []feat{
			{"a-payments", "Payments refactor", "payments-refactor", "Refactor payments", 10 * time.Minute},
			{"b-payments", "Payments refactor", "payments-refactor", "Refactor payments", 5 * time.Minute},
		}, "payments refactor", 0, "", ErrAmbiguous, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "features")
			dirs := map[string]string{}
			for _, f := range c.feats {
				dirs[f.dir] = feature(t, root, f.dir, f.name, f.slug, f.description, f.age)
			}
			res, err := Discover(Options{Root: root, Task: c.task, Window: c.window, Now: clock})
			if got := ErrorType(err); got != c.wantErr {
				t.Fatalf("error %v, want type %q (candidates %+v)", err, c.wantErr, res.Candidates)
			}
			if want := dirs[c.wantDir]; res.Directory != want {
				t.Errorf("directory %q, want %q (candidates %+v)", res.Directory, want, res.Candidates)
			}
			if len(res.Candidates) != c.wantCand {
				t.Errorf("%d candidates, want %d", len(res.Candidates), c.wantCand)
			}
			if res.Directory != "" && (res.Tier != 2 || res.Score == nil) {
				t.Errorf("tier %d score %v, want tier 2 with a score", res.Tier, res.Score)
			}
			for i := 1; i < len(res.Candidates); i++ {
				if res.Candidates[i].Score > res.Candidates[i-1].Score {
					t.Errorf("candidates not sorted by score: %+v", res.Candidates)
				}
			}
			if c.name == "tie" && res.Candidates[0].Directory != dirs["b-payments"] {
				t.Errorf("tie: the newer candidate should be listed first: %+v", res.Candidates)
			}
			if c.name == "only a stale one" && !strings.Contains(strings.Join(res.Notes, " "), "1 manifest older than 1h0m0s ignored") {
				t.Errorf("notes %q do not mention the stale manifest", res.Notes)
			}
			dir, tier, derr := DiscoverDir(Options{Root: root, Task: c.task, Window: c.window, Now: clock})
			if dir != res.Directory || ErrorType(derr) != c.wantErr || (dir != "" && tier != 2) {
				t.Errorf("DiscoverDir = %q, %d, %v; want what Discover gave", dir, tier, derr)
			}
		})
	}
}

func TestDiscoverScoreFormula(t *testing.T) {
	root := filepath.Join(t.TempDir(), "features")
	feature(t, root, "x", "TanStack Ecosystem Migration", "tanstack-migration",
		"Migration from React Router v7 to TanStack Router, standardizing tables with TanStack Table, and removing PII from URL paths.", 0)
	feature(t, root, "y", "Other", "other", "Something else", 0)
	res, err := Discover(Options{Root: root, Task: "have frontend-lead review the tanstack migration plan", Now: clock})
	if ErrorType(err) != ErrAmbiguous {
		t.Fatalf("error %v, want ambiguous (0.6 < 0.7)", err)
	}
	c := res.Candidates[0]
	// name {tanstack, ecosystem, migration}: 2 of 3 in the task → 0.667;
	// description: 2 common of min(12, 6) → 0.333; slug {tanstack, migration}
	// → 1. 0.4·0.667 + 0.4·0.333 + 0.2·1 = 0.6.
	if c.Scores.FeatureName != 0.667 || c.Scores.Description != 0.333 || c.Scores.FeatureSlug != 1 || c.Score != 0.6 {
		t.Errorf("scores %+v total %v; want 0.667, 0.333, 1 → 0.6", c.Scores, c.Score)
	}
}

func TestDiscoverUsesDirectoryNameWithoutSlug(t *testing.T) {
	root := filepath.Join(t.TempDir(), "features")
	feature(t, root, "2026-11-20-095500-billing-export", "", "", "", 0)
	feature(t, root, "2026-11-20-095600-search", "", "", "", 0)
	res, err := Discover(Options{Root: root, Task: "billing export", Now: clock})
	// slug similarity 1 → score 0.2: below the threshold, but ranked first.
	if ErrorType(err) != ErrAmbiguous || !strings.HasSuffix(res.Candidates[0].Directory, "billing-export") || res.Candidates[0].Score != 0.2 {
		t.Errorf("got %+v, %v", res.Candidates, err)
	}
}

func TestCreate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "features")
	task := "feature_directory: /nowhere\nAdd rate limiting to the API: per-user rate limits, token bucket for the API gateway."
	o := Options{Root: root, Task: task, Now: clock}
	res, err := Create(o, CreateOptions{By: "orchestrator"})
	if err != nil {
		t.Fatal(err)
	}
	wantDir := filepath.Join(root, "2026-11-20-100000-rate-limiting-api")
	if res.Directory != wantDir || res.Tier != 3 || res.Source != "created" {
		t.Errorf("got %+v, want %s tier 3", res, wantDir)
	}
	data, err := os.ReadFile(filepath.Join(wantDir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	want := `feature_name: Rate Limiting Api
feature_slug: rate-limiting-api
created_at: "2026-11-20T10:00:00Z"
created_by: orchestrator
description: 'Add rate limiting to the API: per-user rate limits, token bucket for the API gateway.'
status: in-progress
agents_contributed: []
artifacts: []
`
	if string(data) != want {
		t.Errorf("MANIFEST.yaml:\n%s\nwant:\n%s", data, want)
	}
	// The same second again: a suffix, never the same directory.
	res2, err := Create(o, CreateOptions{Name: "Rate limiting", Slug: "rate-limiting-api"})
	if err != nil || res2.Directory != wantDir+"-2" {
		t.Errorf("second create: %+v, %v", res2, err)
	}
	// A created directory is found by tier 2 afterwards.
	for _, d := range []string{res.Directory, res2.Directory} {
		os.Chtimes(filepath.Join(d, ManifestName), now, now)
	}
	found, err := Discover(Options{Root: root, Task: task, Now: clock})
	if ErrorType(err) != ErrAmbiguous || len(found.Candidates) != 2 {
		t.Errorf("after two creates: %+v, %v (two equal candidates are a tie)", found, err)
	}
	if _, err := Create(o, CreateOptions{Slug: "Not A Slug"}); ErrorType(err) != ErrInvalidArguments {
		t.Errorf("bad slug: %v", err)
	}
}

// TestFindOrCreateConcurrent: callers for one task at once make one
// directory and all return it (the process-level attack is
// TestDiscoverCreateConcurrent of cmd/fluxwatch).
func TestFindOrCreateConcurrent(t *testing.T) {
	root := filepath.Join(t.TempDir(), "features")
	o := Options{Root: root, Task: "Add rate limiting to the public API gateway"}
	const n = 12
	dirs := make(chan string, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			res, err := FindOrCreate(o, CreateOptions{})
			if err != nil {
				t.Error(err)
			}
			dirs <- res.Directory
		})
	}
	wg.Wait()
	close(dirs)
	got := map[string]int{}
	for d := range dirs {
		got[d]++
	}
	made, _ := filepath.Glob(filepath.Join(root, "*", ManifestName))
	if len(made) != 1 || len(got) != 1 || got[filepath.Dir(made[0])] != n {
		t.Errorf("made %q, returned %v: want one directory returned %d times", made, got, n)
	}
}
