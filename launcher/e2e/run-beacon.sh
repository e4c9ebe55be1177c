#!/usr/bin/env bash
# Runs the end-to-end tests against the product built by `./mvnw verify` (or `package`). Needs root and
# launcher/e2e/setup.sh (Open vSwitch and friends). Extra arguments go to run_e2e.py (e.g. --tests linear4_pingall).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
product="$top/launcher/target/products/net.beaconcontroller.product/linux/gtk/x86_64/beacon"
hub=("$top"/bundles/net.beaconcontroller.hub/target/net.beaconcontroller.hub-*.jar)
switch=("$product"/plugins/net.beaconcontroller.learningswitch_*.jar)
[ -x "$product/beacon" ] || { echo "no product at $product: run ./mvnw verify first" >&2; exit 1; }
[ -f "${hub[0]}" ] || { echo "no hub bundle jar: run ./mvnw verify first" >&2; exit 1; }
exec python3 "$top/launcher/e2e/run_e2e.py" --beacon \
  --controller-cmd "exec '$product/beacon'" \
  --learningswitch-jar "${switch[0]}" --hub-jar "${hub[0]}" "$@"
