#!/bin/bash
# Write cost side by side (docs/benchmarks-replication.md): one server and three replicas on this
# machine, small transactions through the leader (two rounds), then a BSBM N-Triples file uploaded as
# one request to each. Ports PORT to PORT+15 (PORT=18080 unless set). Run from the project root after
# `mvn -pl replication -am package -DskipTests`; HEAP=each JVM's heap (1536m); BSBM=path of the N-Triples file (basalt-bench
# generate-bsbm --products 2785 --out FILE), DATA=a scratch directory (deleted and refilled);
# GC=the collector option of every JVM (-XX:+UseParallelGC), NODE_OPTS=extra node options (e.g.
# "--election-timeout-ms 3000"), ROUNDS=0 for the uploads alone, SECS=seconds of each round after the
# first (20), HOME_DIR=a copy of replication/target to run instead.
set -u
J=${HOME_DIR:-replication/target}/basalt-replica.jar
H=${HOME_DIR:-replication/target}
BSBM=${BSBM:?set BSBM to a BSBM N-Triples file}
R=${DATA:?set DATA to a scratch directory}/run
rm -rf $R; mkdir -p $R
JO="-Xmx${HEAP:-1536m} ${GC:--XX:+UseParallelGC}"
# a node runs in the JVM it is started in: give it the JIT options one server's launcher adds to its child
NO="$JO -XX:MaxInlineLevel=9 -XX:InlineSmallCode=1000 -XX:FreqInlineSize=150"
ROUNDS=${ROUNDS:-2}; UPLOAD=${UPLOAD:-yes}; P=${PORT:-18080}
nice java $JO -cp $J dev.basalt.workbench.BasaltServer --home $H --port $((P+10)) --data $R/sa > $R/sa.log 2>&1 &
for i in 0 1 2; do
  nice java $NO -jar $J node --id n$i --peers n0=127.0.0.1:$((P+6)),n1=127.0.0.1:$((P+7)),n2=127.0.0.1:$((P+8)) \
    --host 127.0.0.1 --port $((P+i)) --admin-port $((P+13+i)) --commit-timeout-ms 900000 ${NODE_OPTS:-} --data $R/n$i > $R/n$i.log 2>&1 &
