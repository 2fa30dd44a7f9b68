package reportgen

import (
	"bytes"
	"fmt"
	"strings"
)

// The shapes of SPEC §2.3's general reader: review reports with no index,
// each labelling its findings in one of the places §2.3 names. Their
// groups, tables and restating lists grow with the report, as a long
// report's do: a 16 MiB report of severity groups has four groups of
// tens of thousands of findings each, a table report six tables of as
// many rows, so that work done per group or table for each of its lines
// shows as superlinear time.
const (
	// ## 🟠 HIGH — fix before release (N items), then "### n. Title" or
	// "n. **Title** — …" items, each with Location/Impact/Fix fields.
	SevGroups Shape = "sev-groups"
	// ### Title, then a field block: **Severity:** 🔴 CRITICAL — data loss,
	// - **Risk:** High, **Severity:** MEDIUM-HIGH, **Priority:** P2.
	FieldBlock Shape = "field-block"
	// ### 2. CRITICAL: Title, 3. **[HIGH] Title** — …, **Finding QA-7
	// (High):** Title: levels after a number or an ID.
	Numbered Shape = "numbered"
	// ### Title — HIGH, - **Title** — Medium: a level trailing after a dash.
	TrailingDash Shape = "trailing-dash"
	// ### HIGH-012: Title, ### CRIT-3: Title, - **SEC-P0-2**: Title: the
	// level inside the ID.
	IDLevels Shape = "id-levels"
	// | # | Finding | Severity | Location | tables under topic headings.
	TableAny Shape = "table-any"
	// Findings in the body, then an executive summary and a list of
	// recommendations that restate them (by title, by ID).
	Restate Shape = "restate"
	// Open findings beside struck (~~CRITICAL~~), ✅ fixed, ticked and
	// Status: Resolved ones.
	Resolved Shape = "resolved"
	// A review tool's JSON output saved as the report.
	JSONBody Shape = "json-body"
	// Plain lines (not bold, not headings) that label a finding
	// ("P1: Title", "[HIGH] Title", "CRITICAL: Title") over a paragraph,
	// and plain group-name lines ("MEDIUM", "Minor issues:") over a list.
	PlainLabels Shape = "plain-labels"
	// A PR bot's folded comments: <details> groups whose <summary> is a
	// severity group ("🔴 Critical (N)"), each finding a <details> of its
	// own with "<summary><b>[HIGH] Title</b></summary>".
	Details Shape = "details"
	// An audit's "#### H-01 Title" headings (C/H/M/L/I letter codes), PR
	// bot badge lines ("_⚠️ Potential issue_ | _🟠 Major_") over a bold
	// title, and quoted "> **[P1] Title**" lead-ins.
	AuditIDs Shape = "audit-ids"
	// "- **MAJOR** Title", "**Critical** Title" and "1. **Severity: High**
	// — Title": a bold severity leading an item or a line.
	BoldLeads Shape = "bold-leads"
	// A contest audit's "## H-01: Title" headings over a summary and a
	// recommendation heading, and "# Issue M-3: Title".
	Contest Shape = "contest"
	// "### LG-01 Title" over a "**CVSS 3.1:** 8.1 (AV:N/…)" field, or a
	// score in the heading.
	CVSS Shape = "cvss"
	// Severity words of other languages: "### 2. Hoch: Titel",
	// "### [Élevé] Titre", "### Критично: …".
	Languages Shape = "languages"
	// A review bot's badge image whose alt text is the level over the
	// paragraph that is the finding, between rules.
	Badges Shape = "badges"
	// A scanner's "✗ High severity vulnerability found in pkg" lines.
	Scanner Shape = "scanner"
	// | Vulnerability | Rating | tables.
	Rating Shape = "rating"
	// "### n. CRITICAL: Title" where a few titles recur again and again,
	// each at another place: many findings share one title.
	Repeated Shape = "repeated"
	// "### Alert n: Title" over a run of bullet fields in any order
	// ("- **Rule:**", "- **CWE:**", "- **Severity:** High" among them):
	// the fields of one finding, whatever their names.
	FieldRuns Shape = "field-runs"
	// A tool's printout pasted in fences with no language (or text,
	// console): "pkg  <1.2.3" over "Severity: high", and ">> Issue: …"
	// over "Severity: High   Confidence: Medium" printed in columns.
	Fences Shape = "fences"
	// <table> exports with a <th> header row and one <tr> per line, a
	// severity column among the cells.
	HTMLTables Shape = "html-tables"
	// A tracker export: paragraphs of bold fields and nothing else
	// ("**Key:** PAY-901", "**Summary:** Title", "**Priority:** Highest")
	// in any order, some of them resolved ("**Status:** Done").
	FieldParas Shape = "field-paras"
	// Topic sections with a per-section "**Verdict:**" line about the
	// topic and a tally in words ("2 high, 1 medium") over the findings,
	// and the overall verdict at the end.
	Verdicts Shape = "verdicts"
	// HTML headings on one line, as a report rendered from HTML writes
	// them: "<h2 id=\"high\">High</h2>" severity groups over "<h3>Title</h3>"
	// findings, and "<h3>[HIGH] Title</h3>" labelled ones.
	HTMLItems Shape = "html-items"
	// A section of each Markdown shape above, one after another.
	Mix Shape = "mix"
)

