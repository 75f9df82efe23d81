#!/usr/bin/env bash
# The BSBM Explore mix against Oxigraph, LmdbStore+ospc and Basalt, each started fresh for every run, per query,
# cold and after: issue 34's acceptance 4 ("no query of the explore mix slower on Basalt than on Oxigraph or
# LmdbStore+ospc, cold or warm"). Stores come from prepare_stores.sh; the table from explore_table.py.
#
# Usage: three_servers.sh STORES_DIR OUT_DIR
#   STORES_DIR  prepare_stores.sh's OUT_DIR (its MANIFEST gives the products and seed)
#   OUT_DIR     gets run-cC-rR-wW.txt (bsbm-http's output), run-cC-rR-wW.json (the run's setting: endpoints, pids,
#               counts, load averages), oxigraph-*.log / launcher-*.log, runs.log, and table.md
# Environment:
#   CLIENTS  client counts, one run per count and repetition (default "1 2")
#   REPS     repetitions (default 2)
#   WARMUP   "0" (default): the measured run follows right after the 50 cold mixes ("after 50");
#            "1000": 950 more warm-up mixes first ("warm", after 1,000 mixes); several values ("0 1000") run each
#   SECONDS_RUN  length of the measured run (default 20), COLD (cold mixes, default 50), CROSS_CHECK (parameter
#            sets per query whose result counts bsbm-http compares between the three after the measurements,
#            default 10; 0: none)
#   GRAPH_COUNT  how bsbm-http counts a CONSTRUCT/DESCRIBE answer in the timed phases: "bytes" (default: the body
#            read to its end unparsed, as the BSBM test driver does) or "statements" (parsed); the cross-check
#            always compares statements
#   ORDER    "fixed" (default): the endpoints in the order Oxigraph, LmdbStore, Basalt in every run; "alternate":
#            Basalt, LmdbStore, Oxigraph in even repetitions (on a machine whose load changes during a run, so that
#            no server is always measured last)
#   PORT     first of two ports (default 18000: Oxigraph; PORT+1: the launcher), XMX (the launcher's heap, 2g),
#   JAVA_OPTS (more launcher JVM options; default -Dbasalt.server.queryLog=0: no query log, each start a store's
#            first), SERVER_JAR, BENCH_JAR (default: this checkout's workbench-config/target/basalt-server.jar and
#            bench/target/basalt-bench.jar), WORK (where the store copies go, default OUT_DIR/work; removed after
#            each run)
#
# Each run, one at a time:
#   1. copies STORES_DIR/launcher and STORES_DIR/oxigraph into WORK (the templates stay as loaded);
#   2. starts `oxigraph serve --location COPY --bind 127.0.0.1:PORT` (STORES_DIR/venv/bin/oxigraph) and
#      `java -XmxXMX -jar basalt-server.jar --port PORT+1 --host 127.0.0.1 --data COPY --repository basalt`
#      (one launcher serving the repositories basalt and lmdb; it opens both before announcing itself);
#   3. waits for the announce and an answer from each, then until both processes are idle (under 10 % of a core
#      over 5 s, at most 5 minutes);
#   4. sends each of the three one SELECT (COUNT(*) AS ?n) {?s ?p ?o}, records the counts;
#   5. runs `java -Xmx1g -jar basalt-bench.jar bsbm-http --products N --seed S --mix reduced --seconds SECONDS_RUN
#      --clients C --endpoint OXIGRAPH --server-pid OXI_PID --endpoint LMDB --server-pid LAUNCHER_PID
#      --endpoint BASALT --server-pid LAUNCHER_PID --cold-mixes COLD --warmup-mixes W --runs 1 --cross-check CROSS_CHECK
#      --graph-count GRAPH_COUNT --expect-count-difference Q9`
#      (the endpoints one after the other, each: the first COLD mixes, then up to W mixes in all, then the timed run);
#   6. stops both servers and removes the copies.
# Everything runs under nice -n 10 (the script renices itself). Afterwards explore_table.py OUT_DIR/run-*.txt writes
# OUT_DIR/table.md.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
stores=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
: "${SERVER_JAR:=$root/workbench-config/target/basalt-server.jar}" "${BENCH_JAR:=$root/bench/target/basalt-bench.jar}"
: "${CLIENTS:=1 2}" "${REPS:=2}" "${WARMUP:=0}" "${SECONDS_RUN:=20}" "${COLD:=50}" "${CROSS_CHECK:=10}"
: "${GRAPH_COUNT:=bytes}"
: "${ORDER:=fixed}" "${PORT:=18000}" "${XMX:=2g}" "${JAVA_OPTS=-Dbasalt.server.queryLog=0}" "${WORK:=$out/work}"
oxigraph=$stores/venv/bin/oxigraph
products=$(awk '$1 == "products" {print $2}' "$stores/MANIFEST")
seed=$(awk '$1 == "seed" {print $2}' "$stores/MANIFEST")
[ -n "$products" ] && [ -n "$seed" ] || { echo "no products/seed in $stores/MANIFEST" >&2; exit 2; }
renice -n 10 $$ > /dev/null
oxi_port=$PORT launcher_port=$((PORT + 1))
oxi_url=http://127.0.0.1:$oxi_port/query
lmdb_url=http://127.0.0.1:$launcher_port/rdf4j-server/repositories/lmdb
basalt_url=http://127.0.0.1:$launcher_port/rdf4j-server/repositories/basalt
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')
runs_log=$out/runs.log

say() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$runs_log" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

oxi_pid= launcher_pid=
# stops a server and every process it started, waiting (at most a minute each) until they are gone
stop_one() {
    local pid=$1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    local pids="$pid $(pgrep -P "$pid" || true)"
    kill $pids 2>/dev/null || true
    for p in $pids; do
        for _ in $(seq 60); do kill -0 "$p" 2>/dev/null || break; sleep 1; done
        kill -0 "$p" 2>/dev/null && kill -9 "$p" 2>/dev/null || true
    done
}
stop() {
    stop_one "$oxi_pid"
    stop_one "$launcher_pid"
    oxi_pid= launcher_pid=
}
trap stop EXIT

# CPU clock ticks (user + system) of the given processes and their children
ticks() {
    local t=0 p
    for p in "$@" $(for q in "$@"; do pgrep -P "$q" || true; done); do
        [ -r /proc/$p/stat ] && t=$((t + $(awk '{print $14 + $15}' /proc/$p/stat)))
    done
    echo $t
}

ask() { # URL: 0 when it answers ASK {}
    curl -sf -o /dev/null -H 'Accept: application/sparql-results+xml' --data-urlencode 'query=ASK {}' "$1"
}

count() { # URL: the number of statements, by one SELECT COUNT, as the SPARQL protocol's GET
    curl -sf -G -H 'Accept: application/sparql-results+json' \
        --data-urlencode 'query=SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }' "$1" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["results"]["bindings"][0]["n"]["value"])'
}

start() { # NAME: copies the stores, starts both servers, waits until they answer and are idle
    local name=$1
    rm -rf "$WORK"
    mkdir -p "$WORK"
    cp -r --sparse=always "$stores/launcher" "$WORK/launcher"
    cp -r "$stores/oxigraph" "$WORK/oxigraph"
    chmod -R u+w "$WORK"
    "$oxigraph" serve --location "$WORK/oxigraph" --bind 127.0.0.1:"$oxi_port" > "$out/oxigraph-$name.log" 2>&1 &
    oxi_pid=$!
    java -Xmx"$XMX" $JAVA_OPTS -jar "$SERVER_JAR" --port "$launcher_port" --host 127.0.0.1 --data "$WORK/launcher" \
        --repository basalt > "$out/launcher-$name.log" 2>&1 &
    launcher_pid=$!
    local t0=$SECONDS
    for _ in $(seq 1800); do
        kill -0 "$oxi_pid" 2>/dev/null || { say "oxigraph ended, see $out/oxigraph-$name.log"; return 1; }
        kill -0 "$launcher_pid" 2>/dev/null || { say "launcher ended, see $out/launcher-$name.log"; return 1; }
        if grep -q "Basalt on RDF4J Server:" "$out/launcher-$name.log" && ask "$oxi_url" && ask "$basalt_url"; then
            break
        fi
        sleep 1
    done
    local announced=$((SECONDS - t0))
    for _ in $(seq 60); do
        local c0 c1
        c0=$(ticks "$oxi_pid" "$launcher_pid"); sleep 5; c1=$(ticks "$oxi_pid" "$launcher_pid")
        [ $((c1 - c0)) -lt 50 ] && break
    done
    say "$name: servers up (announced after $announced s, idle after $((SECONDS - t0)) s), oxigraph $oxi_pid," \
        "launcher $launcher_pid; $(grep -o 'opened repositories.*' "$out/launcher-$name.log" | head -1)"
}

