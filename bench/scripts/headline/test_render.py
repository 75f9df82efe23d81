#!/usr/bin/env python3
"""Tests of render.py on a results log written here in the formats headline.sh keeps (bsbm-http's output with
three_servers.sh's setting files, prepare_stores.sh's MANIFEST and log, basalt-bench coldstart's summary).

    python3 -m unittest bench/scripts/headline/test_render.py      (run by HeadlineRenderTest in `mvn verify`)
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render  # noqa: E402

OXI, LMDB, BASALT = "http://127.0.0.1:18000/query", "http://x/repositories/lmdb", "http://x/repositories/basalt"


def bsbm_http(phases):
    """bsbm-http's output: phases = [(label, clients, {url: (qmph, server ms, {query: mean ms})})]."""
    lines = []
    for label, clients, by_url in phases:
        for url, (qmph, server, queries) in by_url.items():
            lines.append("%s %s, %d client(s): %s QMpH (50 mixes, 12.3 s), client CPU 0.100 ms/query, server CPU "
                         "%.3f ms/query" % (url, label, clients, "{:,}".format(qmph), server))
            for q, ms in queries.items():
                unit = "7,000 bytes/answer" if q == "Q9" else "3.0 solutions/answer"
                lines.append("    %-4s avg %.3f ms  min 0.100  max 9.000  (100)  %s" % (q, ms, unit))
    return "\n".join(lines) + "\n"


def write_run(d, name, clients, rep, warmup, phases):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "run-%s.txt" % name), "w") as f:
        f.write(bsbm_http(phases))
    with open(os.path.join(d, "run-%s.json" % name), "w") as f:
        json.dump({"name": name, "clients": clients, "rep": rep, "warmup_mixes": warmup, "cold_mixes": 50, "seconds": 20,
               "order": "fixed", "graph_count": "bytes", "products": 28480, "seed": 808, "commit": "abc",
               "endpoints": {OXI: "Oxigraph", LMDB: "LmdbStore", BASALT: "Basalt"},
               "counts": {"Oxigraph": "10", "LmdbStore": "10", "Basalt": "10"},
                   "load": {"start": "1", "ready": "1", "end": "1"}, "bsbm_http_exit": 0}, f)


def servers(b, o, lm, q9_basalt=0.2):
    """Per-url figures: Basalt b QMpH, Oxigraph o, LmdbStore lm; Q9 0.3 ms on the peers."""
    return {OXI: (o, 1.2, {"Q1": 2.0, "Q9": 0.3}), LMDB: (lm, 3.0, {"Q1": 3.0, "Q9": 0.9}),
            BASALT: (b, 0.3, {"Q1": 0.5, "Q9": q9_basalt})}


