// Package inert makes text that fluxwatch did not write safe to show to a
// person (SPEC §10, "agent text never drives a terminal"). Agent reports,
// bus records, file names and the diagnostics that quote them may hold
// characters that act rather than show: ESC and the C1 CSI start terminal
// escape sequences, BEL rings, CR and backspace overwrite, and the
// bidirectional overrides and isolates reorder the text around them.
//
// It owns the one rule for each: [Line] (one line of inert text: a
// diagnostic, a table cell, a watch line), [Text] (a whole page, line
// feeds and tabs kept), [Collapse] (Line's white-space rule alone, for
// machine outputs whose encoders escape characters), and [EscapeJSON] and
// [EscapeXML] (machine outputs keep the data: the characters escaped, not
// replaced, so a reader decodes what the agent wrote). A character that
// acts is shown by a visible stand-in, never dropped: a C0 control as its
// control picture (ESC as ␛), DEL as ␡, a C1 control or bidirectional
// control as ⟨U+XXXX⟩, a byte that is not UTF-8 as U+FFFD. The stand-ins
// hold nothing Markdown, HTML or a workflow command reads.
//
// Every human-facing output puts agent text through Line or Text, and
// nowhere else. It must never do I/O or import anything beyond the
// standard library's text packages; docs/decisions.md has the rule in
// full.
package inert