// General lists the shapes of the general reader (§2.3).
var General = []Shape{SevGroups, FieldBlock, Numbered, TrailingDash, IDLevels, TableAny, Restate, Resolved, JSONBody,
	PlainLabels, Details, AuditIDs, BoldLeads, Contest, CVSS, Languages, Badges, Scanner, Rating, Repeated, FieldRuns,
	Fences, HTMLTables, FieldParas, Verdicts, HTMLItems, Mix}

// IsGeneral reports whether reports of shape s are read by §2.3's general
// reader.
func (s Shape) IsGeneral() bool {
	for _, g := range General {
		if g == s {
			return true
		}
	}
	return false
}

// A bucketed report is written into buckets, each a section of the report
// that grows with it (a group, a table, a restating list), and put
// together at the end under each bucket's heading.
type bucket struct {
	head  string // written before the items, %d for their count
	items bytes.Buffer
	n     int
}

func (g *gen) general(size int) []byte {
	if g.shape == Mix {
		return g.mix(size)
	}
	// A group heading states its count: the same title twice in a
	// group would be one finding, fewer than the heading says.
	g.fresh = g.shape == SevGroups || g.shape == Details || g.shape == HTMLItems
	var b bytes.Buffer
	b.Grow(size + 1024)
	head, tail := g.generalHead(), g.generalTail()
	bs := g.buckets()
	for i := 0; ; i++ {
		add := g.generalItem(i)
		n := len(head) + len(tail)
		for k, x := range bs {
			n += x.items.Len() + len(add[k])
			if x.n > 0 || add[k] != "" {
				n += len(x.head) + 8 // the count written for %d
			}
		}
		if n > size {
			break
		}
		for k, s := range add {
			if s != "" {
				bs[k].items.WriteString(s)
				bs[k].n++
			}
		}
	}
	b.WriteString(head)
	for _, x := range bs {
		if x.n == 0 {
			continue
		}
		if strings.Contains(x.head, "%d") {
			fmt.Fprintf(&b, x.head, x.n)
		} else {
			b.WriteString(x.head)
		}
		b.Write(x.items.Bytes())
	}
	b.WriteString(tail)
	return b.Bytes()
}

// mix writes a section of each Markdown shape of the general reader.
func (g *gen) mix(size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 1024)
	b.WriteString("# Review of the release branch\n\n")
	shapes := []Shape{SevGroups, FieldBlock, Numbered, TrailingDash, IDLevels, TableAny, Restate, Resolved, PlainLabels,
		Details, AuditIDs, BoldLeads, Contest, CVSS, Languages, Badges, Scanner, Rating, Repeated, FieldRuns, Fences,
		HTMLTables, FieldParas, Verdicts}
	for k, s := range shapes {
		// Each part gets what is left over the parts still to come: a
		// part falls short of its size by up to a few hundred bytes.
		part := Report(s, (size-b.Len()-2*(len(shapes)-k))/(len(shapes)-k))
		// Less each part's title: the sections stand under one report.
		if i := bytes.Index(part, []byte("\n## ")); i >= 0 {
			part = part[i+1:]
		}
		b.Write(part)
		b.WriteString("\n")
	}
	return b.Bytes()
}

