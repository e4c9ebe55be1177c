#!/usr/bin/env bash
# Ceiling reference: the cbench-compatible generator against the trivial responder, each pinned to its own core.
# Prints the generator's lines, the CPU use of both processes once a second, and writes it all to a results file.
#
#   cbench-scripts/reference-benchmark.sh                 # the paper's parameters (13 x 10 s, about 2.5 min)
#   cbench-scripts/reference-benchmark.sh -m 2000 -l 6 -w 2 -s 64 -t -M 100000   # shorter
#
# Environment: CBENCH_CLASSPATH (compiled generator; default: compile with javac into a temp dir), PORT (16633),
# GEN_CPU / RESP_CPU (cores, default 0 and 1), RESULTS_DIR (default cbench-scripts/results).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
port=${PORT:-16633}
gen_cpu=${GEN_CPU:-0}
resp_cpu=${RESP_CPU:-1}
results_dir=${RESULTS_DIR:-$here/results}

classpath=${CBENCH_CLASSPATH:-}
built=""
if [[ -z "$classpath" ]]; then
  built=$(mktemp -d)
  classpath=$built
  javac -d "$classpath" $(find "$here/generator/src/main/java" -name '*.java')
fi

if [[ $# -eq 0 ]]; then
  set -- -s 64 -m 10000 -l 13 -w 3 -M 100000 -t -i 50 -I 5
fi

mkdir -p "$results_dir"
out="$results_dir/reference-$(date +%Y%m%d-%H%M%S).txt"

ticks() { # utime + stime of a process, in clock ticks
  awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

taskset -c "$resp_cpu" java -cp "$classpath" net.beaconcontroller.cbench.TrivialResponder -p "$port" &
resp_pid=$!
trap 'kill "$resp_pid" 2>/dev/null || true; [[ -z "$built" ]] || rm -rf "$built"' EXIT
for _ in $(seq 100); do # until the responder listens
  ss -Hltn "sport = :$port" | grep -q . && break
  sleep 0.1
done

{
  echo "# $(date -Is) $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# responder: taskset -c $resp_cpu java -cp <classes> net.beaconcontroller.cbench.TrivialResponder -p $port"
  echo "# generator: taskset -c $gen_cpu java -cp <classes> net.beaconcontroller.cbench.Cbench -c 127.0.0.1 -p $port $*"
} | tee "$out"

taskset -c "$gen_cpu" java -cp "$classpath" net.beaconcontroller.cbench.Cbench -c 127.0.0.1 -p "$port" "$@" \
  > >(tee -a "$out") &
gen_pid=$!
hz=$(getconf CLK_TCK)
prev_gen=$(ticks "$gen_pid")
prev_resp=$(ticks "$resp_pid")
while kill -0 "$gen_pid" 2>/dev/null; do
  sleep 1
  gen=$(ticks "$gen_pid")
  resp=$(ticks "$resp_pid")
  if kill -0 "$gen_pid" 2>/dev/null; then
    echo "# cpu% generator=$(( (gen - prev_gen) * 100 / hz )) responder=$(( (resp - prev_resp) * 100 / hz ))" >> "$out"
  fi
  prev_gen=$gen
  prev_resp=$resp
done
status=0
wait "$gen_pid" || status=$?
echo "# per-second CPU use is in $out"
grep '^# cpu%' "$out" | sort | uniq -c | sort -rn | head -5
exit "$status"
