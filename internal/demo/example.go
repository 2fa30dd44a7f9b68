package demo

import "time"

// ExampleRun is the run id of the example run.
const ExampleRun = "7c1e2f60-4b7d-4f0e-9a51-2d8c6b9e0a13"

// staleRun is the run of the one foreign report in the example.
const staleRun = "0d4a9c3e-1f2b-4c6d-8e7f-5a6b7c8d9e0f"

// exampleStart is when the example run's agents start; bus entries and file
// times are minutes after it.
var exampleStart = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// exampleFile is one file of the example run and the minute it was last
// written.
type exampleFile struct {
	name   string
	minute int
	body   string
}

// exampleFiles is a realistic review of a small web service's session and
// rate-limiting change by six agents, each writing the way real agents do:
// the strict Findings Index, a table index with severity words, legacy YAML
// front matter, prose without an index, an error stub, and one agent still
// writing. A stale report of an earlier run (an unscoped name, but its
// run-uuid comment names another run) sits beside them.
var exampleFiles = []exampleFile{
	{"fd-architecture." + ExampleRun + ".md", 41, `<!-- run-uuid: ` + ExampleRun + ` -->
### Findings Index
- P1 | AR-001 | "Session Management" | Session tokens stored in localStorage are readable by any script
- P1 | AR-002 | "API Design" | Login endpoint has no rate limiting
- P2 | AR-003 | "Module Boundaries" | Auth middleware reaches into the billing package
- P3 | AR-004 | "Naming" | SessionStore and TokenCache describe the same thing
Verdict: needs-changes

## Summary

The change moves session handling to the browser and adds a login endpoint. The structure is sound, but two
decisions need revisiting before it ships. Per fd-safety's peer finding on token storage, I re-checked the
session flow: the tokens do end up in localStorage.

## Issues Found

### AR-001: Session tokens stored in localStorage are readable by any script

` + "`web/src/session.ts:18-24`" + ` writes the access and refresh tokens to ` + "`localStorage`" + `. Any script on the page,
including a compromised dependency, can read them. Prefer an httpOnly, SameSite=strict cookie.

### AR-002: Login endpoint has no rate limiting

` + "`api/routes/login.go:40`" + ` accepts unlimited attempts per account and per address.

### AR-003: Auth middleware reaches into the billing package

` + "`api/middleware/auth.go:77`" + ` imports ` + "`billing/plans`" + ` to decide session lifetime.

## Improvements

- Document the session lifecycle in docs/auth.md.

--- VERDICT ---
STATUS: warn
FINDINGS: 4 (P0: 0, P1: 2, P2: 1, P3: 1)
<!-- flux-drive:complete -->
`},
	{"fd-safety." + ExampleRun + ".md", 35, `<!-- run-uuid: ` + ExampleRun + ` -->
# Safety review: session storage and login

**Reviewer:** fd-safety
**Date:** 2026-11-20

## Findings Index

| ID | Severity | Section | Title |
|----|----------|---------|-------|
| SAF-01 | CRITICAL | Session Management | Session tokens in localStorage exposed to XSS |
| SAF-02 | HIGH | Secrets | Signing key committed in config/dev.env |
| SAF-03 | MEDIUM | API Design | Login endpoint lacks rate limiting |
| SAF-I1 | IMP | Logging | Redact tokens from request logs |

**Verdict: risky**

## SAF-01: Session tokens in localStorage exposed to XSS

**Evidence**: ` + "`web/src/session.ts:18-20`" + `

**Excerpt**:
` + "```ts" + `
localStorage.setItem("access_token", res.accessToken);
localStorage.setItem("refresh_token", res.refreshToken);
` + "```" + `

Any injected script reads both tokens; the refresh token lives for 30 days.

## SAF-02: Signing key committed in config/dev.env

` + "`config/dev.env:3`" + ` holds the HMAC key used in production builds.

**Evidence**: ` + "`config/dev.env:3`" + `

**Excerpt**:
` + "```" + `
HMAC_KEY=9f2c4e7a1b8d3f60c5e2a9d7b4f1c8e3
` + "```" + `

<!-- flux-drive:complete -->
`},
	{"fd-correctness." + ExampleRun + ".md", 44, `---
agent: fd-correctness
issues:
  - id: CR-01
    severity: P1
    section: Session Management
    title: Refresh races with logout and resurrects the session
  - id: CR-02
    severity: P2
    section: API Design
    title: Login returns 500 instead of 401 on a wrong password
improvements:
  - id: CR-I1
    section: Testing
    title: Add a test for concurrent refresh and logout
verdict: needs-changes
---
<!-- run-uuid: ` + ExampleRun + ` -->

# Correctness review

The refresh handler in ` + "`api/routes/refresh.go:52`" + ` reads the session before the logout handler deletes it and
writes it back afterwards, so a logout during a refresh is undone.

<!-- flux-drive:complete -->
`},
	{"fd-quality." + ExampleRun + ".md", 47, `<!-- run-uuid: ` + ExampleRun + ` -->
# Quality review

I read the diff with an eye on maintainability. I did not produce an index this time; my findings are below.

## Issues

### P1 — Session tokens kept in browser localStorage

The token handling in ` + "`web/src/session.ts:18`" + ` keeps both tokens where scripts can read them. This is the same
concern fd-safety raised on the bus.

### P3 — Login handler is 140 lines long

` + "`api/routes/login.go:12-152`" + ` mixes parsing, validation, rate limiting and the response.

## Notes

Naming is otherwise consistent, and the tests cover the happy path.
`},
	{"fd-performance." + ExampleRun + ".md", 30, `<!-- run-uuid: ` + ExampleRun + ` -->
### Findings Index
Verdict: error

Agent failed to produce findings after retry. Error: context deadline exceeded
`},
	{"fd-user-product." + ExampleRun + ".md.partial", 48, `<!-- run-uuid: ` + ExampleRun + ` -->
### Findings Index
- P2 | UP-001 | "Onboarding" | Session expiry logs users out mid-form without warning
`},
	{"fd-database.md", 5, `<!-- run-uuid: ` + staleRun + ` -->
### Findings Index
- P0 | AR-001 | "Database" | Migration drops the sessions table
Verdict: risky
<!-- flux-drive:complete -->
`},
	{"findings.jsonl", 46, `{"severity":"notable","agent":"fd-architecture","category":"module-boundaries","summary":"Auth middleware reaches into the billing package","file_refs":["api/middleware/auth.go:77"],"timestamp":"2026-11-20T09:12:00Z"}
{"severity":"blocking","agent":"fd-safety","category":"auth","summary":"Session tokens stored in localStorage are readable by any script","file_refs":["web/src/session.ts:18"],"timestamp":"2026-11-20T09:14:00Z"}
{"ts":"2026-11-20T11:20:00+02:00","agent":"fd-performance","kind":"stall","severity":"warn","message":"no output for 10 minutes"}
{"severity":"blocking","agent":"fd-safety","category":"secrets","summary":"Signing key committed in config/dev.env","file_refs":["config/dev.env:3"],"timestamp":"2026-11-20T09:25:00Z"}
{"severity":"notable","agent":"fd-correctness","category":"concurrency","summary":"Refresh races with logout and resurrects the session","file_refs":["api/routes/refresh.go:52"],"timestamp":"2026-11-20T09:31:00Z"}
`},
	{"peer-findings.jsonl", 40, `{"agent":"fd-architecture","severity":"P1","id":"AR-002","type":"blocking","title":"Login endpoint has no rate limiting","note":"Unlimited attempts per account; credential stuffing is cheap."}
`},
	{"findings/frontend.yaml", 20, `specialist_name: frontend
notes: |
  Two ways to keep the session out of scripts' reach. Both need the API to set cookies.
approaches:
  - number: 1
    variant: A
    is_variant: true
    description: httpOnly SameSite=strict cookie set by the API
    relevant_files: ["web/src/session.ts", "api/routes/login.go"]
    required_clarifying_questions:
      - question: Do we need sessions across subdomains?
    pending_refinement: ""
    approach_detail: |
      The API sets the cookie on login and refresh; the web client stops touching tokens.
  - number: 1
    variant: B
    is_variant: true
    description: In-memory access token with a refresh cookie
    relevant_files: ["web/src/session.ts"]
    required_clarifying_questions:
      - question: How long may a refresh token live?
    pending_refinement: Compare the cost of refresh-token rotation with option A
    approach_detail: |
      Keep the short-lived access token in memory; refresh through an httpOnly cookie on reload.
`},
	{"findings/backend.yaml", 22, `specialist_name: backend
notes: |
  Rate limiting belongs in middleware, not in each handler.
approaches:
  - number: 1
    variant: null
    is_variant: false
    description: Token-bucket rate limiter middleware keyed by account and address
    relevant_files: ["api/middleware/ratelimit.go", "api/routes/login.go"]
    required_clarifying_questions: []
    pending_refinement: ""
    approach_detail: |
      A shared limiter with per-route budgets; login gets 5 attempts per minute per account.
`},
	{"design/manifest.yaml", 10, `designs:
  - screenshot_file_name: login-rate-limited.png
    description: Login form after too many attempts, with the retry countdown
`},
	{"repo/web/src/session.ts", 5, `// Session handling for the web client.
import { api } from "./api";

export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

const REFRESH_MARGIN_MS = 60_000;

/** Signs the user in and keeps the tokens for later requests. */
export async function signIn(email: string, password: string): Promise<Session> {
  const res = await api.post("/login", { email, password });
  if (!res.ok) {
    throw new Error(` + "`" + `login failed: ${res.status}` + "`" + `);
  }
  // Tokens are kept across reloads so that a refresh of the page does not
  // sign the user out. The access token lives 15 minutes, the refresh token
  // 30 days; both are read by every request through api.ts.
  // TODO: move the refresh token to an httpOnly cookie.
  // Tokens are kept across reloads.
  const session = { accessToken: res.accessToken, refreshToken: res.refreshToken, expiresAt: res.expiresAt };
  localStorage.setItem("access_token", res.accessToken);
  localStorage.setItem("refresh_token", res.refreshToken);
  return session;
}

/** Reports whether the access token must be refreshed before the next call. */
export function needsRefresh(s: Session, now: number): boolean {
  return s.expiresAt - now < REFRESH_MARGIN_MS;
}

export function signOut(): void {
  localStorage.removeItem("access_token");
  localStorage.removeItem("refresh_token");
}
`},
	{"repo/api/routes/login.go", 5, `package routes

import (
	"encoding/json"
	"net/http"

	"example.com/shop/api/auth"
)

// loginRequest is the body of POST /login.
type loginRequest struct {
	Email    string ` + "`" + `json:"email"` + "`" + `
	Password string ` + "`" + `json:"password"` + "`" + `
}

// Login checks the credentials and issues a session.
func Login(store auth.Store) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req loginRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		user, err := store.UserByEmail(r.Context(), req.Email)
		if err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		if !auth.CheckPassword(user, req.Password) {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		s, err := auth.NewSession(r.Context(), store, user)
		if err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(s)
	}
}

// Register mounts the auth routes. Nothing here limits attempts per account.
func Register(mux *http.ServeMux, store auth.Store) {
	mux.Handle("POST /login", Login(store))
}
`},
	{"repo/config/dev.env", 5, `# Development settings. Never commit real secrets here.
DATABASE_URL=postgres://localhost:5432/shop_dev
HMAC_KEY=${HMAC_KEY:?set HMAC_KEY in the deploy environment}
LOG_LEVEL=debug
`},
}
