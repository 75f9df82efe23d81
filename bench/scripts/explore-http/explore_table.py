#!/usr/bin/env python3
"""Per-query tables of three_servers.sh's runs: Oxigraph / LmdbStore / Basalt mean client wall ms per query and phase.

    explore_table.py OUT_DIR/run-*.txt > table.md

Reads each bsbm-http output (run-NAME.txt) and its setting (run-NAME.json, written beside it by three_servers.sh:
which endpoint URL is which server, clients, warm-up mixes, COUNTs, load averages). bsbm-http prints, per endpoint
and phase, a line "URL PHASE, C client(s): Q QMpH (M mixes, T s), client CPU X ms/query, server CPU Y ms/query"
followed by one line per query "    Qn   avg A ms  min B  max C  (N)  R UNIT/answer" (N executions, R the mean count
per answer in UNIT: solutions for a SELECT; for a CONSTRUCT or DESCRIBE, bytes when bsbm-http read its body unparsed,
as the BSBM test driver does, or statements when it parsed it: --graph-count, the setting's "graph_count"); the
phases used here are the cold one ("cold (first 50 mixes)") and the timed run ("warm run 1"), called "after 50" when
the run followed the cold mixes directly (--warmup-mixes no larger than the cold mixes) and "warm (after W)" otherwise.
The cross-check's lines "Qn result counts (UNIT) {URL=count, ...}" always count a graph answer's statements; those
marked MISMATCH made bsbm-http exit 2, those marked DIFFERENCE EXPECTED (--expect-count-difference) did not.

Writes, per warm-up setting: a table with one row per query and one column per run and phase, each cell
"Oxigraph / LmdbStore / Basalt" mean ms, **B slower** where Basalt's mean is above a peer's; the mean count per answer
of the CONSTRUCT and DESCRIBE queries, with its unit; the QMpH and server CPU ms per query (the whole server process:
bsbm-http gives no per-query server CPU) of each endpoint per run and phase; the COUNTs and load averages; every cell
where Basalt is slower, with the ratio; result-count mismatches and expected differences. Standard library only.
"""
import json
import os
import re
import sys

PEERS = ["Oxigraph", "LmdbStore", "Basalt"]
PHASE = re.compile(r"^(\S+) (cold \(first \d+ mixes\)|warm run \d+), (\d+) client\(s\): ([\d,]+) QMpH \((\d+) mixes, "
                   r"([\d.]+) s\), client CPU ([\d.]+) ms/query(?:, server CPU ([\d.]+) ms/query)?")
QUERY = re.compile(r"^\s+(Q\d+)\s+avg\s+([\d.]+) ms\s+min\s+([\d.]+)\s+max\s+([\d.]+)\s+\((\d+)\)"
                   r"(?:\s+([\d.]+) ([\w ]+)/answer)?")
DIFFERENCE = re.compile(r"^(Q\d+) result counts (?:\(([\w ]+)\) )?(.*)  (MISMATCH|DIFFERENCE EXPECTED)$")
GRAPH_UNITS = ("bytes", "statements")


def parse(path):
    setting_path = re.sub(r"\.txt$", ".json", path)
    with open(setting_path, encoding="utf-8") as f:
        setting = json.load(f)
    names = setting["endpoints"]
    after = "after %d" % setting["cold_mixes"] if setting["warmup_mixes"] <= setting["cold_mixes"] \
        else "warm (after %d)" % setting["warmup_mixes"]
    phases = {}  # (phase, peer) -> {"qmph", "server_ms", "queries": {q: (mean ms, executions, per answer, unit)}}
    current = None
    mismatches = []  # (kind: MISMATCH or DIFFERENCE EXPECTED, text)
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = PHASE.match(line)
            if m:
                phase = "cold" if m.group(2).startswith("cold") else after
                current = {"qmph": float(m.group(4).replace(",", "")),
                           "server_ms": float(m.group(8)) if m.group(8) else None, "queries": {}}
                phases[(phase, names[m.group(1)])] = current
                continue
            m = QUERY.match(line)
            if m and current is not None:
                current["queries"][m.group(1)] = (float(m.group(2)), int(m.group(5)),
                                                   float(m.group(6)) if m.group(6) else None, m.group(7))
                continue
            current = None if not line.startswith(" ") else current
            m = DIFFERENCE.match(line)
            if m:
                counts = m.group(3)
                for url, peer in names.items():
                    counts = counts.replace(url + "=", peer + "=")
                unit = " %s" % m.group(2) if m.group(2) else ""
                mismatches.append((m.group(4), "%s%s: %s" % (m.group(1), unit, counts)))
    return setting, after, phases, mismatches


