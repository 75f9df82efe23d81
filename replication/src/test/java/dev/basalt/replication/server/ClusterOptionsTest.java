package dev.basalt.replication.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.basalt.replication.ReplicationSettings;

/**
 * {@code basalt-replica cluster}'s node options reach every node: the arguments the local cluster
 * starts a node with, parsed as that node parses them, carry the election and commit timeouts given
 * to {@code cluster}; a node option that is not a whole number and an unknown option are refused.
 * Run by JUnit's one thread.
 */
class ClusterOptionsTest {
    @Test
    void theElectionTimeoutGivenToClusterReachesEveryNode() {
        ClusterOptions o = ClusterOptions.parse(new String[] {"--nodes", "3", "--port", "18180", "--heap", "2g",
                "--election-timeout-ms", "2500", "--commit-timeout-ms", "90000"});
        assertEquals("2g", o.heap());
        for (int i = 0; i < o.nodes(); i++) {
            ReplicaOptions node = node(i, o);
            assertEquals(2_500, node.electionTimeoutMillis(), "n" + i);
            assertEquals(90_000, node.commitTimeoutMillis(), "n" + i);
            assertEquals(18180 + i, node.server().port(), "n" + i);
        }
        ReplicaOptions plain = node(0, ClusterOptions.parse(new String[0]));
        assertEquals(ReplicationSettings.DEFAULT_ELECTION_TIMEOUT_MILLIS, plain.electionTimeoutMillis());
    }

    @Test
    void badOptionsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> ClusterOptions.parse(new String[] {"--election-timeout-ms", "soon"}));
        assertThrows(IllegalArgumentException.class, () -> ClusterOptions.parse(new String[] {"--id", "n0"}));
        assertThrows(IllegalArgumentException.class, () -> ClusterOptions.parse(new String[] {"--nodes"}));
    }

    private static ReplicaOptions node(int i, ClusterOptions o) {
        List<String> args = LocalReplicaCluster.nodeArguments(i, "n0=127.0.0.1:1,n1=127.0.0.1:2,n2=127.0.0.1:3",
                o.port() + i, o.port() + 10 + i, Path.of("data", "n" + i), o.nodeOptions());
        assertEquals("node", args.get(0));
        List<String> withHome = new java.util.ArrayList<>(args.subList(1, args.size()));
        withHome.addAll(List.of("--home", "."));
        return ReplicaOptions.parse(withHome.toArray(String[]::new));
    }
}
