#!/usr/bin/env python3
"""ElastiCon's figures from one run of cbench-scripts/elasticon (Python 3 standard library only).

    elasticon.py WORK_DIR OUT_BASE BALANCED_BY

WORK_DIR holds load/packet-ins.csv and load/roles.csv (written by the generator's RoleLoad), phases.tsv (name,
epoch ms, each member's CPU ticks and, with a CPU budget, each member's cgroup "periods:throttled:throttled ns")
and migrations.tsv (start ms, end ms, dpid, from, to, the member's reported ms or "failed"), written by the
script. Prints the report (the caller appends it to OUT_BASE.txt) and writes OUT_BASE.svg (the Fig. 4 CDFs).
Exits with 3 when a PACKET_IN was lost or answered twice, or a migration failed.
"""

import csv
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cbreport import COLORS, Plot, esc, table  # noqa: E402

WINDOW_MS = 1000
CDF_POINTS = (10, 25, 50, 75, 90, 95, 99, 99.9)


def pct(values, p):
    """Nearest-rank percentile of a sorted list; None when empty."""
    if not values:
        return None
    k = max(0, min(len(values) - 1, int(round(p / 100 * len(values) + 0.5)) - 1))
    return values[k]


def ms(v):
    return "-" if v is None else f"{v:.2f}"


def load(work):
    rows = []
    with open(work / "load" / "packet-ins.csv") as f:
        for r in csv.DictReader(f):
            rows.append((int(r["dpid"]), float(r["sent_ms"]), int(r["copies"]), int(r["answers"]),
                         int(r["member"]) if r["member"] else None,
                         float(r["rtt_us"]) / 1000 if r["rtt_us"] else None))
    roles = []
    with open(work / "load" / "roles.csv") as f:
        for r in csv.DictReader(f):
            roles.append((float(r["ms"]), int(r["dpid"]), int(r["member"]), r["role"]))
    phases, ticks, throttles = {}, {}, {}
    hz = float((work / "clk_tck").read_text()) if (work / "clk_tck").exists() else 100.0
    for line in (work / "phases.tsv").read_text().split("\n"):
        if line:
            name, t, *cpu = line.split("\t")
            phases[name] = float(t)
            if cpu and cpu[0]:
                ticks[name] = [int(c) / hz for c in cpu[0].split(",")]
            if len(cpu) > 1 and cpu[1]:
                throttles[name] = [tuple(int(x) for x in c.split(":")) for c in cpu[1].split(",")]
    phases["cpu_seconds"] = ticks
    phases["throttles"] = throttles
    migrations = []
    for line in (work / "migrations.tsv").read_text().split("\n"):
        if line:
            t0, t1, dpid, src, dst, took = line.split("\t")
            migrations.append(dict(t0=float(t0), t1=float(t1), dpid=int(dpid), src=int(src), dst=int(dst),
                                   took=None if took == "failed" else float(took)))
    return rows, roles, phases, migrations


def masters_at(roles, t):
    masters = {}
    for when, dpid, member, role in roles:
        if when <= t and role == "MASTER":
            masters[dpid] = member
    return masters


def fig4(rows, roles, phases):
    """Per phase and member: switches, rate, percentiles; returns the CDF series for the plot."""
    out, series = [], []
    members = sorted({m for *_, m, _ in rows if m is not None})
    cpu, throttles = phases["cpu_seconds"], phases["throttles"]
    for name in ("before", "after"):
        t0, t1 = phases[f"{name}_start"], phases[f"{name}_end"]
        seconds = (t1 - t0) / 1000
        masters = masters_at(roles, t0)
        used = [b - a for a, b in zip(cpu[f"{name}_start"], cpu[f"{name}_end"])] if f"{name}_end" in cpu else []
        # CFS periods in which the member's cgroup ran out of its quota, and the time it stood still for it
        held = []
        if f"{name}_end" in throttles:
            held = [tuple(y - x for x, y in zip(a, b))
                    for a, b in zip(throttles[f"{name}_start"], throttles[f"{name}_end"])]
        for m in members + ["all"]:
            share = (sum(used) if m == "all" else used[m] if m < len(used) else None) if used else None
            load_cpu = "-" if share is None else f"{100 * share / seconds:.0f}%"
            if held and m != "all" and m < len(held):
                periods, throttled, ns = held[m]
                load_cpu += f" ({100 * throttled / max(periods, 1):.0f}% / {ns / 1e6 / seconds:.0f} ms/s)"
            rtts = sorted(r for d, s, c, a, mm, r in rows if t0 <= s < t1 and r is not None and (m == "all" or mm == m))
            n_sw = sum(1 for v in masters.values() if m == "all" or v == m)
            out.append([name, f"member {m}" if m != "all" else "all", n_sw, len(rtts), f"{len(rtts) / seconds:.0f}",
                        load_cpu, ms(pct(rtts, 50)), ms(pct(rtts, 95)), ms(pct(rtts, 99)),
                        ms(rtts[-1] if rtts else None)])
            if m != "all" and rtts:
                series.append((f"{name}: member {m} ({n_sw} sw)", rtts))
    print("\n## Fig. 4: response time per member, switches split 7:1 (before) and after balancing (ms)\n")
    cpu_header = "member CPU (% of a core)"
    if throttles:
        cpu_header += " (periods throttled / throttled ms per s, summed over the CPUs)"
    print(table(["phase", "member", "switches", "PACKET_INs", "per s", cpu_header, "p50", "p95", "p99", "max"], out))
    print("\nCDF points (ms):\n")
    print(table(["phase: member"] + [f"p{p:g}" for p in CDF_POINTS],
                [[label] + [ms(pct(v, p)) for p in CDF_POINTS] for label, v in series]))
    return series


