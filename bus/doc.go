// Package bus owns the peer-findings bus (SPEC §3): a JSONL file that many
// agent processes append to at once while they work. Its record is
// package record's ([Entry] is record.Entry, so that the pure packages take
// records without linking this one); its canonical line ([Encode]), the
// shapes [Decoder] normalises, its writer ([Append]) and its readers
// ([Read], [ReadFile], [DecodeBatches], [Tail], [Follow]) live here, and no
// other package decodes a bus line. [Backend] is the bus as an interface:
// [FileBackend] is this file; package natsbus is the JetStream stream;
// [Schemes.Open] chooses by the name's URL scheme. [Relay] mirrors two
// backends, waiting on a store that does not answer ([ErrUnavailable], the
// one error every backend wraps for that).
//
// Decoding is pure: bytes in, entries and positioned diagnostics out, fed
// in any pieces, in memory bounded by the longest line. Writing takes an
// exclusive flock on "{bus}.lock" (the shell helper's lock), ends a killed
// writer's fragment with "\n", and writes the line with one write(2) on an
// O_APPEND descriptor, returning once it is fdatasynced. Reading never
// parses past the last newline, and reads again from the start a file that
// shrinks or is replaced (in Tail.Poll and nowhere else). Every reader and
// the writer refuse a path that is not a regular file, at once
// (fsio.ErrNotRegular): nothing blocks on a FIFO.
//
// It must never print, nor decide which files of a run directory are its
// bus: the names are parse.BusNames, and finding them in a directory is
// package watcher's (OpenBus, BusPaths, BusToWrite).
package bus
