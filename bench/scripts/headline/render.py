#!/usr/bin/env python3
"""Writes the current benchmark figures from the results log: docs/benchmarks.md, its charts, the log's index and the
README's headline table.

    render.py --results docs/results --page docs/benchmarks.md --readme README.md --charts docs/charts

The results log is a directory of runs, one directory each (RUN_ID: UTC date and time, then the commit), as
headline.sh leaves them:

    RUN_ID/run.json                        commit, Java, cores, start/end time and load averages
    RUN_ID/SCALE/MANIFEST.txt, prepare.txt prepare_stores.sh's MANIFEST and log: triples, bytes, load times
    RUN_ID/SCALE/after50/run-*.txt|json    three_servers.sh runs with --warmup-mixes 0 (cold, then after 50)
    RUN_ID/SCALE/warm/run-*.txt|json       three_servers.sh runs with --warmup-mixes 1000 (cold, then warm)
    RUN_ID/coldstart.txt                   `basalt-bench coldstart` output (first 10,000 queries against warm)

Each section of the page comes from the newest run that measured it (a scale measured on its own, 100M say, keeps its
own run), and names it. Every figure is computed here from those files: the ratios, the checks against issue 34's
targets and the cells where Basalt is slower than a peer; nothing is carried over by hand except the page's tail,
bench/scripts/headline/page-tail.md (measurements of other harnesses, linked reports), which is appended as it is.
Standard library only; the run files are read with explore_table.py's parser.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "explore-http"))
import explore_table  # noqa: E402  (beside this script's directory)

PEERS = explore_table.PEERS  # Oxigraph, LmdbStore, Basalt
SCALE_ORDER = {"1m": 1, "10m": 2, "100m": 3}
README_START = "<!-- headline:start (written by bench/scripts/headline/render.py) -->"
README_END = "<!-- headline:end -->"
COLD_ROW = re.compile(r"^\| (\S+) #(\d+) \| ([\d.]+) \(([\d.]+)\) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d,]+) \| "
                      r"([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$")
STEP_DONE = re.compile(r"^([\w-]+): done in ([\d.]+) s, (\d+) bytes")


# ---------------------------------------------------------------- reading the log

def runs_in(results):
    """The runs of the log, oldest first: (run id, directory, run.json)."""
    runs = []
    for name in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        meta = os.path.join(results, name, "run.json")
        if os.path.isfile(meta):
            with open(meta, encoding="utf-8") as f:
                runs.append((name, os.path.join(results, name), json.load(f)))
    runs.sort(key=lambda r: r[2].get("started", r[0]))
    return runs


def manifest(path):
    """MANIFEST's lines as key -> rest of the line."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, rest = line.strip().partition(" ")
            out[key] = rest
    return out


def loads(path):
    """prepare_stores.sh's steps that ran: step -> (seconds, bytes); the last record of each step."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = STEP_DONE.match(line)
            if m:
                out[m.group(1)] = (float(m.group(2)), int(m.group(3)))
    return out


def scale_results(run_dir, scale):
    """A scale's figures in one run, or None when the run did not measure it."""
    d = os.path.join(run_dir, scale)
    if not os.path.isdir(d):
        return None
    runs = []
    for phase_dir in ("after50", "warm"):
        p = os.path.join(d, phase_dir)
        if os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if re.match(r"run-.*\.txt$", f) and os.path.exists(os.path.join(p, f[:-4] + ".json")):
                    runs.append(explore_table.parse(os.path.join(p, f)))
    if not runs:
        return None
    m = os.path.join(d, "MANIFEST.txt")
    pl = os.path.join(d, "prepare.txt")
    return {"runs": runs, "manifest": manifest(m) if os.path.exists(m) else {},
            "loads": loads(pl) if os.path.exists(pl) else {}}


def phase_kind(phase):
    return "cold" if phase == "cold" else "warm" if phase.startswith("warm") else "after 50"