def switch_times(roles, m):
    """The migration as the switch saw it: the target's EQUAL (OTHER) request, then its MASTER request."""
    equal = [t for t, d, mm, r in roles if d == m["dpid"] and mm == m["dst"] and r == "OTHER"
             and m["t0"] - 50 <= t <= m["t1"] + 50]
    master = [t for t, d, mm, r in roles if d == m["dpid"] and mm == m["dst"] and r == "MASTER"
              and m["t0"] - 50 <= t <= m["t1"] + 50]
    if equal and master and master[0] >= equal[0]:
        return equal[0], master[0]
    return None


def fig5(rows, roles, migrations, series_start):
    print("\n## Fig. 5: response times of the migrated switch's PACKET_INs in the second before each migration and"
          " the second after it (ms)\n")
    print("(window: sent within 1 s before the target's EQUAL request reached the switch, and within 1 s after its"
          " MASTER request did; 'during' is between the two)\n")
    by_dpid = {}
    for r in rows:
        by_dpid.setdefault(r[0], []).append(r)
    out, pooled = [], {"before": [], "during": [], "after": []}
    lost = dup = 0
    for i, m in enumerate(x for x in migrations if x["t0"] >= series_start):
        seen = switch_times(roles, m)
        start, end = seen if seen else (m["t0"], m["t1"])
        own = by_dpid.get(m["dpid"], [])
        win = {"before": [r for r in own if start - WINDOW_MS <= r[1] < start],
               "during": [r for r in own if start <= r[1] <= end],
               "after": [r for r in own if end < r[1] <= end + WINDOW_MS]}
        lost += sum(1 for w in win.values() for r in w if r[2] > 0 and r[3] == 0)
        dup += sum(1 for w in win.values() for r in w if r[3] > 1)
        cells = []
        for k in ("before", "during", "after"):
            v = sorted(r[5] for r in win[k] if r[5] is not None)
            pooled[k] += v
            cells += [len(v), ms(pct(v, 50)), ms(v[-1] if v else None)]
        out.append([i + 1, m["dpid"], f"{m['src']}->{m['dst']}", ms(m["took"]),
                    ms(end - start if seen else None)] + cells)
    print(table(["#", "dpid", "members", "reported ms", "at switch ms", "before n", "p50", "max", "during n", "p50",
                 "max", "after n", "p50", "max"], out))
    print("\nAll windows pooled (ms):\n")
    print(table(["window", "PACKET_INs", "p50", "p95", "p99", "max"],
                [[k, len(v), ms(pct(sorted(v), 50)), ms(pct(sorted(v), 95)), ms(pct(sorted(v), 99)),
                  ms(max(v) if v else None)] for k, v in pooled.items()]))
    print(f"\nIn these windows: {lost} PACKET_INs lost, {dup} answered more than once.")
    return lost + dup


def distribution(roles, migrations):
    print("\n## Migration time\n")
    rows = []
    for label, chosen in (("all migrations of the run", migrations),):
        reported = sorted(m["took"] for m in chosen if m["took"] is not None)
        seen = sorted(b - a for a, b in filter(None, (switch_times(roles, m) for m in chosen)))
        for what, v in (("reported by the member (PREPARE -> target MASTER)", reported),
                        ("seen at the switch (EQUAL request -> MASTER request)", seen)):
            rows.append([what, len(v), ms(v[0] if v else None), ms(pct(v, 50)), ms(pct(v, 90)),
                         ms(v[-1] if v else None)])
    print(table(["measured", "migrations", "min", "median", "p90", "max"], rows))
    failed = [m for m in migrations if m["took"] is None]
    print(f"\n{len(migrations)} explicit migrations asked, {len(failed)} failed or were given up.")
    return len(failed)


