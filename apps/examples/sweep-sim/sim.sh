#!/bin/sh
# A small real program to sweep over: reads a shared model file, "simulates" for a while, writes a result.
# usage: sh sim.sh --seed N --model FILE --out FILE [--seconds S]
set -eu
seed=0; model=''; out=''; seconds=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "sim.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -r "$model" ] || { echo "sim.sh: cannot read model '$model'" >&2; exit 3; }
sleep "$seconds"
digest=$(printf '%s\n' "$seed" | cat - "$model" | sha256sum | cut -c1-64)
{
  echo "seed $seed"
  echo "model $model $(wc -c < "$model") bytes"
  echo "result $digest"
} > "$out"