func (g *gen) generalHead() string {
	switch g.shape {
	case JSONBody:
		return "{\n  \"tool\": \"review-bot\",\n  \"findings\": [\n"
	case TableAny:
		return "# Security and design review\n\nThe review covers the service and its clients.\n\n"
	}
	return "# Code review: the release branch\n\nThe reviewer read every change of the branch.\n\n"
}

func (g *gen) generalTail() string {
	switch g.shape {
	case JSONBody:
		return "    {\"title\": \"Last check\", \"severity\": \"low\", \"file\": \"README.md\", \"line\": 1}\n  ],\n  \"verdict\": \"changes requested\"\n}\n"
	case Resolved:
		return "\n## Verdict\n\n**Verdict:** needs-changes\n"
	case Fences:
		return "```\n\nUpgrade the packages before the release.\n\n## Verdict\n\n**Verdict:** risky\n"
	case HTMLTables:
		return "  </tbody>\n</table>\n\n<h2>Verdict</h2>\n\n**Verdict:** risky\n"
	}
	return "\n## Conclusion\n\n**Verdict:** risky — fix the critical findings first.\n\n<!-- flux-drive:complete -->\n"
}

// buckets are the sections of a report of the shape: their headings.
func (g *gen) buckets() []*bucket {
	mk := func(heads ...string) []*bucket {
		bs := make([]*bucket, len(heads))
		for i, h := range heads {
			bs[i] = &bucket{head: h}
		}
		return bs
	}
	switch g.shape {
	case SevGroups:
		return mk("## 🔴 CRITICAL — fix before release (%d items)\n\n", "## 🟠 HIGH Priority Issues\n\n",
			"## 🟡 Medium (%d)\n\n", "## Low / Nits\n\n")
	case TableAny:
		var hs []string
		for _, s := range []string{"Authentication", "API Design", "Storage", "Concurrency", "Deployment", "Observability"} {
			hs = append(hs, fmt.Sprintf("## %s\n\nWhat the review found in this area:\n\n| # | Finding | Severity | Location |\n|---|---------|----------|----------|\n", s))
		}
		return mk(hs...)
	case Restate:
		return mk("## Detailed Findings\n\n", "\n## Executive Summary\n\nThe review found these issues:\n\n",
			"\n## Recommendations\n\nFix them in this order:\n\n")
	case JSONBody:
		return mk("")
	case PlainLabels:
		return mk("## Findings\n\n", "MEDIUM\n", "\nMinor issues:\n")
	case Details:
		return mk("## Review comments\n\n<details>\n<summary>🔴 Critical (%d)</summary>\n\n",
			"</details>\n\n<details>\n<summary>🟠 High (%d)</summary>\n\n",
			"</details>\n\n<details>\n<summary>🟡 Medium (%d)</summary>\n\n",
			"</details>\n\n<details>\n<summary>🟢 Low (%d)</summary>\n\n")
	case AuditIDs:
		return mk("## Findings\n\n", "\n## Review bot comments\n\n", "\n## Notes from the second reader\n\n")
	case Contest:
		return mk("")
	case Fences:
		return mk("## Dependency audit\n\nThe audit printed this on the branch:\n\n```\n== dependency report ==\n\n",
			"```\n\n## Static analysis\n\n```text\n", "```\n\n## Linter\n\n```console\n")
	case HTMLTables:
		var hs []string
		for k, s := range []string{"Web front end", "Payments", "Accounts"} {
			h := "<h2>%s</h2>\n<table>\n  <thead><tr><th>Ref</th><th>Severity</th><th>Title</th></tr></thead>\n  <tbody>\n"
			if k > 0 {
				h = "  </tbody>\n</table>\n\n" + h
			}
			hs = append(hs, fmt.Sprintf(h, s))
		}
		return mk(hs...)
	case HTMLItems:
		return mk("<h2 id=\"critical\">🔴 Critical</h2>\n\n", "<h2>High</h2>\n\n", "<h2>Medium</h2>\n\n", "<h2>Low</h2>\n\n",
			"<h2>Other findings</h2>\n\n")
	case FieldParas:
		return mk("## Tracker export: open defects\n\n**Reviewer:** release QA\n**Summary:** Defects found this week\n\n")
	case Rating:
		return mk("## Upload service\n\n| Vulnerability | Rating |\n|---|---|\n",
			"\n## Admin console\n\n| # | Vulnerability | Rating | Where |\n|---|---|---|---|\n")
	}
	return mk("## Findings\n\n")
}

