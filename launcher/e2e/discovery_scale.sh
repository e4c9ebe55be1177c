#!/usr/bin/env bash
# Measures LLDP discovery at scale (docs/topology.md): the built product with its default configuration against
# launcher/e2e/emulate_network.py (a grid of emulated switches whose link ports answer discovery, hosts announcing
# themselves by ARP). Prints the time until every switch is connected, until every link is known and no port is in
# quarantine, and then Beacon's CPU in the steady state. No root needed.
#   launcher/e2e/discovery_scale.sh [SWITCHES [HOSTS_PER_SWITCH [STEADY_SECONDS]]]     (default 1000 1 30)
# The emulator is one Python process on the same cores: at 1,000 switches its own CPU is part of what the machine
# spends, so the figures are upper bounds for Beacon's share.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/emulated_product.sh"
switches="${1:-1000}" per="${2:-1}" steady="${3:-30}"
java_pid="$(pgrep -f -n "java.*-Dweb.port=$web_port" || pgrep -n -P "$beacon" java || true)"
[ -n "$java_pid" ] || java_pid="$(pgrep -f -n "org.eclipse.equinox.launcher.*" )"
links="$(python3 -c "import sys; sys.path.insert(0, '$top/launcher/e2e'); import emulate_network as e; \
print(e.Grid($switches, $per).links())")"

summary() { curl -sf "$api/wm/core/controller/summary/json"; }
field() { python3 -c "import json, sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$java_pid/stat"; }

start=$(date +%s.%N)
python3 "$top/launcher/e2e/emulate_network.py" --switches "$switches" --hosts-per-switch "$per" --port "$of_port" \
  > "$work/emulator.log" 2>&1 &
emulator=$!
connected="" all_links=""
for _ in $(seq 1200); do
  s="$(summary)" || { sleep 0.25; continue; }
  n="$(field '# Switches' <<<"$s")" q="$(field '# quarantine ports' <<<"$s")"
  known="$(curl -sf "$api/wm/topology/links/json" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')"
  now=$(date +%s.%N)
  [ -z "$connected" ] && [ "$n" = "$switches" ] && connected=$(echo "$now - $start" | bc)
  if [ -n "$connected" ] && [ "$known" -ge "$links" ] && [ "$q" = 0 ]; then
    all_links=$(echo "$now - $start" | bc)
    break
  fi
  sleep 0.25
done
[ -n "$all_links" ] || { echo "not settled: $n switches, $known of $links links, $q ports in quarantine";
  tail -5 "$work/emulator.log"; tail -20 "$work/beacon.log"; exit 1; }

hz=$(getconf CLK_TCK)
t0=$(cpu_ticks) w0=$(date +%s.%N)
sleep "$steady"
t1=$(cpu_ticks) w1=$(date +%s.%N)
wall=$(echo "$w1 - $w0" | bc)
cpu=$(echo "scale=1; ($t1 - $t0) * 100 / $hz / $wall" | bc)
# A probe round of every port is topology.probeInterval (5 s by default); the ports that end a link are probed every
# second on top of it (topology.livenessInterval): the CPU of one round is that of 5 s in the steady state.
round_ms=$(echo "scale=0; ($t1 - $t0) * 1000 * 5 / $hz / $wall" | bc)
printf 'switches %s, links %s: all connected after %.1f s, every link known and no port in quarantine after %.1f s\n' \
  "$switches" "$links" "$connected" "$all_links"
printf 'steady state over %.0f s: Beacon %s %% of one core, %s ms of CPU per 5 s probe round (liveness probes included)\n' \
  "$wall" "$cpu" "$round_ms"
