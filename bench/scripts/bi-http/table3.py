#!/usr/bin/env python3
"""Markdown tables of run_store.py output: the stores of the files given (one file per store, or several), side by
side per query set (BI1-0, BI1-1, ...), then per query (the sets together).

Per query set and store: the mean and the fastest wall of the timed passes (passes 1..), the warm pass's wall in
brackets, the mean server CPU of the timed passes; "timeout" where every request of that store timed out (the
pass and the seconds given), "N t/o" beside the figures where some did. The rows column lists each store's result
count ("-" where it never answered; two counts where its passes disagreed) and "equal" or "DIFFER" over the stores
that answered. The ratio columns divide each peer's mean server CPU by Basalt's ("-" when either is missing or
Basalt's is under the 10 ms tick; "> N" where the peer only timed out: the CPU it had spent by then; "1st run: N" where it ran only in the warm pass); with --wall they
divide mean walls instead (the timeout's wall for a peer that only timed out). The per-query rows give ratios only
where every store has timed figures of every set. Usage: table3.py [--wall] FILE..."""
import json
import statistics
import sys

by_wall = "--wall" in sys.argv
paths = [a for a in sys.argv[1:] if a != "--wall"]
recs = []
for path in paths:
    for line in open(path):
        r = json.loads(line)
        if "file" in r:
            recs.append(r)
stores = []
for r in recs:
    if r["store"] not in stores:
        stores.append(r["store"])


def order(name):
    q, s = name.split("-")
    return int(q[2:]), int(s)


files = sorted({r["file"] for r in recs}, key=order)


def summary(store, names):
    """Figures of store over the query files names: timed walls, CPUs, warm walls, counts, timeouts."""
    rs = [r for r in recs if r["store"] == store and r["file"] in names]
    timed = [r for r in rs if r["pass"] > 0 and r["rows"] is not None]
    warm = [r for r in rs if r["pass"] == 0]
    return {
        "ms": [r["ms"] for r in timed],
        "cpu": [r["cpu_ms"] for r in timed],
        "warm": [r["ms"] for r in warm if r["rows"] is not None],
        "warm_cpu": [r["cpu_ms"] for r in warm if r["rows"] is not None],
        "rows": sorted({r["rows"] for r in rs if r["rows"] is not None}),
        "timeouts": [r for r in rs if r["timeout"]],
        "errors": [r for r in rs if r["rows"] is None and not r["timeout"]],
        "load": [r["load"] for r in rs],
    }


def cell(s):
    if not s["ms"]:
        if s["timeouts"]:
            t = s["timeouts"][0]
            return f"timeout ({t['ms'] / 1000:,.0f} s, pass {t['pass']}, CPU {t['cpu_ms']:,.0f})"
        if s["errors"]:
            return "error: " + s["errors"][0]["error"][:40]
        if s["warm"]:
            return f"[{statistics.mean(s['warm']):,.0f}], CPU {statistics.mean(s['warm_cpu']):,.0f} (warm pass only)"
        return "not run"
    text = f"{statistics.mean(s['ms']):,.0f} ({min(s['ms']):,.0f})"
    if s["warm"]:
        text += f" [{statistics.mean(s['warm']):,.0f}]"
    text += f", CPU {statistics.mean(s['cpu']):,.0f}"
    if s["timeouts"] or s["errors"]:
        text += f", {len(s['timeouts'])} t/o {len(s['errors'])} err"
    return text


def figure(s):
    """The mean wall or server CPU of the timed passes, or, for a store that only timed out, (lower bound,) the
    timeout's wall or the CPU it had spent when it gave up."""
    if not s["ms"]:
        if s["timeouts"]:
            return (max(t["ms"] if by_wall else t["cpu_ms"] for t in s["timeouts"]),)
        if s["warm"]:
            return [statistics.mean(s["warm"] if by_wall else s["warm_cpu"])]
        return None
    return statistics.mean(s["ms"]) if by_wall else statistics.mean(s["cpu"])


def table(groups):
    head = "| query | load | " + " | ".join(f"{s}: mean (min) [warm pass] ms, CPU ms" for s in stores) + " | rows |"
    head += "".join(f" {s} / {stores[0]} |" for s in stores[1:])
    print(head)
    print("|---|---|" + "---|" * len(stores) + "---|" + "---:|" * (len(stores) - 1))
    for label, names in groups:
        sums = {s: summary(s, names) for s in stores}
        loads = [x for s in stores for x in sums[s]["load"]]
        load = f"{min(loads):.0f}-{max(loads):.0f}" if loads else "-"
        counts = []
        answered = set()
        for s in stores:
            rows = sums[s]["rows"]
            counts.append("/".join(str(x) for x in rows) if rows else "-")
            if len(rows) == 1:
                answered.add(rows[0])
            elif rows:
                answered.add(None)
        verdict = "" if len(names) > 1 else (" equal" if len(answered) == 1 and None not in answered
                                               and sum(1 for c in counts if c != "-") > 1 else
                                               " DIFFER" if len(answered) > 1 else "")
        base = figure(sums[stores[0]])
        # over several sets, a ratio only where every store has timed figures of every set
        whole = len(names) == 1 or all({r["file"] for r in recs if r["store"] == s and r["file"] in names
                                        and r["pass"] > 0 and r["rows"] is not None} == names for s in stores)
        ratios = []
        for s in stores[1:]:
            f = figure(sums[s])
            bound, first = isinstance(f, tuple), isinstance(f, list)
            f = f[0] if bound or first else f
            ok = whole and isinstance(base, float | int) and f is not None and (by_wall or base >= 10)
            prefix = "> " if bound else "1st run: " if first else ""
            ratios.append(prefix + f"{f / base:.1f}x" if ok else "-")
        rows_cell = ", ".join(counts) + verdict if len(names) == 1 else ""
        print(f"| {label} | {load} | " + " | ".join(cell(sums[s]) for s in stores) + f" | {rows_cell} |"
              + "".join(f" {x} |" for x in ratios))


table([(f, {f}) for f in files])
print()
queries = sorted({f.split("-")[0] for f in files}, key=lambda q: int(q[2:]))
table([(q + " (all sets)", {f for f in files if f.split("-")[0] == q}) for q in queries])