def balancer_moves(roles, phases, balanced_by):
    current = masters_at(roles, phases["balancer_on"])
    moves = []
    for t, d, m, r in sorted(roles):
        # a master asserts MASTER again after membership changes: only a new member's request is a move
        if r == "MASTER" and phases["balancer_on"] <= t <= phases["balanced"] and current.get(d) != m:
            moves.append((t, d, current.get(d, "?"), m))
            current[d] = m
    text = ", ".join(f"switch {d} {src}->{dst} at +{(t - phases['balancer_on']) / 1000:.1f} s"
                     for t, d, src, dst in moves)
    print(f"\nBalancing: {balanced_by}; {len(moves)} move(s): {text or 'none'}.")


def totals(rows):
    sent = sum(1 for r in rows if r[2] > 0)
    lost = sum(1 for r in rows if r[2] > 0 and r[3] == 0)
    dup = sum(1 for r in rows if r[3] > 1)
    nowhere = sum(1 for r in rows if r[2] == 0)
    print(f"\nWhole run: {sent} PACKET_INs sent to a controller, {lost} lost (never answered), {dup} answered more"
          f" than once, {nowhere} sent while every connection was SLAVE (dropped, as Open vSwitch does).")
    return lost + dup


def cdf_chart(path, series, subtitle):
    """The CDFs on a logarithmic time axis, so that the body (tens of µs) and the tail (ms) both show."""
    low = min(max(v[0], 1e-3) for _, v in series)
    lo = 10 ** math.floor(math.log10(low))
    hi = 10 ** math.ceil(math.log10(max(v[-1] for _, v in series)))
    plot = Plot("ElastiCon Fig. 4: response time CDF per member, 7:1 split and after balancing",
                "fraction of PACKET_INs", 1.0, subtitle, fmt=lambda v: f"{v:.1f}")

    def px(x):
        return plot.L + plot.width() * (math.log10(min(max(x, lo), hi)) - math.log10(lo)) / math.log10(hi / lo)

    decade = lo
    while decade <= hi * 1.001:
        plot.add(f'<line x1="{px(decade):.1f}" x2="{px(decade):.1f}" y1="{plot.T}" y2="{plot.H - plot.B}" '
                 f'stroke="#eee"/><text x="{px(decade):.1f}" y="{plot.H - plot.B + 18}" text-anchor="middle">'
                 f'{decade:g}</text>')
        decade *= 10
    plot.add(f'<text x="{plot.L + plot.width() / 2}" y="{plot.H - plot.B + 40}" text-anchor="middle">'
             f'response time (ms, log scale), PACKET_IN sent -> answer received</text>')
    for i, (name, v) in enumerate(series):
        color = COLORS[i % len(COLORS)]
        dash = ' stroke-dasharray="6,3"' if name.startswith("before") else ""
        step = max(1, len(v) // 300)
        pts = [(v[k], (k + 1) / len(v)) for k in range(0, len(v), step)] + [(v[-1], 1.0)]
        coords = " ".join(f"{px(x):.1f},{plot.y(y):.1f}" for x, y in pts)
        plot.add(f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="2"{dash}/>')
        ly, lx = plot.H - 24 + 16 * (i // 3), plot.L + 10 + 220 * (i % 3)
        plot.add(f'<rect x="{lx}" y="{ly - 10}" width="14" height="4" fill="{color}"/>'
                 f'<text x="{lx + 20}" y="{ly - 4}">{esc(name)}</text>')
    plot.save(path)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    work, out, balanced_by = Path(argv[1]), argv[2], argv[3]
    rows, roles, phases, migrations = load(work)
    series = fig4(rows, roles, phases)
    balancer_moves(roles, phases, balanced_by)
    bad = fig5(rows, roles, migrations, phases["series_start"])
    bad += distribution(roles, migrations)
    bad += totals(rows)
    if series:
        cdf_chart(f"{out}.svg", series, "3 members on loopback, 8 switches at a fixed rate each; dashed: 7:1 split")
    sys.exit(3 if bad else 0)


if __name__ == "__main__":
    main(sys.argv)
