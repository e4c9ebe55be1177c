#!/bin/bash
# Installs what launcher/e2e needs on Debian 12, as root (Chromium and its driver: the web UI tests). Idempotent: installs only what is missing, and does not
# start or configure the system Open vSwitch service (the harness runs a private OVS of its own).
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"

packages=(openvswitch-switch openvswitch-common openvswitch-testcontroller iproute2 ethtool netcat-openbsd
          iputils-ping python3 util-linux chromium chromium-driver)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup.sh: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The REST tests read /metrics with the reference Prometheus text parser, for whichever python3 runs the tests.
python3 -c 'import prometheus_client' 2>/dev/null || python3 -m pip install -q prometheus-client
for tool in ovsdb-server ovs-vswitchd ovsdb-tool ovs-vsctl ovs-ofctl ovs-testcontroller ip ethtool nc.openbsd ping \
            unshare python3 chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "setup.sh: $tool missing after install" >&2; exit 1; }
done
