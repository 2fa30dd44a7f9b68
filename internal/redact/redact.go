// Package redact keeps credentials out of what fluxwatch prints (SPEC §10:
// "credentials in URLs are redacted in every log line and message"). It is
// the one redaction of the project: [String] for a message, [Writer] for a
// stream of them (standard error, where every log line, warning and error
// goes).
//
// A URL's credentials are its user information and the values of query
// parameters that carry secrets. net/url's URL.Redacted hides a password
// only; a NATS URL also carries a token as its user alone
// (nats://TOKEN@host), so the whole user information is hidden: user and
// password become "user:xxxxx", a user alone "xxxxx". Query parameters
// whose names speak of a secret (token, password, secret, key, auth,
// credentials, signature, jwt, seed, …) keep their names and lose their
// values. The redaction is textual, so it works on any message that quotes
// a URL, parsed or not, and it is idempotent.
//
// It must never parse anything but the URLs in a text, and it prints
// nothing itself.
package redact

import (
	"bytes"
	"io"
	"net/url"
	"strings"
)

// Mask is what a credential is replaced with, as net/url's Redacted does.
const Mask = "xxxxx"

// URL returns u as a string with its credentials redacted (see String).
func URL(u *url.URL) string { return String(u.String()) }

// String returns s with the credentials of every scheme://… URL in it
// redacted: the user information and the values of secret query
// parameters. s is returned as it is when it holds no URL.
func String(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			break
		}
		sep := i + j
		start := sep
		for start > done && schemeByte(s[start-1]) {
			start--
		}
		for start < sep && !letter(s[start]) {
			start++ // a scheme starts with a letter: "-nats://" is "nats://"
		}
		end := sep + 3
		for end < len(s) && !stops(s[end]) {
			end++
		}
		if start == sep {
			i = sep + 3 // no scheme: not a URL
			continue
		}
		b.WriteString(s[done:start])
		b.WriteString(s[start:sep+3] + redactRest(s[sep+3:end]))
		done, i = end, end
	}
	b.WriteString(s[done:])
	return b.String()
}

// redactRest redacts the part of a URL after "scheme://": its user
// information, then its query.
func redactRest(rest string) string {
	auth := rest
	if k := strings.IndexAny(rest, "/?#"); k >= 0 {
		auth = rest[:k]
	}
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		user := Mask
		if name, _, ok := strings.Cut(auth[:at], ":"); ok {
			user = name + ":" + Mask
		}
		rest = user + rest[at:]
	}
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return rest
	}
	query, frag := rest[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	params := strings.Split(query, "&")
	for n, p := range params {
		if name, _, ok := strings.Cut(p, "="); ok && secret(name) {
			params[n] = name + "=" + Mask
		}
	}
	return rest[:q+1] + strings.Join(params, "&") + frag
}

// secretWords are the pieces of a query parameter's name that say its
// value is a credential.
var secretWords = []string{"token", "pass", "secret", "key", "auth", "cred", "sig", "jwt", "seed", "session", "cookie"}

func secret(name string) bool {
	name = strings.ToLower(name)
	if n, err := url.QueryUnescape(name); err == nil {
		name = n
	}
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// stops reports whether c ends a URL in running text: white space, a
// quote, an angle bracket, a backtick or a control character.
func stops(c byte) bool {
	return c <= ' ' || c == 0x7f || strings.IndexByte("\"'<>`", c) >= 0
}

func letter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// schemeByte reports whether c may be part of a URL scheme (RFC 3986:
// letters, digits, '+', '-', '.').
func schemeByte(c byte) bool {
	return letter(c) || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

// Writer returns a writer that writes to w what it is given with String
// applied, one Write at a time: each log line, warning or error is one
// Write (slog's handlers, fmt.Fprintf), so a URL is never split between
// two. A Write reports all of p written when w took all of its redaction.
func Writer(w io.Writer) io.Writer {
	if _, ok := w.(writer); ok {
		return w
	}
	return writer{w}
}

type writer struct{ w io.Writer }

var sep = []byte("://")

func (r writer) Write(p []byte) (int, error) {
	if !bytes.Contains(p, sep) {
		return r.w.Write(p)
	}
	out := String(string(p))
	n, err := io.WriteString(r.w, out)
	if err != nil {
		if n >= len(out) {
			n = len(p)
		} else {
			n = min(n, len(p)) // nothing better to say of a part
		}
		return n, err
	}
	return len(p), nil
}
