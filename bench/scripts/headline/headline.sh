#!/usr/bin/env bash
# The current benchmark figures in one command: measures Basalt, `oxigraph serve` and LmdbStore+ospc side by side on
# BSBM over HTTP (cold, after 50 and after 1,000 mixes, per query), the loads and bytes on disk, and the server CPU
# of a launcher's first 10,000 queries against its warm figure; keeps the raw outputs as one entry of the results
# log (docs/results/RUN_ID/) and regenerates docs/benchmarks.md, its charts, the log's index and the README's
# headline table from the log (render.py).
#
# Usage: headline.sh            measure, then render
#        headline.sh --render   render only, from the results already in the log
# Environment:
#   SCALES    BSBM scales measured (default "1m 10m"; "100m" too takes hours: its three loads alone take about 2 h)
#   STORES    where prepare_stores.sh keeps each scale's stores, STORES/SCALE (default data/headline; a scale whose
#             stores exist is not loaded again, and its load figures are those of the run that made them)
#   RESULTS   the results log (default docs/results); RUN_ID (default UTC date and time, then the commit)
#   AFTER50_REPS (default 2), WARM_CLIENTS (default "1 2"), WARM_MIXES (warm-up mixes of the warm runs, default 1000;
#             three_servers.sh's own settings, SECONDS_RUN, COLD, CROSS_CHECK, ORDER, pass through the environment), COLDSTART (default 1: run the cold-start measurement,
#             0: skip it), COLDSTART_REPEAT (starts per Java release, default 2), JAVA25 (a Java 25 or later `java`
#             for the cold-start's second configuration; default the Temurin 25 JDK if installed, else none),
#             PORT (first of the ports used, default 18000)
# Needs: what prepare_stores.sh and three_servers.sh need (Java 17, python3 with venv, the PyPI registry for
# Oxigraph), the modules built (`mvn -q -B install -DskipTests`). Takes about 45 minutes for 1M and 10M on 2 cores.
# Everything it starts runs under nice -n 10; measure on an otherwise idle machine, as the page says it was.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"
: "${SCALES:=1m 10m}" "${STORES:=data/headline}" "${RESULTS:=docs/results}" "${AFTER50_REPS:=2}"
: "${WARM_CLIENTS:=1 2}" "${WARM_MIXES:=1000}" "${COLDSTART:=1}" "${COLDSTART_REPEAT:=2}" "${PORT:=18000}"
if [ -z "${JAVA25+x}" ]; then
    JAVA25=
    for j in /usr/lib/jvm/temurin-25-jdk-amd64/bin/java /usr/lib/jvm/temurin-25*/bin/java; do
        [ -x "$j" ] && { JAVA25=$j; break; }
    done
fi

render() {
    python3 "$here/render.py" --results "$RESULTS" --page docs/benchmarks.md --readme README.md --charts docs/charts
}
case ${1:-} in
--render) render; exit 0 ;;
'') ;;
*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac

commit=$(git rev-parse --short HEAD)
: "${RUN_ID:=$(date -u +%Y-%m-%dT%H%MZ)-$commit}"
run=$RESULTS/$RUN_ID
work=$STORES/runs/$RUN_ID
mkdir -p "$run" "$work"
renice -n 10 $$ > /dev/null
say() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$run/headline.txt" >&2; }
python3 - "$run/run.json" "$commit" "$SCALES" <<'EOF'
import json, os, subprocess, sys, time
java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                       text=True).stdout.strip() != ""
json.dump({"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": sys.argv[2],
           "uncommitted_changes": dirty, "scales": sys.argv[3].split(), "java": java, "cores": os.cpu_count(),
           "class_data_archive": os.path.exists("workbench-config/target/basalt-server.jsa"),
           "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
           "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30),
           "load_start": open("/proc/loadavg").read().split()[:3]}, open(sys.argv[1], "w"), indent=1)
EOF
say "== headline.sh: run $RUN_ID, scales '$SCALES', load $(cut -d' ' -f1-3 /proc/loadavg)"

for scale in $SCALES; do
    say "$scale: stores"
    bench/scripts/explore-http/prepare_stores.sh "$scale" "$STORES/$scale" > "$work/prepare-$scale.out" 2>&1
    mkdir -p "$run/$scale"
    # (*.log is ignored by git: the log's copies are .txt)
    cp "$STORES/$scale/MANIFEST" "$run/$scale/MANIFEST.txt"
    cp "$STORES/$scale/prepare.log" "$run/$scale/prepare.txt"
    for phase in after50 warm; do
        if [ $phase = after50 ]; then reps=$AFTER50_REPS clients="1 2" warmup=0; else reps=1 clients=$WARM_CLIENTS warmup=$WARM_MIXES; fi
        say "$scale: three servers, $phase (repetitions $reps, clients '$clients')"
        REPS=$reps CLIENTS=$clients WARMUP=$warmup PORT=$PORT WORK="$work/copies" \
            bench/scripts/explore-http/three_servers.sh "$STORES/$scale" "$work/$scale-$phase" \
            > "$work/$scale-$phase.out" 2>&1 || say "$scale $phase: three_servers.sh failed (see $work/$scale-$phase.out)"
        mkdir -p "$run/$scale/$phase"
        cp "$work/$scale-$phase"/run-*.txt "$work/$scale-$phase"/run-*.json "$work/$scale-$phase"/table.md \
            "$run/$scale/$phase/" 2>/dev/null || true
        cp "$work/$scale-$phase/runs.log" "$run/$scale/$phase/runs.txt" 2>/dev/null || true
    done
done

if [ "$COLDSTART" = 1 ]; then
    configs=(--config "j17=java -Xmx2g -Dbasalt.server.queryLog=0")
    [ -n "$JAVA25" ] && configs+=(--config "j25=$JAVA25 -Xmx2g -Dbasalt.server.queryLog=0")
    say "cold start: 1M, 30,000 queries per start, $COLDSTART_REPEAT starts per configuration"
    java -Xmx1g -jar bench/target/basalt-bench.jar coldstart --work-dir "$STORES/coldstart" --port "$((PORT + 5))" \
        --queries 30000 --repeat "$COLDSTART_REPEAT" --server-jar workbench-config/target/basalt-server.jar \
        "${configs[@]}" > "$run/coldstart.txt" 2>&1 || say "coldstart failed (see $run/coldstart.txt)"
fi

python3 - "$run/run.json" <<'EOF'
import json, sys, time
meta = json.load(open(sys.argv[1]))
meta["ended"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
meta["load_end"] = open("/proc/loadavg").read().split()[:3]
json.dump(meta, open(sys.argv[1], "w"), indent=1)
EOF
say "== measured; rendering from $RESULTS"
render
say "== done: $run, docs/benchmarks.md, docs/charts/, $RESULTS/README.md, README.md"
