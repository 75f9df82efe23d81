#!/usr/bin/env bash
# The BI query files against Basalt, LmdbStore and Oxigraph, one server at a time (each started, measured by
# run_store.py, and stopped before the next starts), for table3.py. Each server gets the same warm pass and timed
# passes; nothing else of this script runs while a server is measured.
#
# Usage: run_three.sh OUT_DIR PRODUCTS SETS STORE...   with STORE one of
#   basalt=DATA_DIR   a launcher on DATA_DIR (DATA_DIR/server/repositories/basalt)
#   lmdb=DATA_DIR     a launcher on DATA_DIR (DATA_DIR/server/repositories/lmdb: an LmdbStore's config.ttl and files)
#   oxigraph=DIR      oxigraph serve --location DIR
# Environment: SERVER_JAR (basalt-server.jar), BENCH_JAR (basalt-bench.jar), OXIGRAPH (the oxigraph binary),
# PORT (the first of three ports, default 18401), XMX (the launchers' heap, default 3g), JAVA_OPTS (more options of
# the launchers' JVM, e.g. -Dbasalt.server.queryLog=0 so that a data directory gets no query log), and run_store.py's
# TIMEOUT, RUNS, MAX_TIMEOUTS, IDLE_MAX, BUDGET. Every process runs under nice -n 10.
set -euo pipefail
out=$1 products=$2 sets=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
: "${SERVER_JAR:?}" "${BENCH_JAR:?}" "${OXIGRAPH:=oxigraph}" "${PORT:=18401}" "${XMX:=3g}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$out" && java -cp "$BENCH_JAR" "$here/BiQueries.java" "$products" "$sets")

server_pid=
stop() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        local pids="$server_pid $(pgrep -P "$server_pid" || true)"
        kill $pids 2>/dev/null || true
        for p in $pids; do
            for _ in $(seq 60); do kill -0 "$p" 2>/dev/null || break; sleep 1; done
        done
    fi
    server_pid=
}
trap stop EXIT

# waits until URL answers ASK {} and, for a launcher, until it announced itself (its own warm-up runs before the
# announce, on the same server), then until the server is idle (under 10% of a core over 5 s); at most 30 minutes
ready() {
    local url=$1 log=$2 announce=$3
    for _ in $(seq 1800); do
        if { [ -z "$announce" ] || grep -q "$announce" "$log"; } && curl -sf -o /dev/null \
                -H 'Accept: application/sparql-results+json' --data-urlencode 'query=ASK {}' "$url"; then
            break
        fi
        kill -0 "$server_pid" 2>/dev/null || { echo "server $server_pid ended" >&2; return 1; }
        sleep 1
    done
    for _ in $(seq 60); do
        local c0 c1
        c0=$(server_ticks); sleep 5; c1=$(server_ticks)
        [ $((c1 - c0)) -lt 50 ] && return 0
    done
}

# CPU ticks of the server and its child processes
server_ticks() {
    local t=0 p
    for p in $server_pid $(pgrep -P "$server_pid" || true); do
        [ -r /proc/$p/stat ] && t=$((t + $(awk '{print $14 + $15}' /proc/$p/stat)))
    done
    echo $t
}

i=0
for spec in "$@"; do
    store=${spec%%=*} dir=${spec#*=}
    port=$((PORT + i)); i=$((i + 1))
    log=$out/$store-server.log
    case $store in
    basalt|lmdb)
        # --repository makes the launcher ask the repository's /size, which LmdbStore answers by counting every
        # statement (minutes at 100M); the RDF4J server serves the repositories of DATA_DIR without it
        if [ "$store" = basalt ]; then repo="--repository basalt"; else repo=--no-repository; fi
        nice -n 10 java -Xmx"$XMX" ${JAVA_OPTS:-} -jar "$SERVER_JAR" --port "$port" --host 127.0.0.1 --data "$dir" \
            $repo > "$log" 2>&1 &
        server_pid=$!
        url=http://127.0.0.1:$port/rdf4j-server/repositories/$store announce="Basalt on RDF4J Server:" ;;
    oxigraph)
        nice -n 10 "$OXIGRAPH" serve --location "$dir" --bind 127.0.0.1:"$port" --timeout-s "${TIMEOUT:-60}" \
            > "$log" 2>&1 &
        server_pid=$!
        url=http://127.0.0.1:$port/query announce= ;;
    *) echo "unknown store $store" >&2; exit 2 ;;
    esac
    t0=$(date +%s)
    ready "$url" "$log" "$announce"
    echo "$store: ready (announced, idle) after $(( $(date +%s) - t0 )) s, $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    (cd "$out" && URL=$url STORE=$store PID=$server_pid nice -n 10 python3 "$here/run_store.py" > "$out/$store.jsonl")
    echo "$store: done $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    stop
done
python3 "$here/table3.py" "$out"/*.jsonl
