// Package livepage serves the page of package page live, over HTTP on a
// loopback address (`fluxwatch watch --serve`): GET / (the page), GET
// /events (Server-Sent Events carrying each new rendering) and GET
// /findings.json, and nothing else.
//
// It owns the network side of the page: the listener (loopback unless the
// caller says public), the Host check against DNS rebinding, the response
// headers (the CSP that allows only page's live script), and the bounds
// SPEC §10 sets on whoever can reach it (header and write deadlines, idle
// timeout, a connection limit that closes the idlest).
//
// It must never render (page does), read the run directory or a file of
// it, or accept a write: it serves only what Server.Publish was given. It
// is apart from page so that page stays pure and links no network code.
package livepage
