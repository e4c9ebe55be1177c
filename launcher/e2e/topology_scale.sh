#!/usr/bin/env bash
# Measures the web UI's topology page with a large network (docs/web.md): the built product with its default
# configuration, launcher/e2e/emulate_network.py (a grid of emulated switches answering LLDP discovery, hosts
# announcing themselves by ARP) and launcher/webui-tests' TopologyScaleTest in headless Chromium, which prints the
# load time and the frame times while panning and zooming. No root needed.
#   launcher/e2e/topology_scale.sh [SWITCHES [HOSTS_PER_SWITCH]]     (default 1000 10)
# The routing app is stopped for the run: every host's ARP broadcast would otherwise be flooded to all 1,000
# switches, ten million PACKET_OUTs for the emulator to read, which is not what this measures.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/emulated_product.sh"
switches="${1:-1000}" per="${2:-10}"
routing="$(curl -sf "$api/wm/beacon/bundles/json" | python3 -c \
  'import json, sys; print(next(b["id"] for b in json.load(sys.stdin) if b["symbolicName"] == "net.beaconcontroller.routing"))')"
curl -sf -X POST "$api/wm/beacon/bundles/$routing/stop/json" >/dev/null

python3 "$top/launcher/e2e/emulate_network.py" --switches "$switches" --hosts-per-switch "$per" --port "$of_port" \
  > "$work/emulator.log" 2>&1 &
emulator=$!
links="$(python3 -c "import sys; sys.path.insert(0, '$top/launcher/e2e'); import emulate_network as e; \
print(e.Grid($switches, $per).links())")"
# The page is opened once the controller knows the whole network, so the load time is the page's own.
for _ in $(seq 240); do
  known="$(curl -sf "$api/wm/core/controller/summary/json" | python3 -c \
    'import json, sys; s = json.load(sys.stdin); print(s["# Switches"], s["# hosts"])')"
  known_links="$(curl -sf "$api/wm/topology/links/json" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')"
  [ "$known $known_links" = "$switches $((switches * per)) $links" ] && break
  sleep 0.5
done
echo "controller knows: $known switches/hosts, $known_links links (expected $switches $((switches * per)), $links)"
"$top/mvnw" -B -o verify -pl launcher/webui-tests -Dtest=TopologyScaleTest -Dbeacon.ui.url="$api" \
  -Dbeacon.ui.scale="switches=$switches,links=$links,hosts=$((switches * per))" || {
  echo "== emulator"; tail -5 "$work/emulator.log"; echo "== beacon"; tail -20 "$work/beacon.log"; exit 1; }
