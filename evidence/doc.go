// Package evidence checks what review agents cite against the repository they
// reviewed (SPEC §5.7): for each evidence claim (a cited range of a file and,
// when the agent pasted one, the excerpt it says is there) and each file:line
// reference, whether the file exists and the excerpt is at those lines.
//
// A [Verifier] reads the repository through an [io/fs.FS]. [Open] confines it
// to a directory with [os.Root], which resolves every path inside the
// directory: "..", absolute paths and symlinks that lead out of the repository
// are refused before anything is opened, without a check-then-open race. [New]
// takes any fs.FS (tests use [testing/fstest.MapFS]). A Verifier implements
// [github.com/fluxwatch/fluxwatch/synth.Verifier] without importing synth:
// the claims it checks and the results it returns are package parse's
// ([parse.EvidenceClaim], [parse.ClaimResult]), as evidence reads the
// repository for synth and sits before it in the flow. It holds no state
// between calls and is safe for concurrent use.
//
// It is a package of its own rather than part of watcher: it reads another
// tree (the reviewed repository, not the output directory), never watches it,
// and serves `fluxwatch check --evidence` as well as every synthesis.
//
// # Statuses
//
//   - verified: the excerpt, whitespace-normalised, occurs in the file and the
//     occurrence overlaps the cited lines. A claim without an excerpt (a bare
//     file:line reference) is verified when the file exists and the cited
//     lines are in it.
//   - moved: the excerpt occurs in the file, but not at the cited lines; Found
//     names the occurrence nearest the cited start ("path:20-22").
//   - mismatch: the cited lines exist and the excerpt is nowhere in the file;
//     the note quotes what the cited lines hold, when it may (below).
//   - missing-file: no such file, a directory, or a path that leaves the
//     repository ("..", an absolute path, a symlink out of it or an absolute
//     symlink): never read.
//   - out-of-range: the file is shorter than the cited lines (or the range is
//     empty: line 0, an end before the start) and the excerpt, if any, is not
//     in it.
//   - skipped: the file exists but is not read: binary (a NUL byte in its first
//     8,000 bytes, git's rule), over the size cap (Options.MaxFile, 4 MiB by
//     default), not a regular file (a FIFO or device: opened non-blocking, so
//     it never hangs), or not readable. A skipped claim neither grounds nor
//     fails a finding.
//
// # Quoting
//
// A mismatch note goes into summary.md, findings.json and the page, which
// travel further than the repository does, so it quotes a file only when
// git tracks it (SPEC §10: secrets stay out of reports): a git-ignored
// .env, an untracked key file, a tracked link to an ignored file, or any
// file of a repository that is not a git work tree is never quoted ("line
// 3 holds other text (not quoted: the file is not tracked by git)"). Open
// asks git once per Check, about the files with a claim that has an
// excerpt (Options.Tracked replaces it; New quotes no file). Nor is a line
// quoted that looks like a credential: a private key, a token of a
// well-known shape, a URL with a password, a secret-named key assigned a
// literal ("not quoted: it looks like a credential").
//
// # Comparison
//
// Whitespace-normalised means: every run of white space (including line
// breaks and indentation) counts as one space, and blank lines are ignored,
// in the file and in the excerpt alike; the excerpt must then occur as a
// substring. So re-indented code, a paste that re-wraps a statement, and a
// fragment of a line all verify. Agents elide: a line that is only "..." or
// "…" (optionally behind a comment marker, "// ...") and any "..." or "…"
// inside a line split the excerpt into pieces that must occur in order,
// within a few lines more than the excerpt and the cited range span.
//
// # Cost
//
// Claims are grouped by file: each file is opened and read at most once per
// [Verifier.Check] call, files are read by a bounded number of goroutines
// (Options.Jobs), and the results come back in the order of the claims. Only
// the files in flight are held in memory.
package evidence
