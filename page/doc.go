// Package page renders a synthesis as one self-contained HTML page, for
// people: the verdict and the gate, the agents, the deduplicated findings
// with their convergence and the evidence status of each cited line, and a
// timeline plot of how the run converged. Package livepage serves it live.
//
// [Render] is pure: it reads no file and no clock, and the same synthesis
// and options give the same bytes. Everything the page needs is inline
// (CSS, SVG; the live page's one script, allowed by its hash,
// [ScriptHash]): no external asset, no network at view time.
//
// It owns the page's layout and its escaping: agent-written text reaches
// the page only through html/template, and the rendered page goes through
// inert.Text as a whole, so that no control character or bidirectional
// override in an agent field acts (SPEC §10). It must never read the run
// directory, serve or link network code (TestPureLinksNoIO), or decide
// anything of the synthesis (package synth does).
//
// How the timeline places reports and posts, and how a large run is
// folded, are in docs/decisions.md.
package page
