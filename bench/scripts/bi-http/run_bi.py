#!/usr/bin/env python3
"""BI queries over HTTP against three endpoints side by side: per query file (BI*-*.rq in the working
directory, written by BiQueries.java), each endpoint in turn: one warm-up run, then RUNS timed runs (one
when the warm-up took over 10 s). Prints per query file one JSON line: the query set, the load average,
then per endpoint its name, the warm-up's wall ms, the median wall ms of the timed runs, the result rows
(or the error) and the median server CPU ms of the timed runs (user + system of the process named in
PIDS, e.g. PIDS=basalt=123,lmdb=456,oxigraph=789, with its child processes; 0 when not named).
Environment: STORES (which endpoints), FILES (glob), TIMEOUT (seconds: the RDF4J protocol's query
timeout, the client's is 30 more), BASALT_URL, LMDB_URL, OXIGRAPH_URL (the endpoints; ports 18001-18003 of
127.0.0.1 unless set). Usage: python3 run_bi.py RUNS"""
import json, sys, time, urllib.parse, urllib.request, glob, os, statistics

ENDPOINTS = [
    ("basalt", os.environ.get("BASALT_URL", "http://127.0.0.1:18001/rdf4j-server/repositories/basalt"),
     {"timeout": os.environ.get("TIMEOUT", "60")}),
    ("lmdb", os.environ.get("LMDB_URL", "http://127.0.0.1:18002/rdf4j-server/repositories/lmdb"),
     {"timeout": os.environ.get("TIMEOUT", "60")}),
    ("oxigraph", os.environ.get("OXIGRAPH_URL", "http://127.0.0.1:18003/query"), {}),
]
ENDPOINTS = [e for e in ENDPOINTS if e[0] in os.environ.get("STORES", "basalt,lmdb,oxigraph").split(",")]
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
only = sys.argv[2].split(",") if len(sys.argv) > 2 else None

def procs(pid):
    out = [pid]
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            for c in open(f"/proc/{pid}/task/{t}/children").read().split():
                out += procs(int(c))
    except OSError:
        pass
    return out

PIDS = {k: int(v) for k, v in (e.split("=") for e in os.environ.get("PIDS", "").split(",") if e)}

def cpu_ms(name):
    if name not in PIDS:
        return 0.0
    total = 0
    for p in procs(PIDS[name]):
        try:
            f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            total += int(f[11]) + int(f[12])
        except OSError:
            pass
    return total * 1000.0 / os.sysconf("SC_CLK_TCK")

def run(url, extra, query):
    data = urllib.parse.urlencode(dict(query=query, **extra)).encode()
    req = urllib.request.Request(url, data=data, headers={
        "Accept": "application/sparql-results+json",
        "Content-Type": "application/x-www-form-urlencoded"})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=int(os.environ.get("TIMEOUT", "60")) + 30) as r:
            body = r.read()
        ms = (time.perf_counter() - t0) * 1000
        return ms, len(json.loads(body)["results"]["bindings"])
    except Exception as e:
        ms = (time.perf_counter() - t0) * 1000
        return ms, "error: " + str(e)[:80]

files = sorted(glob.glob(os.environ.get("FILES", "BI*-*.rq")), key=lambda f: (int(f[2:f.index("-")]), f))
for f in files:
    if only and f.split("-")[0] not in only:
        continue
    q = open(f).read()
    line = [f[:-3], os.getloadavg()[0]]
    for name, url, extra in ENDPOINTS:
        warm, rows = run(url, extra, q)
        times = []
        cpus = []
        if isinstance(rows, int):
            for _ in range(RUNS if warm < 10000 else 1):
                c0 = cpu_ms(name)
                ms, r2 = run(url, extra, q)
                if not isinstance(r2, int):
                    rows = r2
                    break
                times.append(ms)
                cpus.append(cpu_ms(name) - c0)
        med = statistics.median(times) if times else None
        cpu = statistics.median(cpus) if cpus else None
        line += [name, round(warm, 1), None if med is None else round(med, 1), rows, cpu]
    print(json.dumps(line), flush=True)
