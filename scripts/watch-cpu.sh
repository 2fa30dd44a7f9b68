#!/bin/bash
# watch-cpu.sh BIN RUNDIR [APPENDS [RENAMES]]: what one change costs `watch`.
#
# Copies RUNDIR (a run such as `fluxwatch demo --agents 8000 --findings 50
# --seed 1 DIR` writes) to a temporary directory, starts `BIN watch -q` on it
# and, once the first report is written and the process idle, makes changes
# one at a time: APPENDS bus appends (a notable line matching nothing, default
# 5), RENAMES reports with findings renamed into place (a copy of the first
# agent's report under a new agent's name) and RENAMES reports without a
# finding (default 3 each). For each it prints the process CPU it cost
# (utime+stime from /proc/PID/stat, in ticks of CLK_TCK) and the wall time
# until findings.json was replaced; then the peak RSS. Linux only.
set -eu
BIN=$1 SRC=$2 APPENDS=${3:-5} RENAMES=${4:-3}
D=$(mktemp -d "${TMPDIR:-/tmp}/watch-cpu.XXXXXX")
cp -r "$SRC"/. "$D"/
cpu() { awk '{print $14+$15}' /proc/$PID/stat; }
idle() { local a b; a=$(cpu); while sleep 0.6; b=$(cpu); [ "$a" != "$b" ]; do a=$b; done; }
ino() { stat -c %i "$D/findings.json" 2>/dev/null || true; }
now() { date +%s.%N; }
"$BIN" watch -q "$D" >/dev/null 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -rf "$D"' EXIT
until [ -s "$D/findings.json" ]; do sleep 0.5; done
idle
echo "first report: cpu $(cpu) ticks, rss $(awk '/VmHWM/{print $2}' /proc/$PID/status) kB"
measure() { # label, command
	local c0 i0 t0 t1
	c0=$(cpu) i0=$(ino) t0=$(now)
	eval "$2"
	until [ "$(ino)" != "$i0" ]; do sleep 0.02; done
	t1=$(now)
	idle
	echo "$1: cpu $(($(cpu) - c0)) ticks, findings.json replaced after $(awk "BEGIN{print $t1 - $t0}") s"
}
agent=$(ls "$D" | grep '^fd-agent' | head -1)
for i in $(seq "$APPENDS"); do
	measure "append $i" "printf '%s\n' '{\"severity\":\"notable\",\"agent\":\"fd-late\",\"category\":\"perf\",\"summary\":\"zyxw qvut nothing like it $i\",\"timestamp\":\"2026-11-20T09:59:00Z\"}' >> '$D/findings.jsonl'"
done
for i in $(seq "$RENAMES"); do
	measure "rename with findings $i" "sed 's/fd-agent-0000/fd-new-$i/' '$D/$agent' > '$D/tmp.$i'; mv '$D/tmp.$i' '$D/fd-new-$i.md'"
done
for i in $(seq "$RENAMES"); do
	measure "rename without a finding $i" "printf '# Review by fd-quiet-$i\n\n## Findings Index\n\n| ID | Severity | Section | Title |\n|---|---|---|---|\n\nVerdict: safe\n' > '$D/tmp.q$i'; mv '$D/tmp.q$i' '$D/fd-quiet-$i.md'"
done
echo "peak rss $(awk '/VmHWM/{print $2}' /proc/$PID/status) kB, CLK_TCK $(getconf CLK_TCK)"