def throughput(runs):
    """(clients, kind) -> peer -> (mean QMpH, mean server CPU ms/query or None, number of runs)."""
    acc = {}
    for setting, _after, phases, _mismatches in runs:
        for (phase, peer), x in phases.items():
            acc.setdefault((setting["clients"], phase_kind(phase)), {}).setdefault(peer, []).append(x)
    out = {}
    for key, peers in acc.items():
        out[key] = {}
        for peer, xs in peers.items():
            cpu = [x["server_ms"] for x in xs if x["server_ms"] is not None]
            out[key][peer] = (sum(x["qmph"] for x in xs) / len(xs), sum(cpu) / len(cpu) if cpu else None, len(xs))
    return out


def per_query(runs):
    """(clients, kind) -> query -> peer -> [mean ms of each run]."""
    out = {}
    for setting, _after, phases, _mismatches in runs:
        for (phase, peer), x in phases.items():
            cell = out.setdefault((setting["clients"], phase_kind(phase)), {})
            for q, figures in x["queries"].items():
                cell.setdefault(q, {}).setdefault(peer, []).append(figures[0])
    return out


def slower_cells(runs):
    """Every (scale-free) run cell where Basalt's mean is above a peer's: (query, run name, phase, peer, B ms, peer ms)."""
    cells = []
    for setting, _after, phases, _mismatches in runs:
        for (phase, peer), x in phases.items():
            if peer == "Basalt":
                continue
            b = phases.get((phase, "Basalt"))
            if b is None:
                continue
            for q, figures in x["queries"].items():
                bq = b["queries"].get(q)
                if bq is not None and bq[0] > figures[0]:
                    cells.append((q, setting["name"], phase, peer, bq[0], figures[0]))
    return cells


