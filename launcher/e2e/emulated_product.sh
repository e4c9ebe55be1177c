# Sourced by the scripts that run the built product against launcher/e2e/emulate_network.py (topology_scale.sh,
# discovery_scale.sh): starts Beacon with its default configuration on free ports, its log in $work/beacon.log, and
# cleans up on exit (Beacon, the emulator once the caller sets $emulator, the work directory).
# Sets: top, product, work, of_port, web_port, api, beacon (Beacon's process group).
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
product="$top/launcher/target/products/net.beaconcontroller.product/linux/gtk/x86_64/beacon"
[ -x "$product/beacon" ] || { echo "no product at $product: run ./mvnw package -DskipTests first" >&2; exit 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
of_port="$(free_port)" web_port="$(free_port)"
work="$(mktemp -d)"
cleanup() {
  [ -n "${emulator:-}" ] && kill "$emulator" 2>/dev/null || true
  [ -n "${beacon:-}" ] && kill -- "-$beacon" 2>/dev/null || true
  [ -n "${stdin_holder:-}" ] && kill "$stdin_holder" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Beacon's console reads stdin: a pipe kept open keeps it from seeing EOF. The sleep holding it open is killed at the
# end: left behind it would keep every file descriptor it inherited (a caller's lock, for one).
mkfifo "$work/stdin"
sleep infinity > "$work/stdin" &
stdin_holder=$!
(cd "$product" && exec setsid env JAVA_OPTS="-Dcontroller.listenPort=$of_port -Dcontroller.legacyListenPort=-1 -Dweb.port=$web_port" \
  ./beacon -clean < "$work/stdin" > "$work/beacon.log" 2>&1) &
beacon=$!
api="http://127.0.0.1:$web_port"
for _ in $(seq 240); do curl -sf "$api/wm/core/health/json" >/dev/null && break; sleep 0.5; done
curl -sf "$api/wm/core/health/json" >/dev/null || { echo "Beacon did not come up"; tail -20 "$work/beacon.log"; exit 1; }
