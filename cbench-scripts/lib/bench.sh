# shellcheck shell=bash
# Shared by throughput, latency, scaling and memory (sourced, not run): finding the product and the generator,
# starting and stopping controllers, running generator instances, recording everything for lib/cbreport.py.
#
# A script sets its own defaults, sources this file, calls bench_init, then start_* / run_case, then bench_report.
# Everything started goes into BENCH_PIDS and is stopped by the EXIT trap, whatever happens.

BENCH_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_HOME=$(cd "$BENCH_LIB/.." && pwd)
BENCH_REPO=$(cd "$BENCH_HOME/.." && pwd)

BEACON_HOME=${BEACON_HOME:-$BENCH_REPO/launcher/target/products/net.beaconcontroller.product/linux/gtk/x86_64/beacon}
BEACON_CONFIGURATION=${BEACON_CONFIGURATION:-configurationSwitch}
CBENCH_JAR=${CBENCH_JAR:-$BENCH_HOME/generator/target/cbench.jar}
RESULTS_DIR=${RESULTS_DIR:-$BENCH_HOME/results}
OVS_TESTCONTROLLER=${OVS_TESTCONTROLLER:-$(command -v ovs-testcontroller || true)}
BASE_PORT=${BASE_PORT:-16700}

BENCH_PIDS=()
BENCH_AT_EXIT=() # commands the EXIT trap runs once every tracked process has stopped (see at_exit)
BENCH_WORK=""
BENCH_OK=0
BENCH_DEADLINE=0
BENCH_NEXT_PORT=$BASE_PORT

die() {
  echo "${BENCH_NAME:-bench}: $*" >&2
  exit 1
}

note() {
  echo "${BENCH_NAME:-bench}: $*" >&2
}

# Stops a process: SIGTERM, up to 15 s to finish (Beacon shuts down cleanly on it), then SIGKILL.
stop_pid() {
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 150); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

bench_cleanup() {
  local status=$? pid
  trap - EXIT INT TERM
  for pid in "${BENCH_PIDS[@]}"; do
    stop_pid "$pid"
  done
  local cmd
  for cmd in ${BENCH_AT_EXIT[@]+"${BENCH_AT_EXIT[@]}"}; do
    $cmd || true
  done
  if [[ $BENCH_OK != 1 && -n "${BENCH_OUT:-}" && -f "$BENCH_OUT.txt" ]]; then
    echo "# the run did not finish (exit status $status); logs in $BENCH_WORK" >>"$BENCH_OUT.txt"
  fi
  if [[ -n "$BENCH_WORK" && -d "$BENCH_WORK" ]]; then
    if [[ $BENCH_OK == 1 && -z "${KEEP_WORK:-}" ]]; then
      rm -rf "$BENCH_WORK"
    else
      note "logs of this run kept in $BENCH_WORK"
    fi
  fi
  exit "$status"
}

track() {
  BENCH_PIDS+=("$1")
}

# Has the EXIT trap run COMMAND (a function or command name, no arguments) after it has stopped every tracked
# process: for what outlives them, such as a cgroup that can only be removed once its processes are gone.
at_exit() {
  BENCH_AT_EXIT+=("$1")
}

untrack() {
  local pid=$1 kept=() p
  for p in "${BENCH_PIDS[@]}"; do
    [[ $p == "$pid" ]] || kept+=("$p")
  done
  BENCH_PIDS=(${kept[@]+"${kept[@]}"})
}

# Checks tools, product and generator; creates the work directory and the results file names; arms the trap.
#   bench_init NAME MAX_SECONDS
bench_init() {
  BENCH_NAME=$1
  BENCH_DEADLINE=$(( $(date +%s) + $2 ))
  local tool
  for tool in java taskset ss python3 timeout; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed"
  done
  [[ -x "$BEACON_HOME/beacon" ]] || die "no Beacon product at $BEACON_HOME (set BEACON_HOME=...);" \
    "run ./mvnw -B package -DskipTests first"
  [[ -f "$BEACON_HOME/$BEACON_CONFIGURATION/config.ini" ]] \
    || die "no Equinox configuration '$BEACON_CONFIGURATION' in $BEACON_HOME"
  # The jar holds the trivial responder too, so it is needed even when real cbench generates the load.
  [[ -f "$CBENCH_JAR" ]] || die "no generator jar at $CBENCH_JAR (set CBENCH_JAR=...);" \
    "run ./mvnw -B package -DskipTests first"
  # Real cbench when there is one (same options, same RESULT line); the project's generator otherwise.
  CBENCH=${CBENCH:-$(command -v cbench || true)}
  if [[ -n "$CBENCH" ]]; then
    [[ -x "$CBENCH" ]] || die "CBENCH=$CBENCH is not executable"
    GEN=("$CBENCH")
  else
    # shellcheck disable=SC2206 # GENERATOR_JAVA_OPTS is a list of JVM options
    GEN=(java ${GENERATOR_JAVA_OPTS:-} -jar "$CBENCH_JAR")
  fi
  # shellcheck disable=SC2206
  RESPONDER=(java ${RESPONDER_JAVA_OPTS:-} -cp "$CBENCH_JAR" net.beaconcontroller.cbench.TrivialResponder)
  BENCH_WORK=$(mktemp -d "${TMPDIR:-/tmp}/beacon-$BENCH_NAME.XXXXXX")
  trap bench_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  mkdir -p "$RESULTS_DIR"
  BENCH_STAMP=$(date +%Y%m%d-%H%M%S)
  BENCH_OUT="$RESULTS_DIR/$BENCH_STAMP-$BENCH_NAME"
  : > "$BENCH_OUT.txt"
  : > "$BENCH_WORK/cases.tsv"
}