def mean_table(group, queries):
    """The runs with the same client count and phase averaged (mean of the runs' means), with the same marks."""
    cols = {}  # (clients, phase) -> list of phases dicts
    for _, setting, after, phases, _ in group:
        for phase in ["cold", after]:
            if all((phase, p) in phases for p in PEERS):
                cols.setdefault((setting["clients"], phase), []).append(phases)
    keys = sorted(cols, key=lambda k: (k[0], k[1] != "cold"))
    lines = ["Mean over the repetitions (runs with the same clients and phase):", "",
             "| query | " + " | ".join("%d client(s) %s (%d runs)" % (c, ph, len(cols[(c, ph)])) for c, ph in keys)
             + " |", "|---|" + "---|" * len(keys)]
    for q in queries:
        cells = []
        for c, ph in keys:
            ms = []
            for p in PEERS:
                vals = [x[(ph, p)]["queries"][q][0] for x in cols[(c, ph)] if q in x[(ph, p)]["queries"]]
                ms.append(sum(vals) / len(vals) if vals else None)
            cell = " / ".join("-" if v is None else "%.2f" % v for v in ms)
            if ms[2] is not None and any(ms[i] is not None and ms[2] > ms[i] for i in (0, 1)):
                cell += " **B slower**"
            cells.append(cell)
        lines.append("| %s | %s |" % (q, " | ".join(cells)))
    lines.append("")
    return lines


def graph_sizes(columns, queries):
    """Rows of the mean count per answer, with its unit, of the queries counted in bytes or statements."""
    rows = []
    for q in queries:
        cells = []
        graph = False
        for name, phase, ph in columns:
            values = []
            for p in PEERS:
                x = ph[(phase, p)]["queries"].get(q)
                if x is None or x[2] is None:
                    values.append("-")
                else:
                    graph |= x[3] in GRAPH_UNITS
                    values.append("{:,.0f} {}".format(x[2], x[3]) if x[3] == "bytes" else "%.1f %s" % (x[2], x[3]))
            cells.append(" / ".join(values))
        if graph:
            rows.append("| %s | %s |" % (q, " | ".join(cells)))
    return rows