var sevEmoji = map[string]string{"P0": "🔴", "P1": "🟠", "P2": "🟡", "P3": "🟢"}

// sevWordsMixed are the ways reports write each level, besides P-levels.
var sevWordsMixed = map[string][]string{
	"P0": {"CRITICAL", "Critical", "BLOCKER", "🔴 CRITICAL"},
	"P1": {"HIGH", "High", "Major", "🟠 HIGH"},
	"P2": {"MEDIUM", "Medium", "Moderate", "MEDIUM-LOW"},
	"P3": {"LOW", "Low", "Minor", "Nit"},
}

func (g *gen) sevWord(sev string) string {
	ws := sevWordsMixed[sev]
	return ws[g.r.IntN(len(ws))]
}

// repeatedTitle is one of eight titles of the level: a report of this
// shape names the same few faults again and again.
func (g *gen) repeatedTitle(sev string) string {
	k := int(sev[1]-'0')*8 + g.r.IntN(8)
	return strings.ToUpper(g.words[k][:1]) + g.words[k][1:] + " " + strings.Join(g.words[k+32:k+36], " ")
}

func (g *gen) sentence() string {
	n := 8 + g.r.IntN(8)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.words[g.r.IntN(len(g.words))]
	}
	return strings.Join(ws, " ") + "."
}

// fields are a finding's fields: part of it, never findings of their own.
func (g *gen) fields(indent string) string {
	return fmt.Sprintf("%s- **Location**: `%s`\n%s- **Impact**: %s\n%s- **Fix**: %s\n", indent, g.ref(), indent,
		g.sentence(), indent, g.sentence())
}

