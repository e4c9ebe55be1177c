#!/usr/bin/env bash
# Takes the screenshots of docs/web.md from the built product: the web_ui end-to-end test (Open vSwitch ring of four
# switches, headless Chromium) saves every page it visits into docs/web/. Needs root and launcher/e2e/setup.sh, like
# run-beacon.sh. Rerun it when a page changes, then look at the pictures.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
product="$top/launcher/target/products/net.beaconcontroller.product/linux/gtk/x86_64/beacon"
[ -x "$product/beacon" ] || { echo "no product at $product: run ./mvnw verify first" >&2; exit 1; }
mkdir -p "$top/docs/web"
BEACON_UI_SCREENSHOTS="$top/docs/web" python3 "$top/launcher/e2e/run_e2e.py" --beacon --network-apps \
  --controller-cmd "exec '$product/beacon' -clean" --tests web_ui
