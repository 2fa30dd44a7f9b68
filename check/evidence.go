package check

import (
	"fmt"
	"path/filepath"

	"github.com/fluxwatch/fluxwatch/evidence"
	"github.com/fluxwatch/fluxwatch/parse"
	"github.com/fluxwatch/fluxwatch/plan"
	"github.com/fluxwatch/fluxwatch/synth"
)

// checkEvidence checks the claims of every report's findings (SPEC §5.7)
// against fixed (--repo) or the git work tree holding the report, in one
// Verify call per repository, so each cited file is read once. A report
// outside any work tree, without --repo, is an error.
func checkEvidence(reports []Report, fixed *evidence.Verifier, fixedRepo, ceilings string) []error {
	var errs []error
	type batch struct {
		v      *evidence.Verifier
		claims []parse.EvidenceClaim
		report []int // report of each claim
		owner  []int // finding of each claim
	}
	batches := map[string]*batch{}
	var repos []string
	for i := range reports {
		r := &reports[i]
		repo := fixedRepo
		if fixed == nil {
			top, ok := plan.GitTop(filepath.Dir(r.File), ceilings)
			if !ok {
				errs = append(errs, fmt.Errorf("%s: not inside a git work tree: evidence not checked (pass --repo DIR)", r.File))
				continue
			}
			repo = top
		}
		b := batches[repo]
		if b == nil {
			v := fixed
			if v == nil {
				var err error
				if v, err = evidence.Open(repo, evidence.Options{}); err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", r.File, err))
					continue
				}
			}
			b = &batch{v: v}
			batches[repo] = b
			repos = append(repos, repo)
		}
		r.Evidence = &Evidence{Repo: repo, Claims: []Claim{}, Ungrounded: []int{}}
		for j := range r.Findings {
			for _, c := range synth.ClaimsOf(r.Agent, &r.Findings[j]) {
				b.claims = append(b.claims, c)
				b.report = append(b.report, i)
				b.owner = append(b.owner, j)
			}
		}
	}
	for _, repo := range repos {
		b := batches[repo]
		for k, res := range b.v.Verify(b.claims) {
			ev := reports[b.report[k]].Evidence
			ev.Claims = append(ev.Claims, Claim{Finding: b.owner[k], ClaimResult: res})
			ev.tally.Add(res.Status)
		}
	}
	for i := range reports {
		ev := reports[i].Evidence
		if ev == nil {
			continue
		}
		byFinding := map[int][]parse.ClaimResult{}
		for _, c := range ev.Claims {
			byFinding[c.Finding] = append(byFinding[c.Finding], c.ClaimResult)
		}
		for j, f := range reports[i].Findings {
			if synth.Ungrounded(f.Severity, byFinding[j]) {
				ev.Ungrounded = append(ev.Ungrounded, j)
				ev.tally.Ungrounded++
			}
		}
	}
	return errs
}
