#!/usr/bin/env python3
"""Summaries, ratios and SVG plots for the cbench-scripts (Python 3 standard library only).

    cbreport.py KIND WORK_DIR OUT_BASE

KIND is throughput, latency, scaling, memory or sweep. WORK_DIR holds cases.tsv (one line per generator run, written by
lib/bench.sh: id, label, x, warm-up loops, cool-down loops, exit codes, controller CPU %, output files) and the
generators' outputs; memory runs add samples.tsv and gc.log. Prints the summary (the caller appends it to
OUT_BASE.txt) and writes OUT_BASE.svg (and OUT_BASE.csv for memory).
"""

import math
import re
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

RESULT = re.compile(r"^RESULT: (\d+) switches (\d+) tests min/max/avg/stdev = "
                    r"([\d.]+)/([\d.]+)/([\d.]+)/([\d.]+) responses/s")
SUMMARY = re.compile(r"^SUMMARY (.*)$")
LOOP = re.compile(r" total = ([\d.]+) per ms")


@dataclass
class Case:
    """One generator run (one or more instances at once) and what it measured."""
    id: str
    label: str
    x: float
    codes: list
    controller_cpu: int
    instances: int = 0
    switches: int = 0
    avg: float = None
    min: float = None
    max: float = None
    stdev: float = None
    generator_cpu: list = field(default_factory=list)
    problem: str = ""

    @property
    def ok(self):
        return self.avg is not None


def parse_output(path):
    loops, results, summary = [], [], {}
    for line in Path(path).read_text(errors="replace").splitlines():
        if m := LOOP.search(line):
            loops.append(float(m.group(1)) * 1000.0)
        elif m := RESULT.match(line):
            results.append(m.groups())
        elif m := SUMMARY.match(line):
            summary = dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)
    return loops, results, summary


def load_cases(work):
    cases = []
    for row in (work / "cases.tsv").read_text().splitlines():
        cid, label, x, warmup, cooldown, codes, cpu, files = row.split("\t")
        case = Case(cid, label, float(x), [int(c) for c in codes.split(",")], int(cpu))
        parsed = [parse_output(f) for f in files.split(",")]
        case.instances = len(parsed)
        for _, _, summary in parsed:
            if "generator_cpu_pct" in summary:
                case.generator_cpu.append(summary["generator_cpu_pct"])
        if any(not results for _, results, _ in parsed):
            case.problem = "no RESULT line (exit status " + ",".join(map(str, case.codes)) + ")"
        elif len(parsed) == 1:
            sw, _, mn, mx, avg, sd = parsed[0][1][-1]
            case.switches, case.min, case.max, case.avg, case.stdev = int(sw), *map(float, (mn, mx, avg, sd))
        else:
            # Instances run at the same time: add their loop totals loop by loop, then drop warm-up/cool-down.
            n = min(len(loops) for loops, _, _ in parsed)
            totals = [sum(loops[j] for loops, _, _ in parsed) for j in range(n)][int(warmup):n - int(cooldown)]
            if totals:
                case.avg, case.min, case.max = statistics.fmean(totals), min(totals), max(totals)
                case.stdev = statistics.pstdev(totals)
            case.switches = sum(int(r[-1][0]) for _, r, _ in parsed)
        if case.ok and any(case.codes):
            case.problem = "exit status " + ",".join(map(str, case.codes))
        elif case.ok and case.min < 0.1 * case.max:
            case.problem = (f"unstable: the worst measured loop ({si(case.min)}/s) is below 10 % of the best "
                            f"({si(case.max)}/s); the machine was busy or connections stalled: run it again")
        cases.append(case)
    return cases


def si(v):
    if v is None:
        return "-"
    for div, suffix in ((1e6, " M"), (1e3, " k")):
        if abs(v) >= div:
            return f"{v / div:.3g}{suffix}"
    return f"{v:.3g}"


