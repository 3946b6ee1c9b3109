#!/usr/bin/env bash
# Seconds from `npm start` to the first 200 on /readyz, on a built checkout (npm install has built it;
# nothing changed since). Runs it N times (default 5) on PORT (default 4100) and prints each and the median.
# Usage: bash bench/first-answer.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
port=${PORT:-4100}
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  PORT=$port setsid npm start >/dev/null 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$port/readyz"; do sleep 0.05; done
  times+=("$(( ($(date +%s%N) - start) / 1000000 ))")
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  while curl -s -o /dev/null "http://127.0.0.1:$port/readyz"; do sleep 0.05; done
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "first 200 after npm start (ms): ${times[*]}; median ${sorted[$(( runs / 2 ))]}"
