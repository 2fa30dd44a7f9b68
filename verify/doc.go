// Package verify is the grounding gate behind `fluxwatch verify`: it
// checks a synthesis written by someone else (an LLM synthesis agent, a
// person) against the synthesis fluxwatch computes from the same run, and
// against what the agents' reports say in their own words.
//
// [Claims] reads the claims a synthesis Markdown makes, each with its line;
// [Check] ties them to the run's findings and returns a [Result] of
// positioned [Problem]s: grounded, wrong (severity-raised, wrong-count,
// invented, missing-blocker: these trip the gate, [Result.Ungrounded]) or
// a note (unverifiable, severity-dropped). [Result.Text], [Result.JSON]
// and [Result.SARIF] render it.
//
// It owns what a claim is, how a claim is tied to findings and agents, and
// the word rules that weigh what a report says. Severity words and group
// headings are parse's (parse.SeverityValue, parse.GroupHeading) and the
// title rule is parse.Title's: verify must never restate them.
//
// It is pure: it must never read a file, the clock or the network, nor
// link code that does (TestPureLinksNoIO), and must never change the
// synthesis it checks.
//
// docs/verify.md is the user's account of the rules, with the figures
// measured on hand-labelled syntheses; docs/decisions.md keeps the rules in
// full as the code implements them.
package verify
