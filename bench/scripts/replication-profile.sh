#!/bin/bash
# Where a small transaction's cost goes (docs/benchmarks-replication.md): three replicas, 8 clients
# writing 10-statement transactions to the leader; after a warm-up (WARM s, 30), a measured run (SECS
# s, 40) with each node's CPU by thread (/proc/PID/task/*/stat) and JFR execution samples every 2 ms
# on the leader and a follower ($R/leader.jfr, $R/follower.jfr), then a 15 s run with strace counting
# the syncs of the leader and a follower. Run from the project root after
# `mvn -pl replication -am package -DskipTests`; DATA=a scratch directory (deleted and refilled),
# PORT=first of 16 ports (18020).
set -u
J=replication/target/basalt-replica.jar; H=replication/target
R=${DATA:?set DATA to a scratch directory}/run; rm -rf $R; mkdir -p $R
# the JDK's profile settings with Java execution sampled every 2 ms
JFC=$R/fine.jfc
python3 - "$(dirname $(dirname $(readlink -f $(which java))))/lib/jfr/profile.jfc" $JFC <<'PY'
import re, sys
s = open(sys.argv[1]).read()
i = s.index('<event name="jdk.ExecutionSample">'); j = s.index('</event>', i)
open(sys.argv[2], 'w').write(s[:i] + re.sub(r'(<setting name="period"[^>]*>)[^<]*(</setting>)', r'\g<1>2 ms\2', s[i:j]) + s[j:])
PY
P=${PORT:-18020}; SECS=${SECS:-40}; WARM=${WARM:-30}
JO="-Xmx1g -XX:+UseParallelGC"
NO="$JO -XX:MaxInlineLevel=9 -XX:InlineSmallCode=1000 -XX:FreqInlineSize=150"
for i in 0 1 2; do
  nice java $NO -jar $J node --id n$i --peers n0=127.0.0.1:$((P+6)),n1=127.0.0.1:$((P+7)),n2=127.0.0.1:$((P+8)) \
    --host 127.0.0.1 --port $((P+i)) --admin-port $((P+13+i)) --commit-timeout-ms 900000 --data $R/n$i > $R/n$i.log 2>&1 &
done
pidof_port() { ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
for t in $(seq 1 120); do ok=1; for p in $P $((P+1)) $((P+2)); do curl -sf -o /dev/null http://127.0.0.1:$p/rdf4j-server/repositories || ok=0; done; [ $ok = 1 ] && break; sleep 2; done
P0=$(pidof_port $P); P1=$(pidof_port $((P+1))); P2=$(pidof_port $((P+2)))
leader() { for i in 0 1 2; do s=$(curl -s http://127.0.0.1:$((P+13+i))/replication/status); case "$s" in *'"role":"LEADER"'*) echo $i; return;; esac; done; }
for t in $(seq 1 60); do L=$(leader); [ -n "$L" ] && break; sleep 1; done
PIDS=($P0 $P1 $P2); LP=${PIDS[$L]}; F=$(( (L+1)%3 )); FP=${PIDS[$F]}
U=/rdf4j-server/repositories/basalt; LU=http://127.0.0.1:$((P+L))$U
echo "leader n$L pid $LP, follower n$F pid $FP"
snap(){ for t in /proc/$1/task/*; do echo "$(sed 's/.*) //' $t/stat | awk '{print $12+$13}') $(basename $t) $(cat $t/comm | tr ' ' '_')"; done 2>/dev/null | sort -k2; }
threads(){ join -1 2 -2 2 $1 $2 | awk '{d=$4-$2; n=$3; if (n ~ /^GC_Thread|^VM_Thread|^G1_|^ParGC/) n="GC"; else if (n ~ /Compiler/) n="JIT";
  sub(/[-#]?[0-9]+$/, "", n); t[n]+=d; s+=d} END {for (n in t) printf "%s %.2f\n", n, t[n]/100; printf "TOTAL %.2f\n", s/100}' | sort -k2 -nr | head -16 | tr '\n' ';'; echo; }
echo "== warm-up $WARM s, load $(cut -d' ' -f1-3 /proc/loadavg)"
nice java -jar $J write-load --urls $LU --clients 8 --statements 10 --seconds $WARM --pids $P0,$P1,$P2 | head -3
for i in 0 1 2; do curl -s http://127.0.0.1:$((P+13+i))/replication/status; echo; done
for t in $(seq 1 60); do L=$(leader); [ -n "$L" ] && break; sleep 1; done
LP=${PIDS[$L]}; F=$(( (L+1)%3 )); FP=${PIDS[$F]}; LU=http://127.0.0.1:$((P+L))$U
echo "after warm-up: leader n$L pid $LP, follower n$F pid $FP"
jcmd $LP JFR.start name=p settings=$JFC filename=$R/leader.jfr > /dev/null
jcmd $FP JFR.start name=p settings=$JFC filename=$R/follower.jfr > /dev/null
for p in $P0 $P1 $P2; do snap $p > $R/$p.0; done
A0=$(curl -s http://127.0.0.1:$((P+13+L))/replication/status)
echo "== measured $SECS s, load $(cut -d' ' -f1-3 /proc/loadavg)"
nice java -jar $J write-load --urls $LU --clients 8 --statements 10 --seconds $SECS --pids $P0,$P1,$P2
for p in $P0 $P1 $P2; do snap $p > $R/$p.1; echo -n "pid $p: "; threads $R/$p.0 $R/$p.1; done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "status before: $A0"; for i in 0 1 2; do curl -s http://127.0.0.1:$((P+13+i))/replication/status; echo; done
jcmd $LP JFR.stop name=p > /dev/null; jcmd $FP JFR.stop name=p > /dev/null
curl -s http://127.0.0.1:$((P+13+L))/replication/diagnostics | head -c 3000; echo
# syncs per transaction: strace counts fsync/fdatasync of the leader and a follower over a 15 s run
a0=$(curl -s http://127.0.0.1:$((P+13+L))/replication/status | grep -o '"appliedIndex":[0-9]*' | cut -d: -f2)
timeout 25 strace -f -c -e trace=fsync,fdatasync,msync -o $R/strace.leader -p $LP 2>/dev/null & S1=$!
timeout 25 strace -f -c -e trace=fsync,fdatasync,msync -o $R/strace.follower -p $FP 2>/dev/null & S2=$!
sleep 3
nice java -jar $J write-load --urls $LU --clients 8 --statements 10 --seconds 15 --pids $LP | head -2
a1=$(curl -s http://127.0.0.1:$((P+13+L))/replication/status | grep -o '"appliedIndex":[0-9]*' | cut -d: -f2)
echo "log entries during the strace run: $((a1 - a0))"
wait $S1 $S2
echo "leader syncs:"; cat $R/strace.leader; echo "follower syncs:"; cat $R/strace.follower
for p in $P0 $P1 $P2; do kill $p; done
echo done
