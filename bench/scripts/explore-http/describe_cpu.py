#!/usr/bin/env python3
"""BSBM explore Q9 (DESCRIBE of a review's reviewer, RDF/XML) alone against one or more Basalt launchers side by side:
the server process's CPU per query from /proc/PID/stat, and the client's wall time per query.

    describe_cpu.py REVIEWS FIRST LAST CHUNK PORT:PID [PORT:PID ...]

REVIEWS is a file of review IRIs, one per line in N-Triples form (<...>), e.g. made from a store's bsbm.nt with
    grep 'purl.org/stuff/rev#reviewer>' bsbm.nt | awk '{print $1}' | shuf -n 20000 --random-source=<(yes) > reviews.txt
Lines FIRST to LAST (0-based, LAST excluded) are sent to every server, CHUNK at a time, the servers taking turns and
their order reversed every other chunk, each over one keep-alive connection to
http://127.0.0.1:PORT/rdf4j-server/repositories/basalt (GET ?query=, Accept: application/rdf+xml); PID is the
process that serves PORT (the launcher's server JVM, the child of `java -jar basalt-server.jar`). Reviews not sent
to a server since its start measure its first, cache-missing queries; the same lines again, its warm ones. The CPU
is read in clock ticks (10 ms), so send at least a few thousand queries per figure. Standard library only.
"""
import http.client
import os
import sys
import time
import urllib.parse

QUERY = 'PREFIX rev: <http://purl.org/stuff/rev#>\nDESCRIBE ?x WHERE { %s rev:reviewer ?x }'
PATH = '/rdf4j-server/repositories/basalt?query='


def cpu_seconds(pid):
    fields = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def main(argv):
    if len(argv) < 6:
        sys.exit(__doc__)
    reviews = [line.strip() for line in open(argv[1])][int(argv[2]):int(argv[3])]
    chunk = int(argv[4])
    servers = [tuple(map(int, s.split(':'))) for s in argv[5:]]
    connections = {port: http.client.HTTPConnection('127.0.0.1', port) for port, _ in servers}
    totals = {port: [0.0, 0.0, 0, 0] for port, _ in servers}  # CPU s, wall s, queries, answer bytes
    for start in range(0, len(reviews), chunk):
        part = reviews[start:start + chunk]
        for port, pid in (servers if (start // chunk) % 2 == 0 else servers[::-1]):
            connection = connections[port]
            cpu = cpu_seconds(pid)
            began = time.perf_counter()
            for review in part:
                connection.request('GET', PATH + urllib.parse.quote(QUERY % review),
                                   headers={'Accept': 'application/rdf+xml'})
                response = connection.getresponse()
                body = response.read()
                if response.status != 200:
                    sys.exit('port %d: HTTP %d %s' % (port, response.status, body[:200]))
                totals[port][3] += len(body)
            totals[port][1] += time.perf_counter() - began
            totals[port][0] += cpu_seconds(pid) - cpu
            totals[port][2] += len(part)
    for port, _ in servers:
        cpu, wall, n, size = totals[port]
        print('port %d: %d queries, server CPU %.3f ms/query, wall %.3f ms/query, %d bytes/answer'
              % (port, n, 1000 * cpu / n, 1000 * wall / n, size // n))
    print('load', open('/proc/loadavg').read().strip())


if __name__ == '__main__':
    main(sys.argv)
