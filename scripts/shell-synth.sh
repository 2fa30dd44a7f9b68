#!/bin/sh
# shell-synth.sh DIR — synthesise a review run the way shell tooling does it
# today, as the baseline of `make bench` (SPEC §9: "the shell + jq pipeline it
# replaces"): awk over the Findings Index lines of every agent report, the
# section:title key of SPEC §5.2, `sort | uniq -c` for convergence, jq over
# the bus. It prints a plain-text summary on standard output.
#
# It does less than `fluxwatch synth`, and is faster for it: only the strict
# index line `- P1 | ID | "Section" | Title` is read (reports in other shapes
# contribute nothing), keys merge only when equal (no fuzzy merging, no file
# refs), and the bus gives counts and the latest entries, with no
# acknowledgement rule. Needs awk, sort, uniq, tail and jq.
set -eu
dir=${1:?usage: shell-synth.sh DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# 1. Every index line as agent <TAB> severity <TAB> key <TAB> title.
find "$dir" -maxdepth 1 -name '*.md' ! -name summary.md ! -name synthesis.md \
	! -name input.md ! -name 'triage*.md' ! -name '*.reactions*.md' -print |
	sort | xargs awk '
	function norm(s) {
		s = tolower(s); gsub(/-/, " ", s); gsub(/[^a-z0-9 ]/, "", s)
		gsub(/ +/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s)
		return s
	}
	FNR == 1 {
		inidx = 0
		agent = FILENAME; sub(/.*\//, "", agent); sub(/\..*/, "", agent)
	}
	/^#+ *(\*\*)?[Ff]indings [Ii]ndex/ { inidx = 1; next }
	inidx && (/^[Vv]erdict:/ || /^#/) { inidx = 0; next }
	inidx && /^- *P[0-3] *\|/ {
		n = split($0, f, "|")
		if (n < 4) next
		sev = f[1]; sub(/^- */, "", sev); sub(/ *$/, "", sev)
		section = f[3]; gsub(/^ *"?|"? *$/, "", section)
		title = f[4]; for (i = 5; i <= n; i++) title = title "|" f[i]
		sub(/^ */, "", title); sub(/ *$/, "", title)
		printf "%s\t%s\t%s:%s\t%s\n", agent, sev, norm(section), norm(title), title
	}' >"$tmp/index.tsv"

agents=$(find "$dir" -maxdepth 1 -name '*.md' ! -name summary.md ! -name synthesis.md \
	! -name input.md ! -name 'triage*.md' ! -name '*.reactions*.md' | wc -l)

# 2. Convergence: distinct agents per key, with the key's highest severity.
cut -f1,3 "$tmp/index.tsv" | sort -u | cut -f2 | sort | uniq -c | sort -k1,1nr -k2 >"$tmp/convergence.txt"
sort -t "$(printf '\t')" -k3,3 -k2,2 "$tmp/index.tsv" |
	awk -F '\t' '$3 != last { print $3 "\t" $2 "\t" $4; last = $3 }' >"$tmp/severity.tsv"

# 3. The verdict: any P0 is risky, any P1 needs changes.
worst=$(cut -f2 "$tmp/index.tsv" | sort -u | head -n 1)
case $worst in
P0) verdict=risky ;;
P1) verdict=needs-changes ;;
*) verdict=safe ;;
esac

echo "# Review Summary (shell)"
echo "Verdict: $verdict ($agents agent reports)"
echo "Findings: $(wc -l <"$tmp/severity.tsv") distinct keys from $(wc -l <"$tmp/index.tsv") index lines"
echo
echo "## Top findings by convergence"
awk -v m="$agents" 'NR == FNR { split($0, f, "\t"); sev[f[1]] = f[2]; title[f[1]] = f[3]; next }
	{ n = $1; key = $0; sub(/^ *[0-9]+ /, "", key); printf "- %s %s (%d/%d agents)\n", sev[key], title[key], n, m }' \
	FS='\n' "$tmp/severity.tsv" "$tmp/convergence.txt" | head -n 20

# 4. The bus: every entry as severity <TAB> agent <TAB> category <TAB> summary.
for bus in "$dir/findings.jsonl" "$dir/peer-findings.jsonl"; do
	[ -f "$bus" ] || continue
	jq -r '[.type // .severity // "", .agent // .from // "", .category // "", .summary // .title // .message // ""] | @tsv' "$bus"
done >"$tmp/bus.tsv"
if [ -s "$tmp/bus.tsv" ]; then
	echo
	echo "## Peer findings: $(wc -l <"$tmp/bus.tsv") entries"
	cut -f1 "$tmp/bus.tsv" | sort | uniq -c | sort -k1,1nr
	echo
	echo "### Blocking entries per agent"
	awk -F '\t' '$1 == "blocking" { print $2 }' "$tmp/bus.tsv" | sort | uniq -c | sort -k1,1nr | head -n 20
	echo
	echo "### Latest entries"
	tail -n 100 "$tmp/bus.tsv"
fi
