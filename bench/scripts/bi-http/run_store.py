#!/usr/bin/env python3
"""The BI query files (BI*-*.rq in the working directory, written by BiQueries.java) against ONE endpoint, with a
per-query timeout that a slow store cannot exceed, so that stores run one after another can be put side by side
(table3.py). Prints one JSON object per request:

    {"store", "file", "pass", "load", "ms", "cpu_ms", "rows", "error", "timeout", "idle_wait_s"}

pass 0 is the warm pass (every file once, set by set: BI1-0, BI2-0, ..., BI8-0, BI1-1, ...); passes 1..RUNS are the
timed passes, each over the files in the same order. cpu_ms is the server's CPU (user + system from /proc of the process PID and
every process it started, e.g. the launcher's relaunched JVM) during the request. rows is the number of solutions of
a complete SPARQL JSON answer, else null and error says why; timeout is true when the request took TIMEOUT seconds or
more and did not answer (the server's own timeout: the RDF4J protocol's `timeout` parameter, `--timeout-s` of
`oxigraph serve`; the client gives up TIMEOUT + 30 s after sending).

A file that timed out MAX_TIMEOUTS times (default 1) is not sent again: its later passes are left out, so that a
store that cannot answer a query within the timeout spends the timeout once. After a request that timed out or
failed, the script waits until the server is idle (under 10% of one core over 2 s, at most IDLE_MAX seconds) before
the next request, and records the wait, so that a server still working on an abandoned query does not slow the next
one. BUDGET seconds (default: none) ends the run once exceeded: no request starts after it (set by set, so that a run cut
short has every query's first sets).

Environment: URL (the endpoint: http://HOST:PORT/rdf4j-server/repositories/ID for RDF4J Server, which gets the
`timeout` parameter, or Oxigraph's http://HOST:PORT/query), STORE (the name recorded), PID (the server's process),
TIMEOUT (seconds, default 60), RUNS (timed passes, default 3), MAX_TIMEOUTS, IDLE_MAX (default 120), BUDGET,
FILES (a glob, default BI*-*.rq). Usage: URL=... STORE=basalt PID=123 python3 run_store.py > basalt.jsonl
"""
import glob
import json
import os
import sys
import time
import urllib.parse
import urllib.request

URL = os.environ["URL"]
STORE = os.environ.get("STORE", "store")
PID = int(os.environ["PID"]) if os.environ.get("PID") else None
TIMEOUT = int(os.environ.get("TIMEOUT", "60"))
RUNS = int(os.environ.get("RUNS", "3"))
MAX_TIMEOUTS = int(os.environ.get("MAX_TIMEOUTS", "1"))
IDLE_MAX = float(os.environ.get("IDLE_MAX", "120"))
BUDGET = float(os.environ["BUDGET"]) if os.environ.get("BUDGET") else None
RDF4J = "/repositories/" in URL
TICK = os.sysconf("SC_CLK_TCK")


def processes(pid):
    """pid and its descendants."""
    out = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            for child in open(f"/proc/{pid}/task/{task}/children").read().split():
                out += processes(int(child))
    except OSError:
        pass
    return out


def cpu_ms():
    if PID is None:
        return 0.0
    ticks = 0
    for p in processes(PID):
        try:
            fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return ticks * 1000.0 / TICK


def wait_idle():
    """Seconds waited until the server used under 10% of a core over 2 s (at most IDLE_MAX)."""
    if PID is None:
        return 0.0
    start = time.monotonic()
    while time.monotonic() - start < IDLE_MAX:
        c0 = cpu_ms()
        time.sleep(2)
        if cpu_ms() - c0 < 200:
            break
    return round(time.monotonic() - start, 1)


def send(query):
    params = {"query": query}
    if RDF4J:
        params["timeout"] = str(TIMEOUT)
    req = urllib.request.Request(URL, data=urllib.parse.urlencode(params).encode(), headers={
        "Accept": "application/sparql-results+json",
        "Content-Type": "application/x-www-form-urlencoded"})
    c0 = cpu_ms()
    t0 = time.perf_counter()
    rows, error = None, None
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT + 30) as r:
            body = r.read()
        rows = len(json.loads(body)["results"]["bindings"])
    except Exception as e:  # an HTTP error, a cut-off or malformed body, the client's own timeout
        error = (type(e).__name__ + ": " + str(e))[:160]
    ms = (time.perf_counter() - t0) * 1000
    return ms, cpu_ms() - c0, rows, error


def key(f):
    name = os.path.basename(f)[:-3]
    q, s = name.split("-")
    return int(s), int(q[2:])


files = sorted(glob.glob(os.environ.get("FILES", "BI*-*.rq")), key=key)
if not files:
    sys.exit("no query files: run BiQueries.java PRODUCTS SETS in this directory first")
queries = {os.path.basename(f)[:-3]: open(f).read() for f in files}
timeouts = {name: 0 for name in queries}
start = time.monotonic()
for p in range(RUNS + 1):
    if BUDGET is not None and time.monotonic() - start > BUDGET:
        break
    for name, query in queries.items():
        if timeouts[name] >= MAX_TIMEOUTS:
            continue
        if BUDGET is not None and time.monotonic() - start > BUDGET:
            print(json.dumps({"store": STORE, "pass": p, "note": f"budget of {BUDGET:.0f} s spent at {name}"}),
                  flush=True)
            break
        load = os.getloadavg()[0]
        ms, cpu, rows, error = send(query)
        timed_out = rows is None and ms >= TIMEOUT * 1000
        if timed_out:
            timeouts[name] += 1
        idle = wait_idle() if rows is None else 0.0
        print(json.dumps({"store": STORE, "file": name, "pass": p, "load": round(load, 1), "ms": round(ms, 1),
                          "cpu_ms": round(cpu), "rows": rows, "error": error, "timeout": timed_out,
                          "idle_wait_s": idle}), flush=True)