say "== three_servers.sh $stores -> $out: $products products, seed $seed, commit $commit, clients '$CLIENTS'," \
    "reps $REPS, warm-up '$WARMUP', graph answers counted in $GRAPH_COUNT, load $(load)"
for warm in $WARMUP; do
    for rep in $(seq "$REPS"); do
        for c in $CLIENTS; do
            name=c$c-r$rep-w$warm
            load_start=$(load)
            start "$name"
            load_ready=$(load)
            counts=()
            for url in "$oxi_url" "$lmdb_url" "$basalt_url"; do
                counts+=("$(count "$url" || echo failed)")
            done
            say "$name: COUNT oxigraph ${counts[0]}, lmdb ${counts[1]}, basalt ${counts[2]}, load $load_ready"
            [ "${counts[0]}" = "${counts[1]}" ] && [ "${counts[1]}" = "${counts[2]}" ] || say "$name: COUNT MISMATCH"
            set +e
            # Q9 is a DESCRIBE: Basalt and LmdbStore answer with RDF4J's symmetric description (the resource as
            # subject and as object), Oxigraph with the resource as subject only; both are SPARQL DESCRIBE answers,
            # so Q9's counts differ by design and bsbm-http is told to expect it (any other difference exits 2)
            order=(--endpoint "$oxi_url" --server-pid "$oxi_pid" --endpoint "$lmdb_url" --server-pid "$launcher_pid"
                --endpoint "$basalt_url" --server-pid "$launcher_pid")
            if [ "$ORDER" = alternate ] && [ $((rep % 2)) -eq 0 ]; then
                order=(--endpoint "$basalt_url" --server-pid "$launcher_pid" --endpoint "$lmdb_url"
                    --server-pid "$launcher_pid" --endpoint "$oxi_url" --server-pid "$oxi_pid")
            fi
            java -Xmx1g -jar "$BENCH_JAR" bsbm-http --products "$products" --seed "$seed" --mix reduced \
                --seconds "$SECONDS_RUN" --clients "$c" "${order[@]}" --cold-mixes "$COLD" --warmup-mixes "$warm" \
                --runs 1 --cross-check "$CROSS_CHECK" --graph-count "$GRAPH_COUNT" \
                --expect-count-difference Q9 > "$out/run-$name.txt" 2>&1
            status=$?
            set -e
            load_end=$(load)
            case $status in
                0) meaning="no unexpected result-count difference" ;;
                2) meaning="result counts differ in a query other than Q9" ;;
                *) meaning="failed, see $out/run-$name.txt" ;;
            esac
            say "$name: bsbm-http exit $status ($meaning), load at start $load_start, ready" \
                "$load_ready, end $load_end"
            python3 - "$out/run-$name.json" <<EOF
import json, sys
json.dump({"name": "$name", "clients": $c, "rep": $rep, "warmup_mixes": $warm, "cold_mixes": $COLD,
           "seconds": $SECONDS_RUN, "order": "$ORDER", "graph_count": "$GRAPH_COUNT", "products": $products, "seed": $seed, "commit": "$commit",
           "endpoints": {"$oxi_url": "Oxigraph", "$lmdb_url": "LmdbStore", "$basalt_url": "Basalt"},
           "counts": {"Oxigraph": "${counts[0]}", "LmdbStore": "${counts[1]}", "Basalt": "${counts[2]}"},
           "load": {"start": "$load_start", "ready": "$load_ready", "end": "$load_end"},
           "bsbm_http_exit": $status}, open(sys.argv[1], "w"), indent=1)
EOF
            stop
            rm -rf "$WORK"
        done
    done
done
python3 "$here/explore_table.py" "$out"/run-*.txt > "$out/table.md"
say "== done, table in $out/table.md, load $(load)"
