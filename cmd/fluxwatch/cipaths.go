package main

import (
	"os"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/plan"
)

// ciRunDir decides the one base every machine output (SARIF, rdjsonl,
// annotations, JUnit) names files from, the repository top: --repo (repo),
// else the top of the git work tree holding the run directory, else the
// working directory. It returns the run directory dir relative to that base,
// slash-separated, which the renderers put before the name of an agent's
// report; file refs, which agents write relative to the repository top,
// stay as they are. A run directory outside the base (or a base that cannot
// be resolved) is named as given.
func ciRunDir(e *env, repo, dir string) string {
	base := repo
	if base == "" {
		top, ok := plan.GitTop(dir, e.getenv("GIT_CEILING_DIRECTORIES"))
		if !ok {
			top = "."
		}
		base = top
	}
	absBase, err1 := filepath.Abs(base)
	absDir, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return filepath.ToSlash(dir)
	}
	// Compare resolved paths: a base reached through a symbolic link is
	// still the base.
	if r, err := filepath.EvalSymlinks(absBase); err == nil {
		absBase = r
	}
	if r, err := filepath.EvalSymlinks(absDir); err == nil {
		absDir = r
	}
	rel, err := filepath.Rel(absBase, absDir)
	if err != nil || rel == ".." || filepath.IsAbs(rel) || len(rel) > 2 && rel[:3] == ".."+string(os.PathSeparator) {
		return filepath.ToSlash(dir)
	}
	return filepath.ToSlash(rel)
}
