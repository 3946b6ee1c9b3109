#!/bin/bash
# usage: ab.sh "<scenarios>" rounds db   — alternates /work/ab-old and /work/main benches
S=$1; R=${2:-2}; DB=${3:-sqlite}
for i in $(seq 1 $R); do
  for side in ab-old main; do
    (cd /work/$side && /work/main/node_modules/.bin/node dist/bench/run.js --db $DB --no-scale --only $S --out /tmp/ab-$side-$i 2>&1 | grep -E "ratio" | sed "s/^/$side /")
  done
done
