// Package bus owns the peer-findings bus (SPEC §3) end to end: a JSONL file
// that many agent processes append to at once while they work. Its format
// (Entry, the canonical line of Encode, the shapes Decoder normalises), its
// writer (Append) and its readers (Read, ReadFile, DecodeBatches, Tail,
// Follow; Open for a caller that streams) all live here; no other package
// decodes a bus line.
//
// Decoding (Decoder, DecodeAll) is pure: bytes in, entries and positioned
// diagnostics out, fed in any pieces, in memory bounded by the longest line
// accepted.
//
// Writing (Append) validates a record, takes an exclusive lock on
// "{bus}.lock" (fsio.Lock: the lock the shell helper takes with
// `( flock -x 203; printf '%s\n' "$line" >> f ) 203>f.lock`), ends the
// fragment a killed writer left (a bus not ending in a newline) with "\n",
// and writes the whole line with one write(2) on an O_APPEND descriptor, so
// records from fluxwatch and from shell writers never tear, interleave or
// swallow one another, at any size. It returns only once the line is
// fdatasynced: an acknowledged record is durable.
//
// Reading never parses past the last newline:
// the bytes of a record still being written are held until its newline
// arrives. A Tail reads only what was appended since its last poll; a file
// that shrinks or is replaced (os.SameFile) is read again from the start,
// with a diagnostic. That rule lives in Tail.Poll and nowhere else.
//
// Every reader and the writer refuse a bus path that is not a regular file
// (FIFO, socket, device, directory) at once, with an error wrapping
// fsio.ErrNotRegular: nothing ever blocks on it.
//
// It must never decide the layout of a run directory (which files are
// buses is watcher's and parse.BusNames') or print.
package bus