def ratio(a, b):
    return f"{a.avg / b.avg:.2f}" if a and b and a.ok and b.ok and b.avg else "-"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def generator_cpu(case):
    return "/".join(case.generator_cpu) if case.generator_cpu else "-"


def print_notes(cases):
    """Prints what went wrong or looks suspect; returns True when some case measured nothing."""
    problems = [f"- {c.label}: {c.problem}" for c in cases if c.problem]
    if problems:
        print("\n## Problems\n")
        print("\n".join(problems))
    return any(not c.ok for c in cases)


# ---------------------------------------------------------------------------------------------------- SVG plots

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


def nice_max(v):
    if v <= 0:
        return 1.0
    step = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if v <= m * step:
            return m * step
    return 10 * step


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Plot:
    """A fixed-size chart area with a y axis from 0 to ymax and horizontal grid lines."""
    W, H, L, R, T, B = 760, 440, 90, 20, 50, 90

    def __init__(self, title, ylabel, ymax, subtitle="", fmt=si):
        self.ymax = nice_max(ymax)
        self.parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.W}" height="{self.H}" '
                      f'font-family="sans-serif" font-size="12">',
                      f'<rect width="{self.W}" height="{self.H}" fill="white"/>',
                      f'<text x="{self.W / 2}" y="22" text-anchor="middle" font-size="15">{esc(title)}</text>',
                      f'<text x="{self.W / 2}" y="40" text-anchor="middle" fill="#555">{esc(subtitle)}</text>',
                      f'<text transform="translate(18,{(self.T + self.H - self.B) / 2}) rotate(-90)" '
                      f'text-anchor="middle">{esc(ylabel)}</text>']
        for i in range(6):
            v = self.ymax * i / 5
            y = self.y(v)
            self.parts.append(f'<line x1="{self.L}" x2="{self.W - self.R}" y1="{y:.1f}" y2="{y:.1f}" '
                              f'stroke="#ddd"/><text x="{self.L - 6}" y="{y + 4:.1f}" text-anchor="end">'
                              f'{esc(fmt(v))}</text>')

    def y(self, v):
        return self.H - self.B - (self.H - self.T - self.B) * v / self.ymax

    def width(self):
        return self.W - self.L - self.R

    def add(self, svg):
        self.parts.append(svg)

    def save(self, path):
        self.parts.append(f'<line x1="{self.L}" x2="{self.L}" y1="{self.T}" y2="{self.H - self.B}" stroke="#333"/>')
        self.parts.append(f'<line x1="{self.L}" x2="{self.W - self.R}" y1="{self.H - self.B}" '
                          f'y2="{self.H - self.B}" stroke="#333"/></svg>')
        Path(path).write_text("\n".join(self.parts) + "\n")


def plain(v):
    return f"{v:.4g}"


def bar_chart(path, title, ylabel, bars, subtitle="", fmt=si):
    """bars: (label, value or None, second label line)"""
    plot = Plot(title, ylabel, max([v for _, v, _ in bars if v] or [1]) * 1.1, subtitle, fmt)
    slot = plot.width() / max(len(bars), 1)
    for i, (label, value, detail) in enumerate(bars):
        x = plot.L + slot * i + slot * 0.15
        cx = plot.L + slot * (i + 0.5)
        if value:
            top = plot.y(value)
            plot.add(f'<rect x="{x:.1f}" y="{top:.1f}" width="{slot * 0.7:.1f}" '
                     f'height="{plot.H - plot.B - top:.1f}" fill="{COLORS[i % len(COLORS)]}"/>'
                     f'<text x="{cx:.1f}" y="{top - 5:.1f}" text-anchor="middle">{esc(fmt(value))}</text>')
        else:
            plot.add(f'<text x="{cx:.1f}" y="{plot.H - plot.B - 8}" text-anchor="middle">failed</text>')
        plot.add(f'<text x="{cx:.1f}" y="{plot.H - plot.B + 18}" text-anchor="middle">{esc(label)}</text>'
                 f'<text x="{cx:.1f}" y="{plot.H - plot.B + 34}" text-anchor="middle" fill="#555">'
                 f'{esc(detail)}</text>')
    plot.save(path)


