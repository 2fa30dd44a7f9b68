// Package bus owns the peer-findings bus (SPEC §3) end to end: a JSONL file
// that many agent processes append to at once while they work. Its format
// (Entry, the canonical line of Encode, the shapes Decoder normalises), its
// writer (Append) and its readers (Read, Tail, Follow) all live here; no
// other package decodes a bus line.
//
// Decoding (Decoder, DecodeAll) is pure: bytes in, entries and positioned
// diagnostics out, fed in any pieces, in memory bounded by the longest line
// accepted.
//
// Writing (Append) validates a record, takes an exclusive flock(2) on
// "{bus}.lock" — the lock file the shell helper locks with
// `( flock -x 203; printf '%s\n' "$line" >> f ) 203>f.lock` — and writes the
// whole line with one write(2) on an O_APPEND descriptor, so records from
// fluxwatch and from shell writers never tear or interleave, at any size.
//
// Reading (Read, Tail, Follow) never parses past the last newline: the bytes
// of a record still being written are held until its newline arrives. A Tail
// reads only what was appended since its last poll; a file that shrinks or is
// replaced (new inode) is read again from the start, with a diagnostic.
package bus