// generalItem returns the text finding i adds to each bucket ("" for none).
func (g *gen) generalItem(i int) []string {
	sev := sevs[g.r.IntN(len(sevs))]
	t := g.title()
	switch g.shape {
	case SevGroups:
		add := make([]string, 4)
		k := sev[1] - '0'
		if k%2 == 0 {
			add[k] = fmt.Sprintf("### %d. %s\n\n%s\n%s\n", i+1, t, g.sentence(), g.fields(""))
		} else {
			add[k] = fmt.Sprintf("%d. **%s** — %s\n%s", i+1, t, g.sentence(), g.fields("   "))
		}
		return add
	case FieldBlock:
		var field string
		switch i % 4 {
		case 0:
			field = fmt.Sprintf("**Severity:** %s %s — %s", sevEmoji[sev], sevWords[sev], g.words[g.r.IntN(len(g.words))])
		case 1:
			field = fmt.Sprintf("- **Risk:** %s", g.sevWord(sev))
		case 2:
			field = fmt.Sprintf("**Priority:** %s", sev)
		default:
			field = fmt.Sprintf("**Severity**: %s", g.sevWord(sev))
		}
		return []string{fmt.Sprintf("### %s\n\n%s\n**Location:** `%s`\n\n%s\n\n", t, field, g.ref(), g.sentence())}
	case Numbered:
		switch i % 3 {
		case 0:
			return []string{fmt.Sprintf("### %d. %s: %s\n\n%s\n\n", i+1, sevWords[sev], t, g.sentence())}
		case 1:
			return []string{fmt.Sprintf("%d. **[%s] %s** — %s\n\n", i+1, g.sevWord(sev), t, g.sentence())}
		}
		return []string{fmt.Sprintf("**Finding %s (%s):** %s\n\n%s\n\n", id(i), g.sevWord(sev), t, g.sentence())}
	case TrailingDash:
		if i%2 == 0 {
			return []string{fmt.Sprintf("### %s — %s\n\n%s\n\n", t, sevWords[sev], g.sentence())}
		}
		return []string{fmt.Sprintf("- **%s** — %s\n\n", t, g.sevWord(sev))}
	case IDLevels:
		w := []string{"CRIT", "HIGH", "MED", "LOW"}[sev[1]-'0']
		switch i % 4 {
		case 0:
			return []string{fmt.Sprintf("### %s-%03d: %s\n\n%s\n\n", w, i, t, g.sentence())}
		case 1:
			return []string{fmt.Sprintf("### SEC-%s-%d: %s\n\n%s\n\n", sev, i, t, g.sentence())}
		case 2:
			return []string{fmt.Sprintf("- **%s-%d**: %s (`%s`)\n", sev, i, t, g.ref())}
		}
		return []string{fmt.Sprintf("#### %s-%d — %s\n\n%s\n\n", []string{"CRITICAL", "HIGH", "MEDIUM", "LOW"}[sev[1]-'0'], i, t, g.sentence())}
	case TableAny:
		add := make([]string, 6)
		add[g.r.IntN(6)] = fmt.Sprintf("| %d | %s | %s | `%s` |\n", i+1, t, g.sevWord(sev), g.ref())
		return add
	case Restate:
		fid := fmt.Sprintf("F-%d", i+1)
		add := make([]string, 3)
		add[0] = fmt.Sprintf("### %s: %s\n\n**Severity:** %s\n\n%s\n\n", fid, t, g.sevWord(sev), g.sentence())
		add[1] = fmt.Sprintf("- **[%s] %s**\n", sev, t)
		if sev <= "P1" {
			add[2] = fmt.Sprintf("%d. Fix %s first (%s): %s\n", i+1, fid, sev, g.words[g.r.IntN(len(g.words))])
		}
		return add
	case Resolved:
		switch i % 5 {
		case 0:
			return []string{fmt.Sprintf("### ~~%s~~ %s\n\nFixed in the last revision.\n\n", sevWords[sev], t)}
		case 1:
			return []string{fmt.Sprintf("### %s: %s — ✅ Fixed\n\n%s\n\n", sevWords[sev], t, g.sentence())}
		case 2:
			return []string{fmt.Sprintf("- [x] **%s**: %s\n", sevWords[sev], t)}
		case 3:
			return []string{fmt.Sprintf("### [%s] %s\n\n- **Status:** Resolved\n- **Location:** `%s`\n\n", sev, t, g.ref())}
		}
		return []string{fmt.Sprintf("### [%s] %s\n\n- **Status:** Open\n- **Location:** `%s`\n\n", sev, t, g.ref())}
	case PlainLabels:
		add := make([]string, 3)
		switch {
		case sev == "P2":
			add[1] = fmt.Sprintf("- %s: %s\n", t, g.sentence())
		case sev == "P3":
			add[2] = fmt.Sprintf("- %s in `%s`\n", t, g.ref())
		case i%3 == 0:
			add[0] = fmt.Sprintf("%s: %s\n%s\n\n", sev, t, g.sentence())
		case i%3 == 1:
			add[0] = fmt.Sprintf("[%s] %s\n%s\n\n", sevWords[sev], t, g.sentence())
		default:
			add[0] = fmt.Sprintf("%s: %s\n%s\n\n", sevWords[sev], t, g.sentence())
		}
		return add
	case Details:
		add := make([]string, 4)
		add[sev[1]-'0'] = fmt.Sprintf("<details>\n<summary><b>[%s] %s</b></summary>\n\n%s\n\n`%s`\n\n</details>\n\n",
			sevWords[sev], t, g.sentence(), g.ref())
		return add
	case AuditIDs:
		add := make([]string, 3)
		switch i % 3 {
		case 0:
			add[0] = fmt.Sprintf("#### %c-%02d %s\n\n%s\n\n", "CHML"[sev[1]-'0'], i, t, g.sentence())
		case 1:
			add[1] = fmt.Sprintf("_⚠️ Potential issue_ | _%s %s_\n\n**%s**\n\n%s\n\n", sevEmoji[sev],
				[]string{"Critical", "Major", "Minor", "Trivial"}[sev[1]-'0'], t, g.sentence())
		default:
			add[2] = fmt.Sprintf("> **[%s] %s**\n> %s\n\n", sev, t, g.sentence())
		}
		return add
	case BoldLeads:
		w := []string{"BLOCKER", "MAJOR", "Medium", "Minor"}[sev[1]-'0']
		switch i % 3 {
		case 0:
			return []string{fmt.Sprintf("- **%s** %s\n", w, t)}
		case 1:
			return []string{fmt.Sprintf("**%s** %s\n\n%s\n\n", sevWords[sev][:1]+strings.ToLower(sevWords[sev][1:]), t, g.sentence())}
		}
		return []string{fmt.Sprintf("%d. **Severity: %s** — %s\n", i+1, g.sevWord(sev), t)}
	case Contest:
		c := "CHML"[sev[1]-'0'] // an audit numbers each level below 1000
		if i%2 == 0 {
			return []string{fmt.Sprintf("## %c-%02d: %s\n\n%s\n\n## Recommendation\n%s\n\n", c, i%1000, t, g.sentence(), g.sentence())}
		}
		return []string{fmt.Sprintf("# Issue %c-%d: %s\n\n## Summary\n%s\n\n", c, i%1000, t, g.sentence())}
	case CVSS:
		score := []string{"9.8", "8.1", "5.3", "2.7"}[sev[1]-'0']
		switch i % 3 {
		case 0:
			return []string{fmt.Sprintf("### %s %s\n**CVSS 3.1:** %s (AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N)\n\n%s\n\n", id(i), t, score, g.sentence())}
		case 1:
			return []string{fmt.Sprintf("### %s %s\n- **CVSS Base Score:** %s\n\n", id(i), t, score)}
		}
		return []string{fmt.Sprintf("### %s %s (CVSS %s)\n\n%s\n\n", id(i), t, score, g.sentence())}
	case Languages:
		k := sev[1] - '0'
		switch i % 3 {
		case 0:
			return []string{fmt.Sprintf("### %d. %s: %s\n%s\n\n", i+1, []string{"Kritisch", "Hoch", "Mittel", "Niedrig"}[k], t, g.sentence())}
		case 1:
			return []string{fmt.Sprintf("### [%s] %s\n\n", []string{"Critique", "Élevé", "Moyen", "Faible"}[k], t)}
		}
		return []string{fmt.Sprintf("### %s: %s\n\n", []string{"Критично", "Высокий", "Средне", "Незначительно"}[k], t)}
	case Badges:
		w := strings.ToLower(sevWords[sev])
		if i%2 == 0 {
			return []string{fmt.Sprintf("---\n\n![%s](https://example.invalid/review/%s-priority.svg)\n\n%s %s\n\n`%s`\n\n", w, w, t+".", g.sentence(), g.ref())}
		}
		return []string{fmt.Sprintf("---\n\n![%s](https://example.invalid/review/%s-priority.svg) %s.\n\n", w, w, t)}
	case Scanner:
		w := sevWords[sev][:1] + strings.ToLower(sevWords[sev][1:])
		return []string{fmt.Sprintf("✗ %s severity vulnerability found in %s\n  Description: %s\n  Introduced through: %s@1.%d.0\n\n",
			w, g.words[g.r.IntN(len(g.words))], t, g.words[g.r.IntN(64)], g.r.IntN(20))}
	case Rating:
		add := make([]string, 2)
		if i%2 == 0 {
			add[0] = fmt.Sprintf("| %s | %s |\n", t, g.sevWord(sev))
		} else {
			add[1] = fmt.Sprintf("| %d | %s | %s | `%s` |\n", i+1, t, g.sevWord(sev), g.ref())
		}
		return add
	case Repeated:
		return []string{fmt.Sprintf("### %d. %s: %s\n\n%s\n\n`%s`\n\n", i+1, sevWords[sev], g.repeatedTitle(sev), g.sentence(), g.ref())}
	case FieldRuns:
		fs := []string{fmt.Sprintf("- **Rule:** `%s/%s`\n", g.words[g.r.IntN(64)], g.words[g.r.IntN(len(g.words))]),
			fmt.Sprintf("- **Location:** `%s`\n", g.ref()),
			fmt.Sprintf("- **Severity:** %s\n", []string{"Critical", "High", "Warning", "Low"}[sev[1]-'0']),
			fmt.Sprintf("- **CWE:** CWE-%d\n", 20+g.r.IntN(900))}
		g.r.Shuffle(len(fs), func(a, b int) { fs[a], fs[b] = fs[b], fs[a] })
		return []string{fmt.Sprintf("### Alert %d: %s\n%s\n", i+1, t, strings.Join(fs, ""))}
	case Fences:
		add := make([]string, 3)
		w := sevWords[sev][:1] + strings.ToLower(sevWords[sev][1:])
		switch k := g.r.IntN(3); k {
		case 0:
			add[0] = fmt.Sprintf("%s  <1.%d.%d\nSeverity: %s\n%s\nupgrade to 1.%d.0\n\n", g.words[g.r.IntN(len(g.words))],
				g.r.IntN(20), g.r.IntN(10), strings.ToLower(w), t, g.r.IntN(20))
		default:
			add[k] = fmt.Sprintf(">> Issue: [B%03d:%s] %s.\n   Severity: %s   Confidence: Medium\n   Location: %s:%d\n\n",
				g.r.IntN(1000), g.words[g.r.IntN(64)], t, w, g.ref(), 1+g.r.IntN(40))
		}
		return add
	case HTMLTables:
		add := make([]string, 3)
		add[g.r.IntN(3)] = fmt.Sprintf("    <tr><td>W-%d</td><td><b>%s</b></td><td>%s</td></tr>\n", i+1,
			[]string{"Critical", "High", "Medium", "Info"}[sev[1]-'0'], t)
		return add
	case HTMLItems:
		add := make([]string, 5)
		if i%3 == 2 {
			add[4] = fmt.Sprintf("<h3>[%s] %s</h3>\n\n%s\n\n", sevWords[sev], t, g.sentence())
		} else {
			add[sev[1]-'0'] = fmt.Sprintf("<h3 id=\"f%d\">%s</h3>\n\n%s\n\n", i+1, t, g.sentence())
		}
		return add
	case FieldParas:
		fs := []string{fmt.Sprintf("**Key:** LED-%d\n", i+1), fmt.Sprintf("**Summary:** %s\n", t),
			fmt.Sprintf("**Priority:** %s\n", []string{"Highest", "High", "Medium", "Low"}[sev[1]-'0'])}
		g.r.Shuffle(len(fs), func(a, b int) { fs[a], fs[b] = fs[b], fs[a] })
		if i%4 == 3 {
			fs = append(fs, "**Status:** Done\n")
		}
		return []string{strings.Join(fs, "") + "\n"}
	case Verdicts:
		// A topic section: its findings, a tally in words that states
		// what is read, and a verdict about the topic alone.
		sevs2 := []string{sev, sevs[g.r.IntN(len(sevs))]}
		var b strings.Builder
		fmt.Fprintf(&b, "## %s: %s\n\n", g.section(), g.words[g.r.IntN(len(g.words))])
		n := map[string]int{}
		for _, s := range sevs2 {
			n[s]++
		}
		var tally []string
		for _, s := range []string{"P0", "P1", "P2", "P3"} {
			if n[s] > 0 {
				tally = append(tally, fmt.Sprintf("%d %s", n[s], strings.ToLower(sevWords[s])))
			}
		}
		fmt.Fprintf(&b, "**Findings:** %s\n\n", strings.Join(tally, ", "))
		for k, s := range sevs2 {
			if k > 0 {
				t = g.title()
			}
			fmt.Fprintf(&b, "### %s: %s\n\n%s\n\n", sevWords[s], t, g.sentence())
		}
		v := "approve"
		if sevs2[0] <= "P1" || sevs2[1] <= "P1" {
			v = []string{"revise", "changes requested", "NO-GO", "reject"}[g.r.IntN(4)]
		}
		fmt.Fprintf(&b, "**Verdict:** %s for this area.\n\n", v)
		return []string{b.String()}
	case JSONBody:
		return []string{fmt.Sprintf("    {\n      \"id\": %q,\n      \"title\": %q,\n      \"severity\": %q,\n      \"file\": %q,\n      \"line\": %d,\n      \"body\": %q\n    },\n",
			id(i), t, strings.ToLower(sevWords[sev]), "src/"+g.words[g.r.IntN(64)]+".go", 1+g.r.IntN(900), g.sentence())}
	}
	panic("reportgen: unknown shape " + string(g.shape))
}
