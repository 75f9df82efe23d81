#!/usr/bin/env bash
# Makes the stores that three_servers.sh serves: one BSBM dataset loaded into Basalt, LmdbStore (spoc,posc,ospc) and
# Oxigraph, laid out as the servers open them. The stores are templates: three_servers.sh copies them before each
# start, so they stay as loaded (a first start of each store, every time).
#
# Usage: prepare_stores.sh SCALE OUT_DIR
#   SCALE   1m (2,785 products), 10m (28,480), 100m (284,826) or a number of products; seed 808 (SEED=...)
#   OUT_DIR gets (nothing in it is overwritten: a step whose result exists is skipped, so a failed run can be resumed
#           after deleting the failed step's output):
#     bsbm.nt                                   generate-bsbm's N-Triples
#     launcher/server/repositories/basalt/      basalt.jnl (`basalt load`) + config.ttl (the launcher's default one)
#     launcher/server/repositories/lmdb/        LmdbStore files (bench/scripts/bi-http/LoadLmdb.java) + config.ttl
#     oxigraph/                                 `oxigraph load` (+ `oxigraph optimize`) of bsbm.nt
#     venv/                                     python venv with the PyPI package oxigraph==$OXIGRAPH_VERSION
#                                               (it ships the `oxigraph` server binary: venv/bin/oxigraph)
#     prepare.log                               each step's command, wall time and bytes on disk
#     MANIFEST                                  scale, products, seed, commit, tool versions, sizes
# Environment: BENCH_JAR (default bench/target/basalt-bench.jar), BASALT_JAR (sail/target/basalt.jar), SERVER_JAR
#   (workbench-config/target/basalt-server.jar: its RepositoryBootstrap gives the Basalt config.ttl), all built
#   from this checkout; SEED (808); OXIGRAPH_VERSION (0.5.13); XMX (the loaders' heap, 3g). Every step runs under
#   nice -n 10. The launcher needs no other file: `--data OUT_DIR/launcher` serves both repositories.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
scale=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
: "${BENCH_JAR:=$root/bench/target/basalt-bench.jar}" "${BASALT_JAR:=$root/sail/target/basalt.jar}"
: "${SERVER_JAR:=$root/workbench-config/target/basalt-server.jar}"
: "${SEED:=808}" "${OXIGRAPH_VERSION:=0.5.13}" "${XMX:=3g}"
case $scale in
1m) products=2785 ;;
10m) products=28480 ;;
100m) products=284826 ;;
*[!0-9]*|'') echo "SCALE must be 1m, 10m, 100m or a number of products" >&2; exit 2 ;;
*) products=$scale ;;
esac
renice -n 10 $$ > /dev/null   # every step below inherits it
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/prepare.log
nt=$out/bsbm.nt
repos=$out/launcher/server/repositories