def coldstart(path):
    """The final summary table of `basalt-bench coldstart`: [(label, rep, start s, start CPU s, cold ms, JIT ms,
    GC ms, compiles, JIT elapsed ms, warm ms, ratio)], and its heading line."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("| configuration |")]
    if not starts:
        return [], ""
    rows = []
    for line in lines[starts[-1] + 2:]:
        m = COLD_ROW.match(line)
        if not m:
            break
        g = m.groups()
        rows.append((g[0], int(g[1]), float(g[2]), float(g[3]), float(g[4]), float(g[5]), float(g[6]),
                     int(g[7].replace(",", "")), float(g[8]), float(g[9]), float(g[10])))
    heading = next((line for line in lines if line.startswith("BSBM ")), "")
    return rows, heading


# ---------------------------------------------------------------- formatting

def qmph(x):
    return "{:,.0f}".format(x)


def cpu(x):
    return "-" if x is None else "%.3f" % x


def ratio(a, b):
    return "-" if not a or not b else "%.2f" % (a / b)


def scale_label(scale, man):
    triples = man.get("bsbm.nt", "").split(" ")[0]
    products = man.get("products", "?")
    return "%s (%s products, %s triples)" % (scale.upper(), "{:,}".format(int(products)) if products.isdigit() else
                                            products, "{:,}".format(int(triples)) if triples.isdigit() else "?")


def run_note(run_id, meta):
    dirty = " (with uncommitted changes)" if meta.get("uncommitted_changes") else ""
    archive = {True: ", the launcher with the build's class-data archive", False: ", the launcher without a "
               "class-data archive"}.get(meta.get("class_data_archive"), "")
    cpu_model = " (%s)" % meta["cpu"] if meta.get("cpu") else ""
    return "run `%s`: commit %s%s, %s to %s, %s%s, %s cores%s, load average %s at the start and %s at the end" % (
        run_id, meta.get("commit", "?"), dirty, meta.get("started", "?"), meta.get("ended", "?"),
        meta.get("java", "?"), archive, meta.get("cores", "?"), cpu_model,
        " ".join(meta.get("load_start", [])) or "?",
        " ".join(meta.get("load_end", [])) or "?")


KINDS = ["cold", "after 50", "warm"]


def throughput_table(scales):
    lines = ["| scale | clients | phase | Basalt QMpH (server CPU ms/query) | Oxigraph | LmdbStore+ospc | "
             "Basalt / Oxigraph QMpH | Basalt / LmdbStore | Basalt's CPU / Oxigraph's | runs |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for scale, res in scales:
        t = throughput(res["runs"])
        for clients in sorted({k[0] for k in t}):
            for kind in KINDS:
                peers = t.get((clients, kind))
                if not peers or any(p not in peers for p in PEERS):
                    continue
                b, o, lm = peers["Basalt"], peers["Oxigraph"], peers["LmdbStore"]
                lines.append("| %s | %d | %s | %s (%s) | %s (%s) | %s (%s) | %s | %s | %s | %d |" % (
                    scale.upper(), clients, kind, qmph(b[0]), cpu(b[1]), qmph(o[0]), cpu(o[1]), qmph(lm[0]),
                    cpu(lm[1]), ratio(b[0], o[0]), ratio(b[0], lm[0]), ratio(b[1], o[1]), b[2]))
    return lines


def per_query_table(res):
    pq = per_query(res["runs"])
    keys = sorted(pq, key=lambda k: (k[0], KINDS.index(k[1])))
    queries = sorted({q for k in keys for q in pq[k]}, key=lambda q: int(q[1:]))
    def runs(c, kind):
        n = max(len(v) for qv in pq[(c, kind)].values() for v in qv.values())
        return "%d run%s" % (n, "" if n == 1 else "s")
    lines = ["| query | " + " | ".join("%d client(s), %s (%s)" % (c, kind, runs(c, kind)) for c, kind in keys) + " |",
             "|---|" + "---|" * len(keys)]
    for q in queries:
        cells = []
        for k in keys:
            ms = []
            for p in PEERS:
                vals = pq[k].get(q, {}).get(p, [])
                ms.append(sum(vals) / len(vals) if vals else None)
            cell = " / ".join("-" if v is None else "%.2f" % v for v in ms)
            if ms[2] is not None and any(v is not None and ms[2] > v for v in ms[:2]):
                cell += " **B slower**"
            cells.append(cell)
        lines.append("| %s | %s |" % (q, " | ".join(cells)))
    return lines


def targets(scales, cold_rows):
    """Issue 34's targets checked against the figures: lines of text."""
    out = []
    by_scale = dict(scales)
    ten = by_scale.get("10m")
    if ten:
        t = throughput(ten["runs"])
        checks = []
        ok = True
        for clients in (1, 2):
            a50 = t.get((clients, "after 50"), {})
            warm = t.get((clients, "warm"), {})
            if all(p in a50 for p in PEERS):
                ro, rl = a50["Basalt"][0] / a50["Oxigraph"][0], a50["Basalt"][0] / a50["LmdbStore"][0]
                ok &= ro >= 2 and rl >= 2.5
                checks.append("%d client(s) after 50 mixes %.2fx Oxigraph and %.2fx LmdbStore" % (clients, ro, rl))
            else:
                ok = False
                checks.append("%d client(s) after 50 mixes not measured" % clients)
            if all(p in warm for p in PEERS):
                rw = warm["Basalt"][0] / warm["Oxigraph"][0]
                ok &= rw >= 3
                checks.append("%d client(s) warm %.2fx Oxigraph" % (clients, rw))
            else:
                ok = False
                checks.append("%d client(s) warm not measured" % clients)
        out.append("- **Throughput at 10M** (at least 2x Oxigraph's and 2.5x LmdbStore's QMpH after 50 mixes, 3x "
                   "Oxigraph's warm, 1 and 2 clients): %s; %s." % ("holds" if ok else "**does not hold**",
                                                                   ", ".join(checks)))
    j17 = [r for r in cold_rows if r[0] == "j17"]
    if j17:
        worst = max(r[10] for r in j17)
        out.append("- **First 10,000 queries** (server CPU per query at most 1.5x the warm figure, Java 17): %s; "
                   "%s (Java 25: %s)." % ("holds" if worst <= 1.5 else "**does not hold**",
                                           ", ".join("%.2fx" % r[10] for r in j17),
                                           ", ".join("%.2fx" % r[10] for r in cold_rows if r[0] == "j25") or
                                           "not measured"))
    cells = []
    for scale in ("1m", "10m"):
        res = by_scale.get(scale)
        if res:
            cells += [(scale,) + c for c in slower_cells(res["runs"])]
    measured = [s.upper() for s in ("1m", "10m") if s in by_scale]
    if measured:
        text = "- **No explore query slower on Basalt than on a peer** (%s, every run's cold, after-50 and warm " \
               "phase): %s" % (" and ".join(measured), "holds." if not cells else "**does not hold** in %d of the "
                               "runs' cells:" % len(cells))
        out.append(text)
        for scale, q, name, phase, peer, b, p in sorted(cells, key=lambda c: (c[0], int(c[1][1:]), c[2], c[3])):
            out.append("  - %s %s, run %s, %s: Basalt %.2f ms, %s %.2f ms (%.2fx)" % (
                scale.upper(), q, name, phase, b, peer, p, b / p))
    return out


