// Package page renders a synthesis as one self-contained HTML page, for
// people: the verdict and the gate, the agents, the deduplicated findings
// with their convergence and the evidence status of each cited line, and a
// timeline plot of how the run converged. Package livepage serves the same page live,
// kept current by Server-Sent Events.
//
// Rendering is pure: [Render] reads no file and no clock, and the same
// synthesis and options give the same bytes. Everything the page needs is
// inline (CSS, SVG; the live page's one script): no external asset, no
// network at view time. Agent-written text (titles, summaries, agent names,
// paths) only ever reaches the page through html/template, which escapes it
// for the context it lands in; the page's Content-Security-Policy allows no
// script at all in the static page and only the live script (by its hash)
// in the live one. html/template leaves control characters and
// bidirectional overrides as they are (a U+202E in a title would reverse
// what follows it on the page): the rendered page goes through
// inert.Text as a whole, which shows each as a visible stand-in (␛,
// ⟨U+202E⟩; the stand-ins hold nothing HTML reads) and keeps the page's
// own line feeds and tabs, so that no agent field can slip past it.
//
// Decisions where the issue is silent:
//   - The timeline places a report at its file's modification time (the
//     synthesis keeps it as [synth.AgentResult.ModTime], outside
//     findings.json) and a bus post at its timestamp; posts without a usable
//     timestamp are counted, not drawn. The synthesis carries the latest
//     [synth.Options.MaxEntries] posts; those are the ones drawn.
//   - A finding reaches its final convergence when the last report of its
//     agents finished; the band above the rows counts the findings there.
//   - A large run stays usable by folding its long tail: the first 40 agents
//     (table and plot rows), 30 findings and 20 bus posts are open, the rest
//     behind a summary row; findings past the first 100 are one table row
//     each (severity, title, convergence, first reference), the full record
//     being findings.json.
package page
