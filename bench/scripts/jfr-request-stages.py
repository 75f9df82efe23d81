"""Shares of a server's request-thread CPU samples by stage, from a JDK Flight Recorder recording.

Usage: jfr print --events jdk.ExecutionSample --stack-depth 200 rec.jfr > rec.txt
       python3 jfr-request-stages.py rec.txt

A sample of a request thread (Jetty's qtp*, or RDF4J Server's repositories/<id>) counts for the stage of
the frame nearest the leaf that belongs to one (docs/benchmarks-server.md, "Where a request's time goes").
"""
import sys, re, collections
# stage of a sample = stage of the frame nearest the leaf that belongs to one
RULES = [
 ("gzip (RDF4J Server's CompressingFilter)", ["com.github.ziplet", "java.util.zip.Deflater", "java.util.zip.GZIPOutputStream", "java.util.zip.DeflaterOutputStream"]),
 ("materialization", ["dev.basalt.store.lexicon"]),
 ("Basalt compile", ["dev.basalt.optimizer.plan"]),
 ("result writing", ["org.eclipse.rdf4j.query.resultio", "org.eclipse.rdf4j.rio", "org.eclipse.rdf4j.common.xml",
                     "org.eclipse.rdf4j.http.server.repository.TupleQueryResultView", "org.eclipse.rdf4j.http.server.repository.GraphQueryResultView",
                     "org.eclipse.rdf4j.http.server.repository.BooleanQueryResultView", "org.eclipse.rdf4j.http.server.repository.QueryResultView",
                     "dev.basalt.sail.http.RowWriter", "com.fasterxml.jackson"]),
 ("SPARQL parse", ["org.eclipse.rdf4j.query.parser", "dev.basalt.sail.repository.Query"]),
 ("RDF4J optimizers", ["org.eclipse.rdf4j.query.algebra.evaluation.optimizer", "org.eclipse.rdf4j.query.algebra.evaluation.impl.", "org.eclipse.rdf4j.query.algebra.helpers"]),
 ("RDF4J evaluation / iteration wrappers", ["org.eclipse.rdf4j.query.algebra", "org.eclipse.rdf4j.common.iteration", "org.eclipse.rdf4j.query.impl", "org.eclipse.rdf4j.query.QueryResults", "org.eclipse.rdf4j.query.explanation"]),
 ("execution", ["dev.basalt.store", "dev.basalt.optimizer", "dev.basalt.sail.query.NativeQueries",
                "dev.basalt.sail.query.SnapshotQuadSource", "dev.basalt.sail.read.ReadView", "dev.basalt.sail.query.TransactionQuadSource"]),
 ("RDF4J protocol layer", ["org.eclipse.rdf4j.http", "dev.basalt.sail.http.SparqlFastPath", "dev.basalt.sail.http.QueryRequest",
                "dev.basalt.sail.http.QueryString"]),
 ("connection / transaction set-up", ["org.eclipse.rdf4j.sail", "org.eclipse.rdf4j.repository", "dev.basalt.sail"]),
 ("HTTP + Spring MVC", ["org.eclipse.jetty", "javax.servlet", "org.springframework", "org.tuckey", "dev.basalt.workbench", "org.eclipse.rdf4j.common.webapp"]),
]
counts = collections.Counter(); total = 0
cur_thread = None; frames = []; in_stack = False
def finish():
    global total
    if cur_thread and (cur_thread.startswith("qtp") or cur_thread.startswith("repositories/")):
        total += 1
        for f in frames:
            for stage, prefixes in RULES:
                if any(f.startswith(p) for p in prefixes):
                    counts[stage] += 1; return
        counts["other (JDK, GC-free leaf frames)"] += 1
for line in open(sys.argv[1]):
    s = line.strip()
    if s.startswith("jdk.ExecutionSample"):
        cur_thread = None; frames = []; in_stack = False
    elif s.startswith("sampledThread"):
        m = re.search(r'"([^"]*)"', s); cur_thread = m.group(1) if m else ""
    elif s.startswith("stackTrace = ["):
        in_stack = True
    elif in_stack and s == "]":
        in_stack = False; finish()
    elif in_stack and s and s != "...":
        frames.append(s)
for stage, n in counts.most_common():
    print(f"| {stage} | {100.0*n/total:.1f} % |")
print(f"| samples | {total} |")