def loads_table(scales):
    lines = ["| scale | triples | generate (N-Triples) | Basalt `basalt load` | LmdbStore+ospc (`LoadLmdb.java`) | "
             "Oxigraph (`oxigraph load` + `optimize`) |", "|---|---:|---:|---:|---:|---:|"]
    for scale, res in scales:
        man, ld = res["manifest"], res["loads"]
        triples = man.get("bsbm.nt", "").split(" ")[0]
        n = int(triples) if triples.isdigit() else None

        def store(step, key, extra=None):
            size = man.get(key, "").split(" ")[0]
            size = int(size) if size.isdigit() else None
            secs = ld.get(step, (None, None))[0]
            if extra and extra in ld and secs is not None:
                secs += ld[extra][0]
            if size is None:
                return "-"
            per = " = %.1f bytes/triple" % (size / n) if n else ""
            return "%s s, %s bytes%s" % ("-" if secs is None else "%.1f" % secs, "{:,}".format(size), per)
        gen = ld.get("generate")
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            scale.upper(), "{:,}".format(n) if n else "-", "-" if not gen else "%.1f s" % gen[0],
            store("basalt-load", "basalt"), store("lmdb-load", "lmdb"),
            store("oxigraph-load", "oxigraph-store", "oxigraph-optimize")))
    return lines


# ---------------------------------------------------------------- charts (SVG, standard library)

COLORS = {"Basalt": "#2b6cb0", "Oxigraph": "#c05621", "LmdbStore": "#718096"}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def bar_chart(title, unit, groups, series, path, higher_better=True):
    """Grouped bars: groups = [(label, {series: value})]; writes an SVG file."""
    width = max(480, 40 + len(groups) * (len(series) * 18 + 26))
    height, top, bottom, left = 300, 40, 70, 60
    top_value = max([v for _, vals in groups for v in vals.values() if v is not None] + [1e-9])
    scale = (height - top - bottom) / top_value
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
           % (width, height), '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="13" font-weight="bold">%s</text>' % (left, esc(title)),
           '<text x="%d" y="32" fill="#555">%s (%s)</text>' % (left, esc(unit),
                                                                "higher is better" if higher_better else
                                                                "lower is better")]
    base = height - bottom
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (left, base, width - 10, base))
    for i in range(5):
        v = top_value * i / 4
        y = base - v * scale
        out.append('<text x="%d" y="%.1f" text-anchor="end" fill="#555">%s</text>' % (
            left - 4, y + 4, "{:,.0f}".format(v) if top_value >= 100 else "%.2f" % v))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (left, y, width - 10, y))
    x = left + 12
    for label, vals in groups:
        for s in series:
            v = vals.get(s)
            if v is not None:
                h = v * scale
                out.append('<rect x="%d" y="%.1f" width="16" height="%.1f" fill="%s"><title>%s %s: %s</title></rect>'
                           % (x, base - h, h, COLORS.get(s, "#999"), esc(label), s,
                              "{:,.0f}".format(v) if top_value >= 100 else "%.3f" % v))
            x += 18
        out.append('<text x="%d" y="%d" text-anchor="middle" transform="rotate(-30 %d %d)">%s</text>' % (
            x - len(series) * 9, base + 16, x - len(series) * 9, base + 16, esc(label)))
        x += 26
    for i, s in enumerate(series):
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>' % (
            width - 130, 10 + i * 14, COLORS.get(s, "#999"), width - 116, 19 + i * 14, s))
    out.append("</svg>")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def charts(scales, charts_dir, page_dir):
    """Writes the charts; returns their Markdown image lines (paths relative to the page)."""
    made = []
    groups = []
    for scale, res in scales:
        t = throughput(res["runs"])
        for clients in (1, 2):
            for kind in KINDS:
                peers = t.get((clients, kind))
                if peers and all(p in peers for p in PEERS):
                    groups.append(("%s %dc %s" % (scale.upper(), clients, kind), {p: peers[p][0] for p in PEERS}))
    if groups:
        path = os.path.join(charts_dir, "headline-qmph.svg")
        bar_chart("BSBM explore (reduced mix) over HTTP: QMpH", "query mixes per hour", groups,
                  ["Basalt", "Oxigraph", "LmdbStore"], path)
        made.append("![QMpH per scale, clients and phase](%s)" % os.path.relpath(path, page_dir))
    if scales:
        scale, res = scales[-1]
        pq = per_query(res["runs"])
        for kind in ("cold", "warm"):
            cell = pq.get((2, kind)) or pq.get((1, kind))
            if not cell:
                continue
            clients = 2 if pq.get((2, kind)) else 1
            qs = sorted(cell, key=lambda q: int(q[1:]))
            groups = [(q, {p: sum(cell[q][p]) / len(cell[q][p]) for p in PEERS if cell[q].get(p)}) for q in qs]
            path = os.path.join(charts_dir, "per-query-%s-%s.svg" % (scale, kind.replace(" ", "")))
            bar_chart("%s, %d client(s), %s: mean wall ms per query" % (scale.upper(), clients, kind), "ms", groups,
                      ["Basalt", "Oxigraph", "LmdbStore"], path, higher_better=False)
            made.append("![%s per query, %s](%s)" % (scale.upper(), kind, os.path.relpath(path, page_dir)))
    return made