def line_chart(path, title, xlabel, ylabel, series, subtitle="", fmt=si, xfmt=lambda x: f"{x:g}"):
    """series: (name, [(x, y)]); x axis from min to max x over all series, ticks at every x present (labelled by
    xfmt)."""
    xs = sorted({x for _, pts in series for x, _ in pts})
    ys = [y for _, pts in series for _, y in pts if y is not None]
    plot = Plot(title, ylabel, max(ys or [1]) * 1.1, subtitle, fmt)
    x0, x1 = (xs[0], xs[-1]) if xs else (0, 1)
    span = (x1 - x0) or 1
    pad = 20

    def px(x):
        return plot.L + pad + (plot.width() - 2 * pad) * (x - x0) / span

    step = max(1, len(xs) // 12)
    for x in xs[::step]:
        plot.add(f'<text x="{px(x):.1f}" y="{plot.H - plot.B + 18}" text-anchor="middle">{esc(xfmt(x))}</text>')
    plot.add(f'<text x="{plot.L + plot.width() / 2}" y="{plot.H - plot.B + 40}" text-anchor="middle">'
             f'{esc(xlabel)}</text>')
    for i, (name, pts) in enumerate(series):
        color = COLORS[i % len(COLORS)]
        pts = [(x, y) for x, y in pts if y is not None]
        if pts:
            coords = " ".join(f"{px(x):.1f},{plot.y(y):.1f}" for x, y in pts)
            plot.add(f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="2"/>')
            if len(pts) <= 40:
                plot.add("".join(f'<circle cx="{px(x):.1f}" cy="{plot.y(y):.1f}" r="3.5" fill="{color}"/>'
                                 for x, y in pts))
        ly, lx = plot.H - 30, plot.L + 10 + 230 * i
        plot.add(f'<rect x="{lx}" y="{ly - 10}" width="14" height="4" fill="{color}"/>'
                 f'<text x="{lx + 20}" y="{ly - 4}">{esc(name)}</text>')
    plot.save(path)


# ---------------------------------------------------------------------------------------------------- reports

def find(cases, cid):
    return next((c for c in cases if c.id == cid), None)


def throughput(work, out):
    cases = load_cases(work)
    rows = [[c.label, c.instances, c.switches, si(c.avg), si(c.min), si(c.max), si(c.stdev),
             f"{c.controller_cpu}%", generator_cpu(c)] for c in cases]
    print("\n## Summary (responses/s)\n")
    print(table(["controller", "generator instances", "switches", "avg", "min", "max", "stdev",
                 "controller CPU", "generator CPU %"], rows))
    beacon, resp = find(cases, "beacon"), find(cases, "responder")
    beacon4, ovs4 = find(cases, "beacon-4x16"), find(cases, "ovs-4x16")
    print("\n## Ratios (same run, same machine)\n")
    print(f"- Beacon / trivial responder (1 generator x 64 switches): {ratio(beacon, resp)}")
    if ovs4:
        print(f"- Beacon / ovs-testcontroller (4 generators x 16 switches each): {ratio(beacon4, ovs4)}")
    failed = print_notes(cases)
    bar_chart(f"{out}.svg", "cbench throughput, 64 switches (learning switch)", "responses/s",
              [(c.label.split(" (")[0], c.avg, f"{c.instances} x {c.switches // max(c.instances, 1)} switches")
               for c in cases], f"avg of the measured loops; {work_note(cases)}")
    return failed


def latency(work, out):
    cases = load_cases(work)

    def us(v):
        return f"{1e6 / v:.1f}" if v else "-"

    rows = [[c.label, si(c.avg), us(c.avg), us(c.max), us(c.min), f"{c.controller_cpu}%", generator_cpu(c)]
            for c in cases]
    print("\n## Summary (1 switch, one PACKET_IN in flight)\n")
    print(table(["controller", "round trips/s", "µs per round trip", "best loop µs", "worst loop µs",
                 "controller CPU", "generator CPU %"], rows))
    imm, batched = find(cases, "beacon-immediate"), find(cases, "beacon-batched")
    resp, ovs = find(cases, "responder"), find(cases, "ovs")

    def lat_ratio(a, b):  # latency a / latency b = rate b / rate a
        return f"{b.avg / a.avg:.2f}" if a and b and a.ok and b.ok else "-"

    print("\n## Ratios of µs per round trip (lower is faster; same run)\n")
    print(f"- Beacon immediate / trivial responder: {lat_ratio(imm, resp)}")
    print(f"- Beacon batched (default) / trivial responder: {lat_ratio(batched, resp)}")
    if ovs:
        print(f"- Beacon immediate / ovs-testcontroller: {lat_ratio(imm, ovs)}")
        print(f"- Beacon batched (default) / ovs-testcontroller: {lat_ratio(batched, ovs)}")
    failed = print_notes(cases)
    bar_chart(f"{out}.svg", "cbench latency mode, 1 switch", "µs per round trip",
              [(c.label.split(" (")[0], 1e6 / c.avg if c.ok else None, f"{si(c.avg)} round trips/s")
               for c in cases], f"1e6 / (round trips per second); lower is better; {work_note(cases)}", plain)
    return failed


def scaling(work, out):
    cases = load_cases(work)
    threads = sorted({int(c.x) for c in cases})
    base = find(cases, "beacon-t1")
    rows = []
    for t in threads:
        b, r = find(cases, f"beacon-t{t}"), find(cases, f"responder-t{t}")
        per = si(b.avg / t) if b and b.ok else "-"
        speedup = f"{b.avg / base.avg:.2f}" if b and b.ok and base and base.ok else "-"
        rows.append([t, f"{b.instances} x {b.switches // max(b.instances, 1)}" if b else "-",
                     si(b.avg if b else None), per, speedup, f"{b.controller_cpu}%" if b else "-",
                     si(r.avg if r else None), ratio(b, r)])
    print("\n## Summary (responses/s)\n")
    print(table(["Beacon threads", "generators x switches", "Beacon", "per thread", "speed-up vs 1 thread",
                 "Beacon CPU", "trivial responder", "Beacon / responder"], rows))
    failed = print_notes(cases)
    line_chart(f"{out}.svg", "Beacon throughput vs I/O threads", "controller.threadCount (= generator instances)",
               "responses/s",
               [("Beacon (learning switch)", [(t, getattr(find(cases, f"beacon-t{t}"), "avg", None))
                                              for t in threads]),
                ("trivial responder (ceiling)", [(t, getattr(find(cases, f"responder-t{t}"), "avg", None))
                                                 for t in threads])],
               work_note(cases, work))
    return failed


def cluster(work, out):
    cases = load_cases(work)
    base = find(cases, "standalone")
    rows = [[c.label, f"{c.instances} x {c.switches // max(c.instances, 1)}", si(c.avg),
             si(c.avg / max(c.instances, 1)) if c.ok else "-", ratio(c, base), f"{c.controller_cpu}%",
             generator_cpu(c)] for c in cases]
    print("\n## Summary (responses/s)\n")
    print(table(["controller", "generators x switches", "total", "per instance", "total / cluster off",
                 "controller CPU", "generator CPU %"], rows))
    failed = print_notes(cases)
    bar_chart(f"{out}.svg", "cbench throughput of a Beacon cluster, 64 switches (learning switch)", "responses/s",
              [(c.label.replace("Beacon ", ""), c.avg, f"{c.instances} generator(s)") for c in cases],
              f"avg of the measured loops; {work_note(cases, work)}")
    return failed


def sweep(work, out):
    """Every system at every switch count; ids are <system>-s<switches> (Beacon: beacon-<spin>-s<switches>)."""
    cases = load_cases(work)
    latency_mode = (work / "remark").read_text().strip() == "latency"
    counts = sorted({int(c.x) for c in cases})
    systems = []  # (id prefix, name) in first-seen order
    for c in cases:
        prefix = c.id.rsplit("-s", 1)[0]
        if prefix not in [p for p, _ in systems]:
            name = ("Beacon, idleSpinMicros=" + prefix.split("-", 1)[1] if prefix.startswith("beacon-")
                    else {"responder": "trivial responder", "ovs": "ovs-testcontroller"}.get(prefix, prefix))
            systems.append((prefix, name.replace("=default", " as configured")))

    def cell(c):
        if not c or not c.ok:
            return "-"
        if latency_mode:  # every switch keeps one PACKET_IN in flight
            return f"{si(c.avg)}/s ({c.switches * 1e6 / c.avg:.1f} µs)"
        return f"{si(c.avg)}/s"

    rows = [[n] + [cell(find(cases, f"{p}-s{n}")) for p, _ in systems] for n in counts]
    print(f"\n## Summary ({'latency mode: responses/s and µs per round trip' if latency_mode else 'responses/s'})\n")
    print(table(["switches"] + [name for _, name in systems], rows))
    print("\n## Ratios: Beacon / reference, responses per second (above 1: Beacon is faster; same run)\n")
    beacons = [(p, name) for p, name in systems if p.startswith("beacon-")]
    refs = [(p, name) for p, name in systems if not p.startswith("beacon-")]
    rows = []
    for n in counts:
        row = [n]
        for bp, _ in beacons:
            for rp, _ in refs:
                row.append(ratio(find(cases, f"{bp}-s{n}"), find(cases, f"{rp}-s{n}")))
        rows.append(row)
    print(table(["switches"] + [f"{bn} / {rn}" for _, bn in beacons for _, rn in refs], rows))
    cpu = [[n] + [f"{getattr(find(cases, f'{p}-s{n}'), 'controller_cpu', '-')}%" for p, _ in systems] for n in counts]
    print("\n## Controller CPU (% of one core over the generator run)\n")
    print(table(["switches"] + [name for _, name in systems], cpu))
    failed = print_notes(cases)
    positions = {n: i for i, n in enumerate(counts)}
    line_chart(f"{out}.svg", f"cbench {'latency mode' if latency_mode else 'throughput'} by switch count",
               "switches", "responses/s",
               [(name, [(positions[n], getattr(find(cases, f"{p}-s{n}"), "avg", None)) for n in counts])
                for p, name in systems],
               work_note(cases), xfmt=lambda x: str(counts[int(x)]))
    return failed


GC_LINE = re.compile(r"^\[([\d.]+)s\].*Pause (\w+) \(([^)]*)\) (\d+)M->(\d+)M\((\d+)M\) ([\d.]+)ms")


def memory(work, out):
    cases = load_cases(work)
    samples = []  # elapsed s, before MiB, after MiB, committed MiB, pause ms, last loop responses/s
    for row in (work / "samples.tsv").read_text().splitlines():
        elapsed, line, rate = row.split("\t")
        if m := GC_LINE.match(line):
            samples.append((float(elapsed), float(m.group(4)), float(m.group(5)), float(m.group(6)),
                            float(m.group(7)), float(rate) if rate else None))
    with open(f"{out}.csv", "w") as f:
        f.write("elapsed_s,heap_before_gc_mib,heap_after_gc_mib,heap_committed_mib,full_gc_pause_ms,"
                "last_loop_responses_per_s\n")
        for elapsed, before, after, committed, pause, rate in samples:
            f.write(f"{elapsed:.0f},{before:.0f},{after:.0f},{committed:.0f},{pause:.1f},"
                    f"{'' if rate is None else f'{rate:.0f}'}\n")
    print("\n## Summary\n")
    c = cases[0] if cases else None
    if c:
        print(f"- load: {c.switches} switches, throughput mode, avg {si(c.avg)} responses/s "
              f"(min {si(c.min)}, max {si(c.max)}), Beacon CPU {c.controller_cpu}% of a core")
    idle = next((s for s in samples if s[0] == 0), None)
    loaded = [s for s in samples if s[0] > 0]
    if idle:
        print(f"- heap after a full GC, idle before the load: {idle[2]:.0f} MiB")
    if loaded:
        first, last = loaded[0], loaded[-1]
        peak = max(loaded, key=lambda s: s[2])
        print(f"- heap after a full GC under load: first sample {first[2]:.0f} MiB (at {first[0]:.0f} s), "
              f"last {last[2]:.0f} MiB (at {last[0]:.0f} s), peak {peak[2]:.0f} MiB (at {peak[0]:.0f} s); "
              f"{len(loaded)} samples")
        print(f"- change first -> last sample under load: {last[2] - first[2]:+.0f} MiB")
        print(f"- forced full GC pause: median {statistics.median(s[4] for s in loaded):.0f} ms, "
              f"max {max(s[4] for s in loaded):.0f} ms")
    print("\n".join(f"- {line}" for line in gc_summary(work / "gc.log", c)))
    failed = print_notes(cases)
    line_chart(f"{out}.svg", "Beacon heap after full GC under cbench load", "seconds since the generator started",
               "MiB", [("heap after GC (MiB)", [(s[0], s[2]) for s in samples]),
                       ("heap committed (MiB)", [(s[0], s[3]) for s in samples])],
               f"64 switches x 100k MACs; {work_note(cases)}", plain)
    return failed or not loaded


def gc_summary(path, case):
    """Pause counts and the allocation rate between GCs (heap before a GC minus heap after the previous one)."""
    if not path.exists():
        return []
    pauses, allocated, pending, prev_after, first_t, last_t = {}, 0.0, 0.0, None, None, None
    for line in path.read_text(errors="replace").splitlines():
        if m := GC_LINE.match(line):
            t, kind, before, after = float(m.group(1)), m.group(2), float(m.group(4)), float(m.group(5))
            pauses.setdefault(kind, []).append(float(m.group(7)))
            # the rate is taken between the first and last GC the allocation itself caused: the loaded period
            if first_t is not None:
                pending += max(0.0, before - prev_after)
            if m.group(3) == "Allocation Failure":
                first_t = t if first_t is None else first_t
                last_t, allocated, pending = t, allocated + pending, 0.0
            prev_after = after
    lines = ["GC log over the whole run: " + "; ".join(
        f"{len(v)} {k} pauses, total {sum(v):.0f} ms, max {max(v):.1f} ms" for k, v in sorted(pauses.items()))]
    if first_t is not None and last_t > first_t:
        rate = allocated / (last_t - first_t)
        text = f"allocation rate (from the GC log): {rate:.0f} MiB/s"
        if case and case.ok and case.avg:
            text += f", about {rate * 1048576 / case.avg:.0f} bytes per response at {si(case.avg)} responses/s"
        lines.append(text)
    return lines


def work_note(cases, work=None):
    """The plot's subtitle tail: which generator, and the script's own remark (WORK_DIR/remark) if any."""
    note = "cbench-compatible generator" if all(c.generator_cpu for c in cases if c.ok) else "cbench"
    remark = work / "remark" if work else None
    if remark and remark.exists():
        note += "; " + remark.read_text().strip()
    return note


def main(argv):
    kinds = {"throughput": throughput, "latency": latency, "scaling": scaling, "memory": memory, "sweep": sweep,
             "cluster": cluster}
    if len(argv) != 4 or argv[1] not in kinds:
        sys.exit(__doc__)
    failed = kinds[argv[1]](
        Path(argv[2]), argv[3])
    sys.exit(3 if failed else 0)


if __name__ == "__main__":
    main(sys.argv)