def write_log(root, run_id, started, q9_cold_basalt, ratio_warm=4, cold_ratios=(1.2, 1.3)):
    run = os.path.join(root, run_id)
    os.makedirs(run)
    with open(os.path.join(run, "run.json"), "w") as f:
        json.dump({"started": started, "ended": started, "commit": run_id[-7:], "scales": ["10m"],
                   "java": "openjdk 17", "cores": 2, "load_start": ["1.0", "1.0", "1.0"],
                   "load_end": ["2.0", "2.0", "2.0"]}, f)
    s = os.path.join(run, "10m")
    os.makedirs(s)
    with open(os.path.join(s, "MANIFEST.txt"), "w") as f:
        f.write("scale 10m\nproducts 28480\nseed 808\nbsbm.nt 10000000 lines, 2 bytes, sha256 x\n"
                "basalt 290000000 bytes\nlmdb 2100000000 bytes\noxigraph-store 1800000000 bytes\n")
    with open(os.path.join(s, "prepare.txt"), "w") as f:
        f.write("generate: done in 37.4 s, 2585714315 bytes, load 1\nbasalt-load: done in 78.8 s, 289100736 bytes\n"
                "lmdb-load: done in 170.0 s, 2101425094 bytes\noxigraph-load: done in 135.7 s, 1 bytes\n"
                "oxigraph-optimize: done in 17.7 s, 1 bytes\n")
    for clients in (1, 2):
        for rep in (1, 2):
            write_run(os.path.join(s, "after50"), "c%d-r%d-w0" % (clients, rep), clients, rep, 0,
                      [("cold (first 50 mixes)", clients, servers(200000, 100000, 50000, q9_cold_basalt)),
                       ("warm run 1", clients, servers(300000, 100000, 80000))])
        write_run(os.path.join(s, "warm"), "c%d-r1-w1000" % clients, clients, 1, 1000,
                  [("cold (first 50 mixes)", clients, servers(200000, 100000, 50000)),
                   ("warm run 1", clients, servers(int(100000 * ratio_warm), 100000, 90000))])
    with open(os.path.join(run, "coldstart.txt"), "w") as f:
        f.write("| j17 #1 | 1.0 (1.0) | 0.500 | 0.100 | 0.010 | 300 | 0.100 | 0.400 | 1.25 |\n\n"
                "BSBM 2785 products, reduced mix, 1 client, 30,000 queries per start; load average 1 1 1\n\n"
                "| configuration | start s (CPU s) | first 10,000: server CPU ms/query | of it JIT compiler threads | "
                "GC threads | compiles | JIT elapsed ms/query | warm (last 10,000): CPU ms/query | cold/warm |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for i, r in enumerate(cold_ratios):
            f.write("| j17 #%d | 26.1 (35.4) | %.3f | 0.101 | 0.006 | 1,287 | 0.200 | 0.300 | %.2f |\n"
                    % (i + 1, 0.3 * r, r))
        f.write("\n| queries | j17 #1 CPU (JIT) |\n|---:|---:|\n| 1,000 | 0.680 (0.320) |\n")
    return run


class RenderTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.results = os.path.join(self.root, "results")
        self.page = os.path.join(self.root, "docs", "benchmarks.md")
        self.readme = os.path.join(self.root, "README.md")
        os.makedirs(os.path.dirname(self.page))
        with open(self.readme, "w") as f:
            f.write("intro\n%s\nold table\n%s\nafter\n" % (render.README_START, render.README_END))

    def tearDown(self):
        self.tmp.cleanup()

    def run_render(self):
        render.main(["--results", self.results, "--page", self.page, "--readme", self.readme, "--charts",
                     os.path.join(self.root, "docs", "charts"), "--tail", os.path.join(self.root, "no-tail.md")])
        with open(self.page) as f:
            return f.read()

    def test_ratios_and_targets_are_computed_from_the_runs(self):
        write_log(self.results, "2026-12-02T0300Z-aaaaaaa", "2026-12-02T03:00:00Z", q9_cold_basalt=0.2)
        page = self.run_render()
        # after 50: Basalt 300,000 against 100,000 and 80,000; warm 400,000 against 100,000 and 90,000
        self.assertIn("| 10M | 2 | after 50 | 300,000 (0.300) | 100,000 (1.200) | 80,000 (3.000) | 3.00 | 3.75 | 0.25 | 2 |",
                      page)
        self.assertIn("| 10M | 1 | warm | 400,000 (0.300) | 100,000 (1.200) | 90,000 (3.000) | 4.00 | 4.44 | 0.25 | 1 |",
                      page)
        # cold phases of the after-50 and the warm runs together: 3 runs per client count
        self.assertIn("| 10M | 1 | cold | 200,000 (0.300) | 100,000 (1.200) | 50,000 (3.000) | 2.00 | 4.00 | 0.25 | 3 |",
                      page)
        self.assertIn("**Throughput at 10M** (at least 2x Oxigraph's and 2.5x LmdbStore's QMpH after 50 mixes, 3x "
                      "Oxigraph's warm, 1 and 2 clients): holds", page)
        self.assertIn("**First 10,000 queries** (server CPU per query at most 1.5x the warm figure, Java 17): holds; "
                      "1.20x, 1.30x", page)
        self.assertIn("peer** (10M, every run's cold, after-50 and warm phase): holds.", page)
        self.assertIn("| 10M | 10,000,000 | 37.4 s | 78.8 s, 290,000,000 bytes = 29.0 bytes/triple |", page)
        self.assertIn("153.4 s, 1,800,000,000 bytes = 180.0 bytes/triple", page)
        self.assertTrue(os.path.exists(os.path.join(self.root, "docs", "charts", "headline-qmph.svg")))
        with open(self.readme) as f:
            readme = f.read()
        self.assertTrue(readme.startswith("intro\n%s\nBSBM 10M over HTTP" % render.README_START))
        self.assertIn("| QMpH after 50 warm-up mixes, 1 / 2 clients | 300,000 / 300,000 | 100,000 / 100,000 | "
                      "80,000 / 80,000 |", readme)
        self.assertNotIn("old table", readme)
        self.assertTrue(readme.endswith("%s\nafter\n" % render.README_END))
        with open(os.path.join(self.results, "README.md")) as f:
            self.assertIn("| [2026-12-02T0300Z-aaaaaaa](2026-12-02T0300Z-aaaaaaa/) | aaaaaaa | 10M |", f.read())

    def test_a_slower_cell_and_a_missed_target_are_reported_from_the_newest_run(self):
        write_log(self.results, "2026-12-01T0300Z-bbbbbbb", "2026-12-01T03:00:00Z", q9_cold_basalt=0.2)
        # the newer run: Basalt's cold Q9 above Oxigraph's 0.3 ms, warm only 2.5x Oxigraph, a start at 1.6x
        write_log(self.results, "2026-12-02T0300Z-ccccccc", "2026-12-02T03:00:00Z", q9_cold_basalt=0.36,
                  ratio_warm=2.5, cold_ratios=(1.2, 1.6))
        page = self.run_render()
        self.assertIn("run `2026-12-02T0300Z-ccccccc`", page)
        self.assertNotIn("run `2026-12-01T0300Z-bbbbbbb`", page)
        self.assertIn("1 client(s) warm 2.50x Oxigraph", page)
        self.assertIn("1.5x the warm figure, Java 17): **does not hold**; 1.20x, 1.60x", page)
        self.assertIn("**does not hold** in 4 of the runs' cells:", page)
        self.assertIn("  - 10M Q9, run c2-r2-w0, cold: Basalt 0.36 ms, Oxigraph 0.30 ms (1.20x)", page)
        # the cold mean takes the warm run's cold phase too: (0.36 + 0.36 + 0.20) / 3
        self.assertIn("| Q9 | 0.30 / 0.90 / 0.31 **B slower** | 0.30 / 0.90 / 0.20 | 0.30 / 0.90 / 0.20 |", page)
        with open(os.path.join(self.results, "README.md")) as f:
            index = f.read()
        self.assertLess(index.index("ccccccc"), index.index("bbbbbbb"))

    def test_a_log_without_runs_is_refused(self):
        os.makedirs(self.results)
        with self.assertRaises(SystemExit):
            self.run_render()


if __name__ == "__main__":
    unittest.main()