say() { echo "$*" | tee -a "$log"; }
# bytes on disk of a file or directory; of its directory for a marker file (.loaded, .optimized)
bytes() { local p=$1; case ${p##*/} in .*) p=${p%/*} ;; esac; du -sb "$p" | cut -f1; }
# step NAME RESULT CMD...: runs CMD unless RESULT exists, logs its wall time, the load average and RESULT's bytes
step() {
    local name=$1 result=$2
    shift 2
    if [ -e "$result" ]; then
        say "$name: $result exists, skipped ($(bytes "$result") bytes)"
        return
    fi
    say "$name: $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg): $*"
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >> "$log" 2>&1 || { say "$name: FAILED (see $log)"; exit 1; }
    t1=$(date +%s.%N)
    say "$name: done in $(python3 -c "print(f'{$t1 - $t0:.1f}')") s, $(bytes "$result") bytes, load $(cut -d' ' -f1-3 /proc/loadavg)"
}

say "== prepare_stores.sh $scale $out: $products products, seed $SEED, $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"

# 1. the dataset (written to a temporary name so that an interrupted run leaves no partial bsbm.nt)
gen() { java -Xmx"$XMX" -jar "$BENCH_JAR" generate-bsbm --products "$products" --seed "$SEED" --out "$nt.part" && mv "$nt.part" "$nt"; }
step generate "$nt" gen
say "generate: $(wc -l < "$nt") lines"

# 2. Basalt: `basalt load` into the launcher's repository directory, then the launcher's default config.ttl
# (RepositoryBootstrap.defaultConfig: the configuration `--repository basalt` would create)
mkdir -p "$repos/basalt" "$repos/lmdb"
step basalt-load "$repos/basalt/basalt.jnl" java -Xmx"$XMX" -jar "$BASALT_JAR" load --store "$repos/basalt" "$nt"
# the launcher's own text, from its jar, by a one-class Java source program run against it
cat > "$out/PrintBasaltConfig.java" <<'EOF'
public class PrintBasaltConfig {
    public static void main(String[] a) {
        System.out.print(dev.basalt.workbench.RepositoryBootstrap.defaultConfig(a[0], a[1]));
    }
}
EOF
java -cp "$SERVER_JAR" "$out/PrintBasaltConfig.java" basalt "Basalt store" > "$repos/basalt/config.ttl"
rm "$out/PrintBasaltConfig.java"
java -Xmx1g -jar "$BASALT_JAR" stats --store "$repos/basalt" >> "$log" 2>&1 || say "basalt stats failed"

# 3. LmdbStore (RDF4J 5.0.3, indexes spoc,posc,ospc): LoadLmdb.java writes the store's files into the repository
# directory (RDF4J Server gives a repository's sail its repository directory as data directory); config.ttl in the
# configuration vocabulary LmdbStoreConfig reads (its own namespace for the store's settings), no map sizes: LMDB
# opens a map no smaller than the data it holds
lmdb_load() {
    java -Xmx"$XMX" -cp "$BENCH_JAR" "$root/bench/scripts/bi-http/LoadLmdb.java" "$repos/lmdb/.load" "$nt" \
        && mv "$repos/lmdb/.load"/* "$repos/lmdb/" && rmdir "$repos/lmdb/.load" && touch "$repos/lmdb/.loaded"
}
step lmdb-load "$repos/lmdb/.loaded" lmdb_load
cat > "$repos/lmdb/config.ttl" <<'EOF'
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
@prefix rep: <http://www.openrdf.org/config/repository#>.
@prefix sr: <http://www.openrdf.org/config/repository/sail#>.
@prefix sail: <http://www.openrdf.org/config/sail#>.
@prefix lmdb: <http://rdf4j.org/config/sail/lmdb#>.

[] a rep:Repository ;
    rep:repositoryID "lmdb" ;
    rdfs:label "LmdbStore (spoc,posc,ospc)" ;
    rep:repositoryImpl [
        rep:repositoryType "openrdf:SailRepository" ;
        sr:sailImpl [
            sail:sailType "rdf4j:LmdbStore" ;
            lmdb:tripleIndexes "spoc,posc,ospc"
        ]
    ].
EOF
say "lmdb: $(bytes "$repos/lmdb") bytes on disk (sparse maps: du)"

# 4. Oxigraph: the PyPI package's server binary, `oxigraph load`, then `oxigraph optimize` where the binary has it
venv() { python3 -m venv "$out/venv.part" && "$out/venv.part/bin/pip" install -q "oxigraph==$OXIGRAPH_VERSION" \
    && mv "$out/venv.part" "$out/venv"; }
[ -d "$out/venv.part" ] && rm -rf "$out/venv.part"
step oxigraph-install "$out/venv" venv
# a venv's scripts name their interpreter by absolute path: the moved venv's pip no longer works, its binary does
oxigraph=$out/venv/bin/oxigraph
say "oxigraph: $("$oxigraph" --version 2>&1)"
oxi_load() {
    "$oxigraph" load --location "$out/oxigraph.part" --file "$nt" && mv "$out/oxigraph.part" "$out/oxigraph"
}
[ -d "$out/oxigraph.part" ] && rm -rf "$out/oxigraph.part"
step oxigraph-load "$out/oxigraph" oxi_load
if "$oxigraph" optimize --help > /dev/null 2>&1; then
    oxi_optimize() { "$oxigraph" optimize --location "$out/oxigraph" && touch "$out/oxigraph/.optimized"; }
    step oxigraph-optimize "$out/oxigraph/.optimized" oxi_optimize
else
    say "oxigraph-optimize: this oxigraph has no optimize command"
fi

{
    echo "scale $scale"
    echo "products $products"
    echo "seed $SEED"
    echo "commit $(git -C "$root" rev-parse HEAD 2>/dev/null || echo '?')"
    echo "java $(java -version 2>&1 | head -1)"
    echo "oxigraph $("$oxigraph" --version 2>&1)"
    echo "bsbm.nt $(wc -l < "$nt") lines, $(bytes "$nt") bytes, sha256 $(sha256sum "$nt" | cut -d' ' -f1)"
    echo "basalt $(bytes "$repos/basalt/basalt.jnl") bytes"
    echo "lmdb $(bytes "$repos/lmdb") bytes"
    echo "oxigraph-store $(bytes "$out/oxigraph") bytes"
} > "$out/MANIFEST"
say "== done: $(tr '\n' ';' < "$out/MANIFEST")"