# Seconds left before the script's own deadline; dies when it has passed.
remaining() {
  local left=$(( BENCH_DEADLINE - $(date +%s) ))
  (( left > 0 )) || die "time limit reached"
  echo "$left"
}

# Appends to the results file and prints.
say() {
  printf '%s\n' "$@" | tee -a "$BENCH_OUT.txt"
}

# Facts that make a number interpretable: machine, load before the run, JDK, commit, tools.
write_facts() {
  local commit dirty
  commit=$(git -C "$BENCH_REPO" rev-parse HEAD 2>/dev/null || echo unknown)
  dirty=$(git -C "$BENCH_REPO" status --porcelain 2>/dev/null | wc -l)
  {
    echo "# $BENCH_NAME benchmark, $(date -Is)"
    local model memory
    model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
    memory=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
    echo "machine: $(nproc) cores ($model), $memory, kernel $(uname -r)"
    echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "jdk: $(java -version 2>&1 | head -1)"
    echo "commit: $commit$( (( dirty > 0 )) && echo " (plus $dirty uncommitted changes)")"
    echo "beacon: $BEACON_HOME -configuration $BEACON_CONFIGURATION," \
      "jvm options: $(grep -v '^#' "$BEACON_HOME/beacon.jvm.options" | tr '\n' ' ')"
    echo "generator: ${GEN[*]}"
    if [[ -n "$OVS_TESTCONTROLLER" ]]; then
      echo "ovs-testcontroller: $OVS_TESTCONTROLLER ($("$OVS_TESTCONTROLLER" --version 2>/dev/null | head -1))"
    else
      echo "ovs-testcontroller: not installed (Debian package openvswitch-testcontroller); reference skipped"
    fi
  } | tee -a "$BENCH_OUT.txt"
}

# Sets PORT to a port no socket uses, never handed out before in this run: every controller gets a fresh port,
# so no connection of one case can meet a TIME_WAIT leftover of the previous one.
take_port() {
  while ss -Htan "( sport = :$BENCH_NEXT_PORT or dport = :$BENCH_NEXT_PORT )" | grep -q .; do
    BENCH_NEXT_PORT=$((BENCH_NEXT_PORT + 1))
  done
  PORT=$BENCH_NEXT_PORT
  BENCH_NEXT_PORT=$((PORT + 1))
}

# Waits until PORT listens; dies (with the log's tail) if PID exits first or after TIMEOUT seconds.
wait_listen() {
  local port=$1 pid=$2 log=$3 timeout=$4 i
  for i in $(seq $((timeout * 10))); do
    ss -Hltn "sport = :$port" | grep -q . && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -20 "$log" >&2
      die "the controller (pid $pid) exited before listening on port $port; log: $log"
    fi
    sleep 0.1
  done
  tail -20 "$log" >&2
  die "nothing listens on port $port after ${timeout}s; log: $log"
}

