#!/usr/bin/env bash
# Runs the end-to-end tests against the product built by `./mvnw verify` (or `package`): run_e2e.py (Open vSwitch;
# needs root and launcher/e2e/setup.sh) twice, the learning-switch configuration with the modularity and apps/ folder
# tests and the default configuration (the network apps) on loops and lines; then one_response.py (emulated switches against the
# learning-switch-only configuration), then launcher_test.py (console, settings errors, shutdown), then rest_fuzz.py
# (seeded hostile requests against the REST API of the default configuration), then cluster_e2e.py (three instances
# as one cluster), then cluster_faults.py (faults injected into such a cluster).
# Extra arguments go to the first run_e2e.py (e.g. --tests linear4_pingall). The last line sums them all:
# `N passed, N failed`; the exit code is non-zero if any failed.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
product="$top/launcher/target/products/net.beaconcontroller.product/linux/gtk/x86_64/beacon"
hub=("$top"/bundles/net.beaconcontroller.hub/target/net.beaconcontroller.hub-*.jar)
switch=("$product"/plugins/net.beaconcontroller.learningswitch_*.jar)
[ -x "$product/beacon" ] || { echo "no product at $product: run ./mvnw verify first" >&2; exit 1; }
[ -f "${hub[0]}" ] || { echo "no hub bundle jar: run ./mvnw verify first" >&2; exit 1; }
[ -f "${switch[0]}" ] || { echo "no learning switch bundle in the product: run ./mvnw verify first" >&2; exit 1; }

outputs="$(mktemp -d)"
trap 'rm -rf "$outputs"' EXIT
set +e
# The learning switch, runtime modularity and the apps/ folder, in the learning-switch configuration. -clean: start
# from the product's configuration, not from the bundles an earlier run installed or removed.
python3 "$top/launcher/e2e/run_e2e.py" --beacon \
  --controller-cmd "exec '$product/beacon' -clean -configuration configurationSwitch" \
  --learningswitch-jar "${switch[0]}" --hub-jar "${hub[0]}" --settings "$product/beacon.properties" \
  --apps-dir "$product/apps" "$@" \
  | tee "$outputs/run_e2e"
e2e_status=${PIPESTATUS[0]}
# The default configuration: the network apps of the paper (topology, device manager, routing) on loops and lines.
python3 "$top/launcher/e2e/run_e2e.py" --beacon --network-apps \
  --controller-cmd "exec '$product/beacon' -clean" | tee "$outputs/network_apps"
network_status=${PIPESTATUS[0]}
python3 "$top/launcher/e2e/one_response.py" --product "$product" | tee "$outputs/one_response"
one_status=${PIPESTATUS[0]}
python3 "$top/launcher/e2e/launcher_test.py" --product "$product" | tee "$outputs/launcher_test"
launcher_status=${PIPESTATUS[0]}
# Hostile and malformed requests over every REST endpoint (a new seed each run, printed; --seed repeats one).
python3 "$top/launcher/e2e/rest_fuzz.py" --product "$product" | tee "$outputs/rest_fuzz"
fuzz_status=${PIPESTATUS[0]}
# Three instances as one cluster, Open vSwitch switches connected to all of them.
python3 "$top/launcher/e2e/cluster_e2e.py" --product "$product" | tee "$outputs/cluster"
cluster_status=${PIPESTATUS[0]}
# Faults against such a cluster, each instance in its own network namespace: kill -9, SIGSTOP, partitions (a new
# seed each run, printed; --seed repeats one).
python3 "$top/launcher/e2e/cluster_faults.py" --product "$product" | tee "$outputs/cluster_faults"
faults_status=${PIPESTATUS[0]}
# The same faults, each as soon as the three are together again: a death right after a join or a merge.
python3 "$top/launcher/e2e/cluster_faults.py" --product "$product" --anytime | tee "$outputs/cluster_faults_anytime"
anytime_status=${PIPESTATUS[0]}
set -e

passed=0 failed=0 skipped=0
# Adds a script's `N passed, N failed[, N skipped]` line; a script that failed without a failure in its count
# (or without that line: it crashed) counts as one failure more.
count() {
  local summary status=$2 p f s
  summary="$(tail -n 1 "$1" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/p')"
  if [ -z "$summary" ]; then
    failed=$((failed + 1))
    return
  fi
  read -r p f s <<<"$summary"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    failed=$((failed + 1))
  fi
}
count "$outputs/run_e2e" "$e2e_status"
count "$outputs/network_apps" "$network_status"
count "$outputs/one_response" "$one_status"
count "$outputs/launcher_test" "$launcher_status"
count "$outputs/rest_fuzz" "$fuzz_status"
count "$outputs/cluster" "$cluster_status"
count "$outputs/cluster_faults" "$faults_status"
count "$outputs/cluster_faults_anytime" "$anytime_status"
echo "$passed passed, $failed failed$([ "$skipped" -gt 0 ] && echo ", $skipped skipped")"
[ "$e2e_status" -eq 0 ] && [ "$network_status" -eq 0 ] && [ "$one_status" -eq 0 ] && [ "$launcher_status" -eq 0 ] \
  && [ "$fuzz_status" -eq 0 ] && [ "$cluster_status" -eq 0 ] && [ "$faults_status" -eq 0 ] \
  && [ "$anytime_status" -eq 0 ]
