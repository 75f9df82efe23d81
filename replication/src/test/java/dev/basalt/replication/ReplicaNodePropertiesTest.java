package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.retry.MultipleLinearRandomRetry;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Ratis settings a replica's safety and failover rest on are the ones {@link ReplicaNode} gives
 * its server: synchronous follower appends (the race {@link ReplicaNode#appendSynchronously}
 * describes), a leader's step-down wait of one election timeout, elections within 0.6-2 s (a leader kept through 2 s without a majority), a failed
 * follower retried at least every second, no commit-index metadata entries in the log.
 * Stateless; run by JUnit's one thread.
 */
class ReplicaNodePropertiesTest {
    @TempDir
    Path dir;

    @Test
    void followersAppendSynchronouslyAndLeadersStandAgainAfterOneElectionTimeout() {
        RaftProperties p = ReplicaNode.properties(ReplicationSettings.of("n0", "n0=127.0.0.1:1,n1=127.0.0.1:2"), dir);
        assertFalse(RaftServerConfigKeys.Log.appendEntriesComposeEnabled(p),
                "raft.server.log.append-entries.compose.enabled must stay off: on that path a deposed leader"
                        + " applies an entry no majority has (ReplicaNode.appendSynchronously)");
        long max = RaftServerConfigKeys.Rpc.timeoutMax(p).toLong(TimeUnit.MILLISECONDS);
        assertEquals(ReplicationSettings.DEFAULT_ELECTION_TIMEOUT_MILLIS, max);
        assertEquals(2_000, max, "a leader steps down after this long without a majority: at least 2 s, as a"
                + " loaded machine delays a follower's answers 1.2-1.5 s (docs/replication.md, \"Failover\")");
        assertEquals(600, RaftServerConfigKeys.Rpc.timeoutMin(p).toLong(TimeUnit.MILLISECONDS),
                "the first survivor's timeout starts the failover: no later than today's 0.6 s");
        assertEquals(max, RaftServerConfigKeys.LeaderElection.leaderStepDownWaitTime(p).toLong(TimeUnit.MILLISECONDS),
                "a leader that stepped down stands again after one election timeout, not Ratis's 10 s");
        assertEquals(ReplicaNode.APPENDER_RETRY_POLICY, RaftServerConfigKeys.Log.Appender.retryPolicy(p),
                "a leader retries a failed follower at least every second, not every 5 s");
        assertFalse(RaftServerConfigKeys.Log.logMetadataEnabled(p),
                "no commit-index metadata entries: one more log append and sync per commit on every node");
        assertNotNull(MultipleLinearRandomRetry.parseCommaSeparated(ReplicaNode.APPENDER_RETRY_POLICY),
                "Ratis does not parse the appender retry policy");
    }

    @Test
    void theElectionTimeoutSettingSetsTheRangeAndTheStepDownWait() {
        RaftProperties p = ReplicaNode.properties(ReplicationSettings.of("n0", "n0=127.0.0.1:1,n1=127.0.0.1:2")
                .withElectionTimeoutMillis(3_000), dir);
        assertEquals(900, RaftServerConfigKeys.Rpc.timeoutMin(p).toLong(TimeUnit.MILLISECONDS));
        assertEquals(3_000, RaftServerConfigKeys.Rpc.timeoutMax(p).toLong(TimeUnit.MILLISECONDS));
        assertEquals(3_000, RaftServerConfigKeys.LeaderElection.leaderStepDownWaitTime(p).toLong(TimeUnit.MILLISECONDS));
        assertThrows(IllegalArgumentException.class, () -> ReplicationSettings.of("n0", "n0=127.0.0.1:1")
                .withElectionTimeoutMillis(100));
    }
}