# Starts Beacon pinned to CPUS on PORT with extra -D options; sets BEACON_PID and BEACON_LOG.
#   start_beacon NAME CPUS PORT [-Dkey=value...]
# The PACKET_IN guard is off: cbench's switches send every PACKET_IN on in_port 2 at millions a second, which its
# per-port budget would drop (docs/guard.md). configurationSwitch has no guard; the default configuration has.
# Each start gets a private copy of the Equinox configuration (its bundle cache and lock), so runs never share
# state with each other or with another Beacon started from the same product. Its console reads a fifo this
# script holds open, so it never sees end of input; console commands can be written to "$BEACON_CONSOLE".
start_beacon() {
  local name=$1 cpus=$2 port=$3
  shift 3
  local area="$BENCH_WORK/equinox-$name"
  mkdir -p "$area"
  cp "$BEACON_HOME/$BEACON_CONFIGURATION/config.ini" "$area/"
  BEACON_CONSOLE="$BENCH_WORK/console-$name"
  BEACON_LOG="$BENCH_WORK/beacon-$name.log"
  mkfifo "$BEACON_CONSOLE"
  BEACON_CMD="JAVA_OPTS=\"-Dcontroller.listenAddress=127.0.0.1 -Dcontroller.listenPort=$port -Dcontroller.legacyListenPort=-1 -Dguard.enabled=false $* ${BEACON_JAVA_OPTS:-}\""
  BEACON_CMD+=" taskset -c $cpus $BEACON_HOME/beacon -configuration <private copy of $BEACON_CONFIGURATION>"
  JAVA_OPTS="-Dcontroller.listenAddress=127.0.0.1 -Dcontroller.listenPort=$port -Dcontroller.legacyListenPort=-1 -Dguard.enabled=false $* ${BEACON_JAVA_OPTS:-}" \
    taskset -c "$cpus" "$BEACON_HOME/beacon" -configuration "$area" <>"$BEACON_CONSOLE" >"$BEACON_LOG" 2>&1 &
  BEACON_PID=$!
  track "$BEACON_PID"
  wait_listen "$port" "$BEACON_PID" "$BEACON_LOG" 90
  # The listener opens at start level 4, the application comes at level 5: wait for its component (the learning
  # switch, or routing in the default configuration).
  local i app='learningswitch.internal.LearningSwitch '
  [[ "$BEACON_CONFIGURATION" == configurationSwitch ]] || app='routing.internal.Routing '
  for i in $(seq 40); do
    printf 'scr:list\n' >"$BEACON_CONSOLE"
    sleep 0.25
    if grep -A1 "$app" "$BEACON_LOG" | grep -q 'State:ACTIVE'; then
      return 0
    fi
  done
  note "warning: the component ${app% } is not ACTIVE after 10 s (log: $BEACON_LOG)"
}

# Starts the trivial responder (the machine's ceiling) pinned to CPUS on PORT; sets RESPONDER_PID.
start_responder() {
  local cpus=$1 port=$2 log="$BENCH_WORK/responder-$2.log"
  # shellcheck disable=SC2034 # for the calling script's record
  RESPONDER_CMD="taskset -c $cpus ${RESPONDER[*]} -p $port"
  taskset -c "$cpus" "${RESPONDER[@]}" -p "$port" </dev/null >"$log" 2>&1 &
  RESPONDER_PID=$!
  track "$RESPONDER_PID"
  wait_listen "$port" "$RESPONDER_PID" "$log" 30
}

# Starts ovs-testcontroller (C learning switch; default options are already the learning switch that answers a
# buffered PACKET_IN with exactly one FLOW_MOD or PACKET_OUT) pinned to CPUS on PORT; sets OVS_PID, OVS_CTL.
# It serves at most 16 switches per process (MAX_SWITCHES in utilities/ovs-testcontroller.c): callers start one
# process per 16 switches.
start_ovs() {
  local cpus=$1 port=$2
  OVS_CTL="$BENCH_WORK/ovs-$port.ctl"
  local log="$BENCH_WORK/ovs-$port.log"
  # shellcheck disable=SC2034 # for the calling script's record
  OVS_CMD="taskset -c $cpus $OVS_TESTCONTROLLER -O OpenFlow10 --unixctl=<ctl> ptcp:$port:127.0.0.1"
  taskset -c "$cpus" "$OVS_TESTCONTROLLER" -O OpenFlow10 --unixctl="$OVS_CTL" "ptcp:$port:127.0.0.1" \
    </dev/null >"$log" 2>&1 &
  OVS_PID=$!
  track "$OVS_PID"
  wait_listen "$port" "$OVS_PID" "$log" 30
}

# What ovs-testcontroller received and sent (its coverage counters): evidence of one answer per PACKET_IN.
ovs_counters() {
  local ctl=$1
  command -v ovs-appctl >/dev/null || return 0
  ovs-appctl -t "$ctl" coverage/show 2>/dev/null \
    | awk '$1 ~ /^(vconn_received|vconn_sent|rconn_sent|rconn_overflow|rconn_discarded)$/ { printf "%s=%s ", $1, $NF }'
}

cpu_ticks() { # utime + stime of the given processes, summed
  local pid sum=0 t
  for pid in "$@"; do
    t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)
    sum=$((sum + t))
  done
  echo "$sum"
}

