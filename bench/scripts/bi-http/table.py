"""Markdown table of run_bi.py output lines (pass --cpu for lines with server CPU): per query set, each store's
median wall ms of the timed runs (the warm-up run in brackets), server CPU ms, the result rows, and each store's
figure over Basalt's (server CPU with --cpu, "-" where Basalt's is below the 10 ms tick; else wall). Lines of the same query set from several files (the stores run
one after another, one file each) are joined into one row, the files' stores in the order given; the load column then
lists each file's load average."""
import json, sys
W = 5 if '--cpu' in sys.argv else 4
sys.argv = [a for a in sys.argv if a != '--cpu']
merged = {}
for f in sys.argv[1:]:
    for l in open(f):
        r = json.loads(l)
        if r[0] in merged:
            merged[r[0]][1].append(r[1])
            merged[r[0]][2].extend(r[2:])
        else:
            merged[r[0]] = [r[0], [r[1]], r[2:]]
rows = [[q, loads] + segs for q, loads, segs in merged.values()]
stores = [rows[0][i] for i in range(2, len(rows[0]), W)]
print("| query set | load | " + " | ".join(f"{s} warm (1st run)" for s in stores) + " | rows |" + "".join(f" {s} / basalt |" for s in stores[1:]))
print("|---|---|" + "---|" * len(stores) + "---|" + "---:|" * (len(stores) - 1))
for r in rows:
    cells, counts, meds = [], [], {}
    for i in range(2, len(r), W):
        name, first, med, n = r[i:i+4]
        cpu = r[i+4] if W == 5 else None
        if isinstance(n, int):
            cells.append((f"{med:,.0f} ms ({first:,.0f})" if med is not None else f"({first:,.0f})") + ("" if cpu is None else f", CPU {cpu:,.0f} ms"))
            counts.append(str(n))
            meds[name] = cpu if W == 5 else (med if med is not None else first)
        else:
            cells.append(f"error ({first/1000:,.0f} s)")
            counts.append("-")
            meds[name] = None
    b = meds.get("basalt")
    ratios = []
    for s in stores[1:]:
        ratios.append("-" if meds.get(s) is None or not b else f"{meds[s]/b:.1f}x")
    load = ", ".join(f"{x:.0f}" for x in r[1])
    print(f"| {r[0]} | {load} | " + " | ".join(cells) + " | " + ", ".join(counts) + " |" + "".join(f" {x} |" for x in ratios))
