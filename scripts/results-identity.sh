#!/usr/bin/env bash
# Checks that a change to the simulator or the scheduler leaves simulated results byte-identical, as the speed
# work must (docs/performance.md): every built-in heuristic simulates the same inputs with two builds, and
# the run records must be cmp-identical, the --json summaries identical but for their timings. The inputs
# are generated here: MCell-style applications with 0 to 3 private inputs per task (runs sharing a first
# input, private sizes equal or drawn), the Figure 11 grid and its 1,200 KB application, and three runs with
# other strategies (output sizes unknown, noisy estimates, shared-files task space on with-room hosts).
#
# Usage: scripts/results-identity.sh OLD NEW, each the root of a built checkout (for the build before a change:
# git worktree add ../before HEAD~1 && (cd ../before && npm ci)). Takes about three minutes in all.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: scripts/results-identity.sh OLD_CHECKOUT NEW_CHECKOUT (both built: npm ci or npm run build)" >&2
  exit 2
fi
for root in "$1" "$2"; do
  [ -f "$root/dist/src/cli/main.js" ] || { echo "results-identity: $root/dist/src/cli/main.js not found: build that checkout first (npm run build)" >&2; exit 2; }
done
# Absolute: the runs below start in the folder of the inputs.
old_cli="$(cd "$1" && pwd)/dist/src/cli/main.js"
new_cli="$(cd "$2" && pwd)/dist/src/cli/main.js"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs="$work/inputs"
mkdir -p "$inputs"

# The inputs, generated with the old build (their bytes are not what is compared).
generate() { # gridsweep generate ARGS…, quiet unless it fails
  (cd "$inputs" && node "$old_cli" generate "$@") >"$work/generate.log" 2>&1 || { cat "$work/generate.log" >&2; exit 1; }
}
generate fig11 --root .
constant() { echo "{\"kind\": \"constant\", \"value\": $1}"; }
uniform() { echo "{\"kind\": \"uniform\", \"min\": $1, \"max\": $2}"; }
mcell() { # name, private inputs per task, their size, size error %, output size
  cat >"$inputs/$1.json" <<EOF
{"chunks": 12, "tasksPerChunk": 25, "sharedFileSizeBytes": $(constant 20000000), "perturbation": 0.1,
 "unsharedInputsPerTask": $2, "unsharedInputSizeBytes": $3, "outputSizeBytes": $5,
 "runTimeS": $(uniform 60 120), "sizeEstimateErrorPct": $4}
EOF
  generate mcell "$1.json" -o "$1.app"
}
mcell m1 1 "$(uniform 50000 60000)" 10 "$(constant 20000)"
mcell m2 1 "$(constant 100000)" 0 "$(uniform 10000 20000)"
mcell m3 2 "$(constant 100000)" 0 "$(constant 20000)"
mcell m4 0 "$(constant 100000)" 0 "$(constant 20000)"
mcell m5 3 "$(uniform 1000 3000)" 5 "$(constant 20000)"

heuristics=(workqueue minmin maxmin sufferage extended-sufferage randomized-minmin randomized-maxmin randomized-sufferage randomized-extended-sufferage sufferage2 xsufferage)
grid=griddescs/fig11/fig11.grid
simulate_all() { # cli, output folder
  local cli=$1 out=$2 h a name
  mkdir -p "$out"
  for h in "${heuristics[@]}"; do
    for a in m1 m2 m3 m4 m5 apps/fig11/fig11-1200kb; do
      name=$(basename "$a")
      node "$cli" simulate --app "$a.app" --grid "$grid" --heuristic "$h" --record "$out/$h-$name.jsonl" --json >"$out/$h-$name.json"
    done
    node "$cli" simulate --app m1.app --grid "$grid" --heuristic "$h" --quality output-unknown --record "$out/$h-m1-unknown.jsonl" --json >"$out/$h-m1-unknown.json"
    node "$cli" simulate --app m5.app --grid "$grid" --heuristic "$h" --quality noisy --record "$out/$h-m5-noisy.jsonl" --json >"$out/$h-m5-noisy.json"
    node "$cli" simulate --app m2.app --grid "$grid" --heuristic "$h" --task-space shared-files --host-candidates with-room --record "$out/$h-m2-shared.jsonl" --json >"$out/$h-m2-shared.json"
  done
}
(cd "$inputs" && simulate_all "$old_cli" "$work/old")
(cd "$inputs" && simulate_all "$new_cli" "$work/new")

differing=0
for f in "$work"/old/*.jsonl; do
  cmp -s "$f" "$work/new/$(basename "$f")" || { echo "differs: $(basename "$f")"; differing=$((differing + 1)); }
done
for f in "$work"/old/*.json; do
  node -e '
    const { readFileSync } = require("node:fs");
    const untimed = (path) => { const o = JSON.parse(readFileSync(path, "utf8")); delete o.planCpuMs; delete o.wallMs; return JSON.stringify(o); };
    process.exit(untimed(process.argv[1]) === untimed(process.argv[2]) ? 0 : 1);
  ' "$f" "$work/new/$(basename "$f")" || { echo "differs: $(basename "$f")"; differing=$((differing + 1)); }
done
runs=$(ls "$work"/old/*.jsonl | wc -l)
if [ "$differing" -gt 0 ]; then
  echo "results-identity: $differing of $((2 * runs)) files differ over $runs runs" >&2
  exit 1
fi
echo "results-identity: $runs runs, every record and summary identical"
