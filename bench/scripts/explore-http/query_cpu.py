#!/usr/bin/env python3
"""Server CPU and wall time per BSBM Explore query, one request at a time, against several SPARQL endpoints.

Replays the queries of a launcher's query log (docs/FORMAT.md, section 8: the driver's queries as a Basalt
repository answered them, in mix order) against each endpoint in turn, as the BSBM driver sends them (GET, SPARQL/XML
for SELECT, RDF/XML for CONSTRUCT and DESCRIBE), over one kept-alive connection, and reads the server's CPU before and
after each request: the sum over the threads of the server process and of every process it started (the launcher's
relaunched JVM) of /proc/PID/task/TID/schedstat's time on CPU, so compiler and GC threads are counted with the query
that ran while they worked (the compiler threads' share is reported beside it). A query's kind comes from its place in the mix
the driver ran (--mix: reduced, the default, 1,2,2,3,2,2,4,2,2,7,7,7,7,8,9,9,8,9,9,10,10,11,12; full, the same with Q5 at the
10th and 13th places), checked against the log's DESCRIBE and CONSTRUCT queries.

    query_cpu.py --log basalt-query-log.txt --mixes 50 [--skip-mixes 0] [--mix reduced|full] \\
        --endpoint basalt=http://127.0.0.1:18410/rdf4j-server/repositories/basalt=PID ...

Prints one JSON line per endpoint (per kind: requests, mean wall ms, mean server CPU ms) and a table.
"""
import argparse
import http.client
import json
import os
import sys
import time
import urllib.parse

FULL_MIX = [1, 2, 2, 3, 2, 2, 4, 2, 2, 5, 7, 7, 5, 7, 7, 8, 9, 9, 8, 9, 9, 10, 10, 11, 12]
REDUCED_MIX = [k for k in FULL_MIX if k != 5]
MIXES = {"full": FULL_MIX, "reduced": REDUCED_MIX}
SELECT_ACCEPT = "application/sparql-results+xml"
GRAPH_ACCEPT = "application/rdf+xml"


def read_log(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if not lines or lines[0] != "basalt-query-log 1":
        sys.exit("not a query log of version 1: " + path)
    queries = []
    for line in lines[1:]:
        if not line:
            continue
        _accept, encoded = line.split("\t", 1)
        queries.append(encoded)
    return queries


def descendants(pid):
    found = [pid]
    i = 0
    while i < len(found):
        p = found[i]
        i += 1
        try:
            for tid in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, tid)) as f:
                    found.extend(int(c) for c in f.read().split())
        except FileNotFoundError:
            pass
    return found


COMPILERS = {}


def compiler(pid, tid):
    """Whether the thread is one of HotSpot's JIT compiler threads (C1/C2 CompilerThreadN)."""
    key = (pid, tid)
    if key not in COMPILERS:
        try:
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                COMPILERS[key] = "CompilerThre" in f.read()
        except (FileNotFoundError, ProcessLookupError):
            COMPILERS[key] = False
    return COMPILERS[key]


def cpu_ns(pids):
    """(all threads, JIT compiler threads) time on CPU, ns."""
    total = 0
    jit = 0
    for pid in pids:
        try:
            tids = os.listdir("/proc/%d/task" % pid)
        except FileNotFoundError:
            continue
        for tid in tids:
            try:
                with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                    ns = int(f.read().split()[0])
            except (FileNotFoundError, ProcessLookupError):
                continue
            total += ns
            if compiler(pid, tid):
                jit += ns
    return total, jit


def run(name, url, pid, queries, kinds):
    parsed = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=300)
    pids = descendants(pid)
    per = {}
    for encoded, kind in zip(queries, kinds):
        graph = kind in (9, 12)
        target = parsed.path + "?query=" + encoded
        before = cpu_ns(pids)
        t0 = time.perf_counter()
        conn.request("GET", target, headers={"Accept": GRAPH_ACCEPT if graph else SELECT_ACCEPT})
        response = conn.getresponse()
        body = response.read()
        wall = time.perf_counter() - t0
        after = cpu_ns(pids)
        if response.status != 200:
            sys.exit("%s answered %d to a Q%d: %s" % (name, response.status, kind, body[:300]))
        s = per.setdefault(kind, [0, 0.0, 0.0, 0.0, 0.0])
        cpu = (after[0] - before[0]) / 1e6
        if s[0] == 0:
            s[4] = cpu
        s[0] += 1
        s[1] += wall * 1e3
        s[2] += cpu
        s[3] += (after[1] - before[1]) / 1e6
    conn.close()
    # first_cpu_ms: the kind's first request (its shape's first query: parse, optimize, plan); rest_cpu_ms: the others
    return {"Q%d" % k: {"n": v[0], "wall_ms": v[1] / v[0], "cpu_ms": v[2] / v[0], "jit_ms": v[3] / v[0],
                        "first_cpu_ms": v[4], "rest_cpu_ms": (v[2] - v[4]) / max(1, v[0] - 1)}
            for k, v in sorted(per.items())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--mixes", type=int, required=True)
    ap.add_argument("--skip-mixes", type=int, default=0)
    ap.add_argument("--mix", choices=sorted(MIXES), default="reduced", help="the mix the driver ran")
    ap.add_argument("--endpoint", action="append", required=True, help="NAME=URL=PID")
    a = ap.parse_args()
    mix = MIXES[a.mix]
    queries = read_log(a.log)
    # the log keeps the last queries only: start at the first query that begins a mix
    n = len(mix)
    offset = next((o for o in range(n) if all(
        ("DESCRIBE" in urllib.parse.unquote_plus(q).upper()) == (mix[i % n] == 9)
        for i, q in enumerate(queries[o:o + 2 * n]))), None)
    if offset is None:
        sys.exit("the log's queries are not in %s-mix order" % a.mix)
    queries = queries[offset:]
    start = a.skip_mixes * n
    queries = queries[start:start + a.mixes * n]
    if len(queries) < a.mixes * n:
        sys.exit("the log holds %d queries after the skipped mixes, fewer than %d mixes" % (len(queries), a.mixes))
    kinds = [mix[i % n] for i in range(len(queries))]
    for encoded, kind in zip(queries, kinds):
        text = urllib.parse.unquote_plus(encoded).upper()
        if ("DESCRIBE" in text) != (kind == 9) or ("CONSTRUCT" in text) != (kind == 12):
            sys.exit("the log is not in %s-mix order at a Q%d: %s" % (a.mix, kind, text[:200]))
    results = {}
    for spec in a.endpoint:
        name, rest = spec.split("=", 1)
        url, pid = rest.rsplit("=", 1)
        results[name] = run(name, url, int(pid), queries, kinds)
        print(json.dumps({"endpoint": name, "loadavg": os.getloadavg()[0], "queries": results[name]}), flush=True)
    names = list(results)
    print("| query | " + " | ".join("%s CPU ms, of it JIT (wall ms) [first; rest]" % n for n in names) + " |")
    print("|---|" + "---:|" * len(names))
    for k in sorted({q for r in results.values() for q in r}, key=lambda q: int(q[1:])):
        cells = ["%.3f, %.3f (%.2f) [%.2f; %.3f]" % (results[n][k]["cpu_ms"], results[n][k]["jit_ms"],
                                                    results[n][k]["wall_ms"], results[n][k]["first_cpu_ms"],
                                                    results[n][k]["rest_cpu_ms"])
                 for n in names]
        print("| %s | %s |" % (k, " | ".join(cells)))


if __name__ == "__main__":
    main()
