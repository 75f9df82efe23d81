package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.server.raftlog.RaftLog;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.replication.log.ChangeSetCodec;
import dev.basalt.replication.log.LogEntries;

/**
 * A leader hands its own entries to its Raft server in process, and a leader that steps down
 * answers its pending requests "not leader" even for entries already in its log: the retries at the
 * new leader carry the same call id, so no entry is appended twice. Eight writers commit through
 * the node that leads first while leadership is handed on until it has moved four times, each leader
 * in charge until the writers have had 16 more commits acknowledged; afterwards every
 * acknowledged transaction is in the log exactly once, and no transaction's statements are in two
 * log entries. Writers run on a pool; the assertions on the test's thread.
 */
class EntrySubmitterTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    /** Writes acknowledged under each leader before leadership moves on (and after the last move). */
    private static final int WRITES_PER_LEADER = 16;

    @TempDir
    Path dir;

    @Test
    void entriesRetriedAcrossLeaderChangesAreAppendedOnce() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, 0).startAll()) {
            int first = cluster.awaitLeader(20_000);
            assertTrue(first >= 0, "no leader elected");
            AtomicBoolean stop = new AtomicBoolean();
            Set<IRI> acknowledged = ConcurrentHashMap.newKeySet();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int t = 0; !stop.get(); t++) {
                        IRI subject = VF.createIRI("http://example.org/w" + writer + "-" + t);
                        try (RepositoryConnection c = cluster.node(first).getConnection()) {
                            c.add(subject, VF.createIRI("http://example.org/p"), VF.createLiteral(t));
                            acknowledged.add(subject);
                        } catch (RepositoryException e) {
                            // not acknowledged: may or may not be in the log, but never twice
                        }
                    }
                    return null;
                }));
            }
            int leader = first;
            int changes = 0;
            long deadline = System.currentTimeMillis() + 180_000;
            while (changes < 4 && System.currentTimeMillis() < deadline) {
                // writes in flight under every leader, however slowly a loaded machine commits them
                awaitMoreAcknowledged(acknowledged, WRITES_PER_LEADER, "n" + leader);
                try {
                    cluster.sail(leader).transferLeadership("n" + (leader + 1) % 3, 10_000);
                } catch (java.io.IOException e) {
                    // not transferred in time (a loaded machine): tried again
                }
                int now = cluster.awaitLeader(20_000);
                if (now >= 0 && now != leader) {
                    changes++;
                    leader = now;
                }
            }
            assertTrue(changes > 0, "leadership never moved: nothing retried at a new leader");
            awaitMoreAcknowledged(acknowledged, WRITES_PER_LEADER, "n" + leader);
            stop.set(true);
            for (Future<?> f : writers) {
                f.get();
            }
            pool.shutdown();
            ReplicatedClusterTest.assertConverged(cluster);

            long[] attempts = cluster.sail(first).submitAttempts();
            assertTrue(attempts[0] > 0, "the first leader handed no entry to its own server");
            assertTrue(attempts[1] > 0, "no entry went to another leader after a transfer");

            Map<IRI, Integer> inLog = subjectsInLog(cluster.sail(leader).raftLog());
            List<String> twice = new ArrayList<>();
            inLog.forEach((s, n) -> {
                if (n > 1) {
                    twice.add(s.getLocalName() + " x" + n);
                }
            });
            assertEquals(List.of(), twice, "transactions appended more than once");
            for (IRI s : acknowledged) {
                assertEquals(1, inLog.getOrDefault(s, 0), s + " acknowledged but not in the log once");
            }
            assertTrue(acknowledged.size() > 50, "too few writes to mean anything: " + acknowledged.size());
        }
    }

    /**
     * Waits until {@code more} further writes are acknowledged (the writers commit on their own
     * threads); fails after 60 s, as a cluster that stopped acknowledging under leader {@code leader}
     * has a real fault.
     */
    private static void awaitMoreAcknowledged(Set<IRI> acknowledged, int more, String leader)
            throws InterruptedException {
        int target = acknowledged.size() + more;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (acknowledged.size() < target) {
            assertTrue(System.nanoTime() < deadline, "only " + acknowledged.size() + " writes acknowledged, "
                    + target + " awaited, with " + leader + " leading");
            Thread.sleep(20);
        }
    }

    /** For each subject added by a change set in the log, how many change sets add it. */
    private static Map<IRI, Integer> subjectsInLog(RaftLog log) throws Exception {
        Map<IRI, Integer> counts = new HashMap<>();
        for (long i = log.getStartIndex(); i <= log.getLastCommittedIndex(); i++) {
            LogEntryProto e = log.get(i);
            if (e == null || !e.hasStateMachineLogEntry()) {
                continue;
            }
            byte[] entry = e.getStateMachineLogEntry().getLogData().toByteArray();
            List<byte[]> members = LogEntries.isGroup(entry) ? LogEntries.members(entry) : List.of(entry);
            for (byte[] m : members) {
                for (Statement st : ChangeSetCodec.decode(m, VF).added()) {
                    counts.merge((IRI) st.getSubject(), 1, Integer::sum);
                }
            }
        }
        return counts;
    }
}