# Runs generator instances at once, waits for all, records the case for the report, prints the RESULT lines.
#   run_case ID LABEL X "CONTROLLER_PIDS" "PORTS" "SWITCHES" WARMUP COOLDOWN -- GENERATOR OPTIONS...
# One instance per port in PORTS (space-separated; repeat a port for several instances against one controller);
# SWITCHES is one count for every instance or one per instance. DPIDs run on from one instance to the next, so no
# two switches share a DPID. X is a number for the plot (thread count, or 0). CONTROLLER_PIDS are measured for
# CPU use over the whole generator run.
run_case() {
  local id=$1 label=$2 x=$3 cpids=$4 ports=$5 warmup=$7 cooldown=$8
  local -a each
  read -r -a each <<<"$6"
  [[ $9 == -- ]] || die "run_case: '--' expected before the generator options"
  shift 9
  local ms=1000 loops=16 gi=50 gI=1 a prev=""
  for a in "$@"; do # the run's length, for its time limit
    case "$prev" in
      -m) ms=$a ;; -l) loops=$a ;; -i) gi=$a ;; -I) gI=$a ;;
    esac
    prev=$a
  done
  local most=0 n
  for n in "${each[@]}"; do if (( n > most )); then most=$n; fi; done
  local limit=$(( (most / gI + 1) * gi / 1000 + loops * (ms + 200) / 1000 + 60 ))
  local left
  left=$(remaining)
  (( limit < left )) || die "not enough time left for '$label' (needs ${limit}s, ${left}s left)"
  local i=0 port pids=() files=() codes=() cmds=()
  local hz t0 c0
  hz=$(getconf CLK_TCK)
  t0=$(date +%s%N)
  # shellcheck disable=SC2086 # a list of pids
  c0=$(cpu_ticks $cpids)
  local dpid=1 switches
  for port in $ports; do
    local out="$BENCH_WORK/$id.$i.out"
    switches=${each[$i]:-${each[0]}}
    local cmd=(taskset -c "$GENERATOR_CPUS" "${GEN[@]}" -c 127.0.0.1 -p "$port" -s "$switches" -o "$dpid" "$@")
    dpid=$((dpid + switches))
    cmds+=("${cmd[*]}")
    timeout -k 5 "$limit" "${cmd[@]}" >"$out" 2>"$BENCH_WORK/$id.$i.err" &
    pids+=($!)
    track "${pids[-1]}"
    files+=("$out")
    i=$((i + 1))
  done
  say ""
  say "## $label"
  for a in "${cmds[@]}"; do say "\$ $a"; done
  # Progress on the terminal: the first instance's per-loop totals (the full lines go to the results file).
  tail -n +1 -F --pid="${pids[0]}" "${files[0]}" 2>/dev/null \
    | awk -v n="${#pids[@]}" '/ total = / { for (i = 1; i < NF; i++) if ($i == "total") v = $(i + 2);
        printf "   %s loop %d: %.0f responses/s%s\n", $1, ++k, v * 1000, (n > 1 ? " (instance 1 of " n ")" : "");
        fflush() }' >&2 &
  local tailer=$!
  for i in "${!pids[@]}"; do
    local code=0
    wait "${pids[$i]}" || code=$?
    untrack "${pids[$i]}"
    codes+=("$code")
  done
  wait "$tailer" 2>/dev/null || true
  local c1 t1
  # shellcheck disable=SC2086 # a list of pids
  c1=$(cpu_ticks $cpids)
  t1=$(date +%s%N)
  local cpu=$(( (c1 - c0) * 100 * 1000000000 / hz / (t1 - t0 + 1) ))
  for i in "${!files[@]}"; do
    [[ ${#files[@]} == 1 ]] || say "# instance $((i + 1)):"
    cat "${files[$i]}" >>"$BENCH_OUT.txt"
    grep -E '^(RESULT|SUMMARY)' "${files[$i]}" || true
    if [[ ${codes[$i]} != 0 ]]; then
      say "# instance $((i + 1)) exited with status ${codes[$i]}: $(tail -3 "$BENCH_WORK/$id.$i.err" | tr '\n' ' ')"
    fi
  done
  say "# controller CPU over the generator run: ${cpu}% of one core"
  local c
  for c in $cpids; do
    kill -0 "$c" 2>/dev/null \
      || say "# the controller (pid $c) is gone: it exited during this run, see its log in $BENCH_WORK"
  done
  local IFS=,
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$label" "$x" "$warmup" "$cooldown" "${codes[*]}" "$cpu" \
    "${files[*]}" >>"$BENCH_WORK/cases.tsv"
}

# Summary, ratios and plot from the recorded cases.
#   bench_report KIND
bench_report() {
  local status=0
  python3 -B "$BENCH_LIB/cbreport.py" "$1" "$BENCH_WORK" "$BENCH_OUT" | tee -a "$BENCH_OUT.txt" || status=$?
  echo ""
  echo "results: $BENCH_OUT.txt"
  local f
  for f in "$BENCH_OUT".svg "$BENCH_OUT".csv; do
    if [[ -f $f ]]; then echo "         $f"; fi
  done
  if (( status != 0 )); then
    note "some measurements failed (see the notes above); the logs are kept"
    exit 1
  fi
  BENCH_OK=1
}