# ---------------------------------------------------------------- the outputs

def newest_with(runs, test):
    for run_id, d, meta in reversed(runs):
        value = test(run_id, d, meta)
        if value:
            return run_id, meta, value
    return None


def page(runs, charts_dir, page_path, tail):
    scales = []  # (scale, results), each from the newest run that measured it
    notes = {}
    all_scales = sorted({s for _, _, meta in runs for s in meta.get("scales", [])}, key=lambda s: SCALE_ORDER.get(s, 9))
    for scale in all_scales:
        found = newest_with(runs, lambda _i, d, _m, s=scale: scale_results(d, s))
        if found:
            run_id, meta, res = found
            scales.append((scale, res))
            notes[scale] = run_note(run_id, meta)
    def measured_coldstart(_run_id, d, _meta):
        path = os.path.join(d, "coldstart.txt")
        parsed = coldstart(path) if os.path.exists(path) else ([], "")
        return parsed if parsed[0] else None
    cold = newest_with(runs, measured_coldstart)
    cold_rows, cold_heading = cold[2] if cold else ([], "")
    page_dir = os.path.dirname(os.path.abspath(page_path))
    out = ["# Benchmarks: the current figures", "",
           "<!-- Written by bench/scripts/headline/render.py from the results log docs/results/; do not edit by hand. "
           "`bench/scripts/headline/headline.sh` measures anew and rewrites it, `headline.sh --render` rewrites it "
           "from the log. -->", "",
           "Basalt beside `oxigraph serve` and LmdbStore+ospc, measured side by side in one run per scale by "
           "`bench/scripts/headline/headline.sh`; the raw outputs of every run are kept in the results log "
           "([results/](results/README.md)), from which this page, its charts and the README's headline table are "
           "generated. Earlier dated runs and the detailed methods are in the reports linked at the end.", "",
           "**Method.** BSBM V3 data as the specification generates it (`generate-bsbm`, seed 808), the reduced "
           "explore mix, what the BSBM test driver sends (GET, SPARQL/XML, RDF/XML for DESCRIBE and CONSTRUCT, graph "
           "answers read to their end unparsed), each server started fresh on a copy of its store "
           "(`bench/scripts/explore-http/three_servers.sh`): **cold** is its first 50 mixes, **after 50** the 20-s "
           "run right after them, **warm** the 20-s run after 1,000 mixes. Basalt and LmdbStore (`spoc,posc,ospc`) "
           "are repositories of one launcher (`java -Xmx2g -jar basalt-server.jar`, a store's first start: no query "
           "log), Oxigraph is `oxigraph serve`. QMpH is query mixes per hour at the client; server CPU per query is "
           "the whole server process's over the phase. Wall times move with the machine's load; ratios from one run "
           "and server CPU per query are the steadier figures.", ""]
    if scales:
        out += ["## BSBM over HTTP: throughput, cold and warm", ""]
        out += ["- %s: %s." % (s.upper(), notes[s]) for s, _ in scales] + [""]
        out += throughput_table(scales) + [""]
    images = charts(scales, charts_dir, page_dir) if scales else []
    if images:
        out += images[:1] + [""]
    target_lines = targets(scales, cold_rows)
    if target_lines:
        out += ["## Issue 34's targets, checked against these figures", ""] + target_lines + [""]
    for scale, res in scales:
        out += ["## Per query at %s: Oxigraph / LmdbStore / Basalt, mean wall ms" % scale_label(scale,
                                                                                                   res["manifest"]),
                "", "Means over the runs of each client count and phase; **B slower** marks a cell where Basalt's "
                "mean is above a peer's. Per-run tables: the run's `table.md` files in the log.", ""]
        out += per_query_table(res) + [""]
    if len(images) > 1:
        out += images[1:] + [""]
    if scales:
        out += ["## Loads and bytes on disk", "",
                "`bench/scripts/explore-http/prepare_stores.sh` (each loader as its own process, one after the other; "
                "bytes as `du` counts them).", ""]
        out += loads_table(scales) + [""]
    if cold_rows:
        run_id, meta = cold[0], cold[1]
        out += ["## Cold start: server CPU per query over the first 10,000 queries", "",
                "`basalt-bench coldstart`: the launcher started fresh on a copy of a BSBM 1M store (a store's first "
                "start: its own warm-up only, no query log), one client sending the reduced mix, the server's CPU per "
                "query over its first 10,000 queries against its warm figure (the last 10,000 of 30,000); %s. %s" % (
                    run_note(run_id, meta), cold_heading), "",
                "| start | start-up s (CPU s) | first 10,000: ms/query | of it JIT compiler threads | GC threads | "
                "compilations | warm: ms/query | cold / warm |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
        for r in cold_rows:
            release = {"j17": "Java 17", "j25": "Java 25"}.get(r[0], r[0])
            out.append("| %s #%d | %.1f (%.1f) | %.3f | %.3f | %.3f | %s | %.3f | %.2f |" % (
                release, r[1], r[2], r[3], r[4], r[5], r[6], "{:,}".format(r[7]), r[9], r[10]))
        out.append("")
    if tail:
        out += [tail.rstrip("\n"), ""]
    return "\n".join(out), scales, cold_rows


def readme_block(scales, cold_rows):
    by_scale = dict(scales)
    scale = "10m" if "10m" in by_scale else scales[-1][0] if scales else None
    if scale is None:
        return None
    t = throughput(by_scale[scale]["runs"])
    lines = ["BSBM %s over HTTP (specification-shaped data, reduced explore mix, SPARQL/XML results, each server "
             "started fresh on a store's first start; generated from the newest run of "
             "[docs/results](docs/results/README.md)):" % scale.upper(), "",
             "| | Basalt | `oxigraph serve` | LmdbStore+ospc |", "|---|---:|---:|---:|"]
    for kind, label in (("cold", "QMpH, first 50 mixes"), ("after 50", "QMpH after 50 warm-up mixes"),
                        ("warm", "QMpH warm (after 1,000 mixes)")):
        cells = []
        for p in ("Basalt", "Oxigraph", "LmdbStore"):
            vals = [t.get((c, kind), {}).get(p) for c in (1, 2)]
            cells.append(" / ".join("-" if v is None else qmph(v[0]) for v in vals))
        lines.append("| %s, 1 / 2 clients | %s |" % (label, " | ".join(cells)))
    warm1 = t.get((1, "warm"), {})
    if warm1:
        lines.append("| warm server CPU per query, 1 client | %s |" % " | ".join(
            "-" if warm1.get(p) is None or warm1[p][1] is None else "%.2f ms" % warm1[p][1]
            for p in ("Basalt", "Oxigraph", "LmdbStore")))
    j17 = [r[10] for r in cold_rows if r[0] == "j17"]
    if j17:
        lines.append("| first 10,000 queries against warm, server CPU per query (1M, first start, Java 17) | %s | | |"
                     % ", ".join("%.2fx" % v for v in j17))
    return "\n".join(lines)


def replace_block(text, block):
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise SystemExit("README has no %s ... %s block" % (README_START, README_END))
    return text[:start + len(README_START)] + "\n" + block + "\n" + text[end:]


def index(runs):
    lines = ["# Results log", "",
             "One directory per run of `bench/scripts/headline/headline.sh` (RUN_ID: UTC date and time of its start, "
             "then the commit measured), holding the raw outputs the current figures page "
             "([../benchmarks.md](../benchmarks.md)) is generated from: `run.json` (commit, Java, cores, load "
             "averages), per scale `MANIFEST.txt` and `prepare.txt` (prepare_stores.sh: data, loads, bytes), "
             "`after50/` and `warm/` (three_servers.sh: each bsbm-http output `run-*.txt` with its setting "
             "`run-*.json`, the run's log `runs.txt` and per-run tables `table.md`), and `coldstart.txt` (`basalt-bench "
             "coldstart`). This index is generated too (`headline.sh --render`). Runs before this log, with their "
             "methods, are the dated sections of the detailed reports: [benchmarks-coldstart.md]"
             "(../benchmarks-coldstart.md), [benchmarks-server.md](../benchmarks-server.md) and the others linked "
             "from the figures page.", "",
             "| run | commit | scales | Java | load at start / end | Basalt / Oxigraph QMpH, largest scale, 2 clients: "
             "cold, after 50, warm |", "|---|---|---|---|---|---|"]
    for run_id, d, meta in reversed(runs):
        scales = [s for s in meta.get("scales", []) if scale_results(d, s)]
        figures = "-"
        if scales:
            biggest = max(scales, key=lambda s: SCALE_ORDER.get(s, 9))
            t = throughput(scale_results(d, biggest)["runs"])
            cells = []
            for kind in KINDS:
                peers = t.get((2, kind), {})
                cells.append(ratio(peers.get("Basalt", (None,))[0], peers.get("Oxigraph", (None,))[0]))
            figures = "%s: %s" % (biggest.upper(), ", ".join(cells))
        lines.append("| [%s](%s/) | %s%s | %s | %s | %s / %s | %s |" % (
            run_id, run_id, meta.get("commit", "?"), " (uncommitted changes)" if meta.get("uncommitted_changes")
            else "", " ".join(s.upper() for s in meta.get("scales", [])), meta.get("java", "?"),
            " ".join(meta.get("load_start", [])), " ".join(meta.get("load_end", [])), figures))
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", required=True)
    ap.add_argument("--page", required=True)
    ap.add_argument("--readme")
    ap.add_argument("--charts", required=True)
    ap.add_argument("--tail", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "page-tail.md"))
    a = ap.parse_args(argv)
    runs = runs_in(a.results)
    if not runs:
        raise SystemExit("no runs in %s (a run is a directory with run.json; headline.sh makes them)" % a.results)
    tail = open(a.tail, encoding="utf-8").read() if os.path.exists(a.tail) else ""
    text, scales, cold_rows = page(runs, a.charts, a.page, tail)
    with open(a.page, "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(a.results, "README.md"), "w", encoding="utf-8") as f:
        f.write(index(runs))
    if a.readme:
        block = readme_block(scales, cold_rows)
        if block:
            with open(a.readme, encoding="utf-8") as f:
                readme = f.read()
            with open(a.readme, "w", encoding="utf-8") as f:
                f.write(replace_block(readme, block))


if __name__ == "__main__":
    main(sys.argv[1:])
