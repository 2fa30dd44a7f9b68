// Package record holds the record of the peer-findings bus (SPEC §3) as the
// pure packages see it: [Entry], its kinds and its severities. It exists so
// that synth, verify and page can take bus entries without linking the
// bus's reader and writer (flock, fsnotify, x/sys): package bus decodes and
// writes these records and names them by alias (bus.Entry is record.Entry).
//
// It owns the type and nothing else. It must never import anything but
// parse and the standard library's pure packages, and never read a file,
// a clock or the environment; decoding a line is bus's.
package record
