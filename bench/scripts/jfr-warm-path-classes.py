"""Basalt classes on sampled stacks of a warm server between the SPARQL fast path and the plan's operators.

Usage: python3 jfr-warm-path-classes.py RECORDING.jfr [LAST_FRACTION]
(a recording of `basalt-bench coldstart --jfr`, made with -XX:FlightRecorderOptions=stackdepth=512 in the
configuration so that stacks reach down to the servlet; docs/benchmarks-coldstart.md)
Reads `jfr print --events jdk.ExecutionSample --stack-depth 1024`, keeps samples of the last
LAST_FRACTION (default 0.3) of the recording's sample time span whose stack passes through
dev.basalt.sail.http.SparqlFastPath, and from that frame toward the leaf collects the outer classes of
dev.basalt frames until the first operator frame (dev.basalt.store.*, dev.basalt.optimizer.exec/plan/access).
Stacks of DESCRIBE and CONSTRUCT queries are left out; the others are told apart by whether a kept plan runs
without RDF4J's evaluation (runKept) or RDF4J's evaluateInternal is on the stack. Needs the JDK's `jfr` tool
(JFR_TOOL, default the Java 17 JDK's).
"""
import os
import re, subprocess, sys, collections
jfr = sys.argv[1]
frac = float(sys.argv[2]) if len(sys.argv) > 2 else 0.3
out = subprocess.run([os.environ.get('JFR_TOOL', '/usr/lib/jvm/java-17-openjdk-amd64/bin/jfr'), 'print', '--events', 'jdk.ExecutionSample',
                      '--stack-depth', '1024', jfr], capture_output=True, text=True).stdout
samples = []
for block in out.split('jdk.ExecutionSample {')[1:]:
    m = re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)', block)
    t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) + float('0.' + m.group(4))
    frames = re.findall(r'^\s+([\w$.<>]+)\(', block, re.M)
    samples.append((t, frames))
if not samples:
    sys.exit('no samples')
t0 = min(s[0] for s in samples); t1 = max(s[0] for s in samples)
cut = t1 - frac * (t1 - t0)
OPERATOR = re.compile(r'^dev\.basalt\.(store|optimizer\.(exec|plan|access))\.')
GRAPH = re.compile(r'SailGraphQuery|rio\.rdfxml|Describe|Construct|GraphQuery|RDFWriter|RDFHandler')
counts = collections.Counter(); through = 0; truncated = 0; kept = 0; graph = 0
paths = collections.Counter()
for t, frames in samples:
    if t < cut:
        continue
    kept += 1
    root_first = list(reversed(frames))
    idx = next((i for i, f in enumerate(root_first) if f.startswith('dev.basalt.sail.http.SparqlFastPath')), None)
    if idx is None:
        continue
    if any(GRAPH.search(f) for f in frames):
        graph += 1
        continue
    through += 1
    paths['kept plan run directly (runKept)' if any('runKept' in f for f in frames) else
          "RDF4J's evaluateInternal" if any('SailSourceConnection.evaluateInternal' in f for f in frames) else
          'neither on the stack (request, preparation, writing)'] += 1
    seen = set()
    for f in root_first[idx:]:
        if OPERATOR.match(f):
            break
        if f.startswith('dev.basalt.'):
            cls = f.rsplit('.', 1)[0].split('$')[0]
            seen.add(cls)
    for c in seen:
        counts[c] += 1
print(f'samples in the last {frac:.0%} of the recording: {kept}; through SparqlFastPath of a SELECT or ASK: {through}; of a DESCRIBE or CONSTRUCT (left out): {graph}')
for k, n in paths.items():
    print(f'  {k}: {n}')
for c, n in sorted(counts.items(), key=lambda x: -x[1]):
    print(f'{n:6d} {100.0 * n / max(through, 1):5.1f}%  {c}')
# workbench-config's filter sits below the fast path on the stack
wb = collections.Counter()
for t, frames in samples:
    if t >= cut:
        for f in frames:
            if f.startswith('dev.basalt.workbench'):
                wb[f.rsplit('.', 1)[0].split('$')[0]] += 1
for c, n in wb.items():
    print(f'(below the fast path) {n:6d} {c}')