def main(paths):
    # a run still going has no setting file yet
    done = [p for p in sorted(paths) if os.path.exists(re.sub(r"\.txt$", ".json", p))]
    for p in sorted(set(paths) - set(done)):
        print("skipped (no setting file: a run not finished?): " + p, file=sys.stderr)
    runs = [(p,) + parse(p) for p in done]
    by_warmup = {}
    for r in runs:
        by_warmup.setdefault(r[1]["warmup_mixes"], []).append(r)
    out = []
    for warmup in sorted(by_warmup):
        group = sorted(by_warmup[warmup], key=lambda r: (r[1]["clients"], r[1]["rep"]))
        columns = []  # (run name, phase label, phases dict)
        for path, setting, after, phases, _ in group:
            for phase in ["cold", after]:
                if all((phase, p) in phases for p in PEERS):
                    columns.append((setting["name"], phase, phases))
        s0 = group[0][1]
        out.append("### %d products, seed %d, warm-up mixes %d: Oxigraph / LmdbStore / Basalt mean wall ms per query"
                   % (s0["products"], s0["seed"], warmup))
        out.append("")
        counted = sorted({r[1].get("graph_count", "not recorded") for r in group})
        out.append("CONSTRUCT/DESCRIBE answers counted in the timed phases in: %s (bytes: the body read to its end "
                   "unparsed, as the BSBM test driver reads it; statements: parsed)." % ", ".join(counted))
        out.append("")
        out.append("| query | " + " | ".join("%s %s" % (name, phase) for name, phase, _ in columns) + " |")
        out.append("|---|" + "---|" * len(columns))
        queries = sorted({q for _, phase, ph in columns for p in PEERS for q in ph[(phase, p)]["queries"]},
                         key=lambda q: int(q[1:]))
        slower = []
        for q in queries:
            cells = []
            for name, phase, ph in columns:
                ms = [ph[(phase, p)]["queries"].get(q, (None, 0))[0] for p in PEERS]
                cell = " / ".join("-" if v is None else "%.2f" % v for v in ms)
                b = ms[2]
                worse = [PEERS[i] for i in (0, 1) if b is not None and ms[i] is not None and b > ms[i]]
                if worse:
                    cell += " **B slower**"
                    for i in (0, 1):
                        if PEERS[i] in worse:
                            slower.append("%s %s %s: Basalt %.2f ms, %s %.2f ms (%.2fx)"
                                          % (q, name, phase, b, PEERS[i], ms[i], b / ms[i]))
                cells.append(cell)
            out.append("| %s | %s |" % (q, " | ".join(cells)))
        out.append("")
        reps = sorted({r[1]["rep"] for r in group})
        if len(reps) > 1:
            out.extend(mean_table(group, queries))
        sizes = graph_sizes(columns, queries)
        if sizes:
            out.append("Mean count per answer of the CONSTRUCT/DESCRIBE queries (Oxigraph / LmdbStore / Basalt):")
            out.append("")
            out.append("| query | " + " | ".join("%s %s" % (name, phase) for name, phase, _ in columns) + " |")
            out.append("|---|" + "---|" * len(columns))
            out.extend(sizes)
            out.append("")
        out.append("QMpH (server CPU ms per query, whole process) per run and phase:")
        out.append("")
        out.append("| run | phase | " + " | ".join(PEERS) + " | load start / ready / end |")
        out.append("|---|---|" + "---:|" * len(PEERS) + "---|")
        for name, phase, ph in columns:
            setting = next(r[1] for r in group if r[1]["name"] == name)
            figures = []
            for p in PEERS:
                x = ph[(phase, p)]
                cpu = "-" if x["server_ms"] is None else "%.3f" % x["server_ms"]
                figures.append("{:,.0f} ({})".format(x["qmph"], cpu))
            ld = setting["load"]
            out.append("| %s | %s | %s | %s / %s / %s |" % (name, phase, " | ".join(figures), ld["start"], ld["ready"],
                                                           ld["end"]))
        out.append("")
        counts = sorted({json.dumps(r[1]["counts"], sort_keys=True) for r in group})
        out.append("COUNT(*) before the cold phase: " + "; ".join(counts))
        mism = sorted({text for r in group for kind, text in r[4] if kind == "MISMATCH"})
        expected = sorted({text for r in group for kind, text in r[4] if kind != "MISMATCH"})
        out.append("Result-count mismatches (bsbm-http cross-check): " + ("; ".join(mism) if mism else "none"))
        out.append("Expected differences (--expect-count-difference): " + ("; ".join(expected) if expected else "none"))
        out.append("")
        out.append("Cells where Basalt is slower (%d):" % len(slower))
        out.extend("- " + s for s in slower) if slower else out.append("- none")
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) < 2 or not all(os.path.exists(p) for p in sys.argv[1:]):
        sys.exit(__doc__)
    main(sys.argv[1:])