done
pidof_port() { ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
for t in $(seq 1 120); do
  ok=1; for p in $((P+10)) $P $((P+1)) $((P+2)); do curl -sf -o /dev/null http://127.0.0.1:$p/rdf4j-server/repositories || ok=0; done
  [ $ok = 1 ] && break; sleep 2; done
SA=$(pidof_port $((P+10))); P0=$(pidof_port $P); P1=$(pidof_port $((P+1))); P2=$(pidof_port $((P+2)))
echo "pids sa=$SA n0=$P0 n1=$P1 n2=$P2"
leader() { for i in 0 1 2; do s=$(curl -s http://127.0.0.1:$((P+13+i))/replication/status); case "$s" in *'"role":"LEADER"'*) echo $i; return;; esac; done; }
for t in $(seq 1 60); do L=$(leader); [ -n "$L" ] && break; sleep 1; done
echo "leader n$L"
U=/rdf4j-server/repositories/basalt
SAU=http://127.0.0.1:$((P+10))$U; LU=http://127.0.0.1:$((P+L))$U
# a thread's utime + stime: fields 14 and 15 of its stat, counted after "pid (comm)" since comm may hold spaces
snap(){ for t in /proc/$1/task/*; do echo "$(sed 's/.*) //' $t/stat | awk '{print $12+$13}') $(basename $t) $(cat $t/comm | tr ' ' '_')"; done | sort -k2; }
jit(){ join -1 2 -2 2 $1 $2 | awk '{d=$4-$2; if ($3 ~ /Compiler/) c+=d; t+=d} END {printf "  cpu %.2f s, of it JIT compiler threads %.2f s\n", t/100, c/100}'; }
for round in $(seq 1 $ROUNDS); do
  secs=$([ $round = 1 ] && echo 10 || echo ${SECS:-20})
  echo "== round $round load $(cut -d' ' -f1-3 /proc/loadavg)"
  snap $SA > $R/s0; for p in $P0 $P1 $P2; do snap $p > $R/$p.0; done
  echo "-- one server"; nice java -jar $J write-load --urls $SAU --clients 8 --statements 10 --seconds $secs --pids $SA
  snap $SA > $R/s1; jit $R/s0 $R/s1
  L=$(leader); LU=http://127.0.0.1:$((P+L))$U   # leadership may have moved since the last round
  a0=$(curl -s http://127.0.0.1:$((P+13+L))/replication/status | grep -o '"appliedIndex":[0-9]*' | cut -d: -f2)
  echo "-- leader n$L (pids n0 n1 n2)"; nice java -jar $J write-load --urls $LU --clients 8 --statements 10 --seconds $secs --pids $P0,$P1,$P2
  a1=$(curl -s http://127.0.0.1:$((P+13+L))/replication/status | grep -o '"appliedIndex":[0-9]*' | cut -d: -f2)
  echo "  log entries during the run (the leader's applied index): $((a1 - a0))"
  for p in $P0 $P1 $P2; do snap $p > $R/$p.1; echo -n "$p"; jit $R/$p.0 $R/$p.1; done
  echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
done
for i in 0 1 2; do curl -s http://127.0.0.1:$((P+13+i))/replication/status; echo; done
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
TCK=$(getconf CLK_TCK)
# per-thread CPU between two snaps: collector, JIT compiler, and the four busiest other threads
threads(){ join -1 2 -2 2 $1 $2 | awk '{d=$4-$2; n=$3; if (n ~ /^GC_Thread|^VM_Thread|^G1_/) n="GC"; else if (n ~ /Compiler/) n="JIT";
  sub(/[-#]?[0-9]+$/, "", n); t[n]+=d} END {for (n in t) printf "%s %.2f\n", n, t[n]/100}' | sort -k2 -nr | head -7 | tr '\n' ';' | sed 's/^/    /'; echo; }
up() { # url pids...
  local url=$1; shift; local before=(); for p in "$@"; do before+=($(cpu $p)); snap $p > $R/$p.u0; done
  local t0=$(date +%s.%N)
  curl -s -o /dev/null -w '%{http_code}' -X POST -T $BSBM -H 'Content-Type: application/n-triples' $url/statements
  local t1=$(date +%s.%N); echo " wall $(echo "$t1 - $t0" | bc) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
  local k=0; for p in "$@"; do echo "  pid $p cpu $(echo "scale=2; ($(cpu $p) - ${before[$k]}) / $TCK" | bc) s"; k=$((k+1));
    snap $p > $R/$p.u1; threads $R/$p.u0 $R/$p.u1; done
}
[ "$UPLOAD" = yes ] || { for p in $SA $P0 $P1 $P2; do kill $p; done; kill $(jobs -p) 2>/dev/null; echo done; exit 0; }
echo "== bulk upload, one server"; up $SAU $SA
L=$(leader); LU=http://127.0.0.1:$((P+L))$U
echo "== bulk upload, leader n$L"; up $LU $P0 $P1 $P2
sleep 5
for p in $((P+10)) $P $((P+1)) $((P+2)); do echo "size $p: $(curl -s http://127.0.0.1:$p$U/size)"; done
for i in 0 1 2; do curl -s http://127.0.0.1:$((P+13+i))/replication/status; echo; done
for i in 0 1 2; do echo "raft log n$i: $(du -sb $R/n$i/server/repositories/basalt/replication/raft/*/current 2>/dev/null | cut -f1)"; done
# leader changes while the cluster took the upload, and the JVM pauses Ratis saw, from each node's log
for i in 0 1 2; do L=$R/n$i/server/logs/main.log; echo "n$i: became leader $(grep -c 'to LEADER at term' $L) times in all;" \
  "pauses over 1 s: $(grep 'Detected pause' $L | awk '{for (k=1;k<=NF;k++) if ($k=="approximately") print $(k+1)}' | tr -d s | awk '$1>1' | tr '\n' ' ')"; done
for p in $SA $P0 $P1 $P2; do kill $p; done; kill $(jobs -p) 2>/dev/null
echo done
