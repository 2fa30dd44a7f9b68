// Package protocol holds the texts an agent reads in its prompt: the
// report contract (SPEC §2.1, §2.5: where the report goes, the Findings
// Index with an example, the verdict rule, the error stub, the front
// matter, the check --strict to run) and the Peer Findings Protocol (how
// to write and read the bus with `fluxwatch finding`).
//
// It is not parse: parse reads reports and stays free of prose for people;
// this package writes the instructions whose result parse reads, and its
// test holds the two together (the example it prints parses as valid). It
// owns the wording and the shell quoting of the commands it prints; it must
// never read files or the environment.
package protocol
