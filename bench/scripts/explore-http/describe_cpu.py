#!/usr/bin/env python3
"""BSBM explore Q9 (DESCRIBE of a review's reviewer, RDF/XML) or, with --q11, Q11 (everything about an offer: a UNION
of its outgoing and incoming statements, SPARQL/XML) alone against one or more Basalt launchers side by side: the
server process's CPU per query from /proc/PID/stat, that of its Jetty request threads (qtp...) from their
/proc/PID/task/TID/schedstat (in ns, without the JIT's and collector's threads), the client's wall time per query,
and a digest of the answers.

    describe_cpu.py [--q11] IRIS FIRST LAST CHUNK PORT:PID [PORT:PID ...]

IRIS is a file of review IRIs (Q9) or offer IRIs (Q11), one per line in N-Triples form (<...>), e.g. made from a
store's bsbm.nt with
    grep 'purl.org/stuff/rev#reviewer>' bsbm.nt | awk '{print $1}' | shuf -n 20000 --random-source=<(yes) > reviews.txt
    grep -o '^<[^>]*/Offer[0-9]*>' bsbm.nt | sort -u | shuf -n 20000 --random-source=<(yes) > offers.txt
Lines FIRST to LAST (0-based, LAST excluded) are sent to every server, CHUNK at a time, the servers taking turns and
their order reversed every other chunk, each over one keep-alive connection to
http://127.0.0.1:PORT/rdf4j-server/repositories/basalt (GET ?query= encoded as the BSBM driver encodes it, as a
form value; Accept: application/rdf+xml for Q9, application/sparql-results+xml for Q11); PID is the process that
serves PORT (the launcher's server JVM, the child of `java -jar basalt-server.jar`). IRIs not sent to a server since
its start measure its first, cache-missing queries; the same lines again, its warm ones. The process's CPU is read
in clock ticks (10 ms), so send at least a few thousand queries per figure. Servers that answer byte for byte alike
print the same digest. Standard library only.
"""
import hashlib
import http.client
import os
import sys
import time
import urllib.parse

Q9 = 'PREFIX rev: <http://purl.org/stuff/rev#>\nDESCRIBE ?x WHERE { %s rev:reviewer ?x }'
Q11 = ('SELECT ?property ?hasValue ?isValueOf\nWHERE {\n  { %s ?property ?hasValue }\n  UNION\n'
       '  { ?isValueOf ?property %s }\n}\n')
PATH = '/rdf4j-server/repositories/basalt?query='


def cpu_seconds(pid):
    """The process's CPU seconds (clock ticks) and its Jetty request threads' (qtp..., from schedstat, in ns)."""
    fields = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    requests = 0
    for tid in os.listdir('/proc/%d/task' % pid):
        try:
            if open('/proc/%d/task/%s/comm' % (pid, tid)).read().startswith('qtp'):
                requests += int(open('/proc/%d/task/%s/schedstat' % (pid, tid)).read().split()[0])
        except FileNotFoundError:
            pass
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK'), requests / 1e9


def main(argv):
    q11 = len(argv) > 1 and argv[1] == '--q11'
    if q11:
        argv = argv[:1] + argv[2:]
    if len(argv) < 6:
        sys.exit(__doc__)
    iris = [line.strip() for line in open(argv[1])][int(argv[2]):int(argv[3])]
    chunk = int(argv[4])
    servers = [tuple(map(int, s.split(':'))) for s in argv[5:]]
    accept = 'application/sparql-results+xml' if q11 else 'application/rdf+xml'
    connections = {port: http.client.HTTPConnection('127.0.0.1', port) for port, _ in servers}
    totals = {port: [0.0, 0.0, 0, 0, 0.0] for port, _ in servers}  # CPU s, wall s, queries, answer bytes, request CPU s
    digests = {port: hashlib.sha256() for port, _ in servers}
    for start in range(0, len(iris), chunk):
        part = iris[start:start + chunk]
        for port, pid in (servers if (start // chunk) % 2 == 0 else servers[::-1]):
            connection = connections[port]
            cpu = cpu_seconds(pid)
            began = time.perf_counter()
            for iri in part:
                query = Q11 % (iri, iri) if q11 else Q9 % iri
                # as java.net.URLEncoder encodes a form value (the BSBM driver's way): '+' for space, '*' kept
                connection.request('GET', PATH + urllib.parse.quote_plus(query, safe='*'), headers={'Accept': accept})
                response = connection.getresponse()
                body = response.read()
                if response.status != 200:
                    sys.exit('port %d: HTTP %d %s' % (port, response.status, body[:200]))
                totals[port][3] += len(body)
                digests[port].update(body)
            totals[port][1] += time.perf_counter() - began
            after = cpu_seconds(pid)
            totals[port][0] += after[0] - cpu[0]
            totals[port][4] += after[1] - cpu[1]
            totals[port][2] += len(part)
    for port, _ in servers:
        cpu, wall, n, size, requests = totals[port]
        print('%s port %d: %d queries, server CPU %.4f ms/query (request threads %.4f), wall %.3f ms/query, '
              '%d bytes/answer, digest %s' % ('Q11' if q11 else 'Q9', port, n, 1000 * cpu / n, 1000 * requests / n,
                                              1000 * wall / n, size // n, digests[port].hexdigest()[:12]))
    print('load', open('/proc/loadavg').read().strip())


if __name__ == '__main__':
    main(sys.argv)
