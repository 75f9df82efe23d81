package dev.basalt.replication;

import static dev.basalt.replication.ReplicatedClusterTest.assertConverged;
import static dev.basalt.replication.ReplicatedClusterTest.writeBatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test cluster's ports: a node's port is held from the cluster's creation until the node
 * starts, without listening, so neither a proxy nor another node gets it and a connection to it is
 * refused; a node of a linked cluster whose port another process took while it was stopped starts
 * on a new port, its proxies follow, and the cluster goes on.
 */
class InProcessClusterTest {
    @TempDir
    Path dir;

    @Test
    void nodePortsAreHeldUntilTheNodesStartAndDifferFromEveryProxyPort() throws Exception {
        try (InProcessCluster cluster = InProcessCluster.linked(dir, 3, 3_000)) {
            Set<Integer> ports = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                int port = cluster.port(i);
                assertTrue(ports.add(port), "port " + port + " given twice");
                assertThrows(BindException.class, () -> bindAll(port).close(), "n" + i + "'s port is not held");
                // held without listening: a node reaching for it is refused, as by a closed port
                assertThrows(ConnectException.class,
                        () -> new Socket(InetAddress.getLoopbackAddress(), port).close(), "n" + i + "'s port listens");
                for (int j = 0; j < 3; j++) {
                    if (j != i) {
                        assertTrue(ports.add(cluster.linkPort(i, j)), "link port given twice");
                    }
                }
            }
        }
    }

    @Test
    void aNodeWhosePortWasTakenWhileStoppedStartsOnAnotherAndTheClusterGoesOn() throws Exception {
        try (InProcessCluster cluster = InProcessCluster.linked(dir, 3, 30_000).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader");
            int moved = (leader + 1) % 3;
            int port = cluster.port(moved);
            cluster.stop(moved);
            try (ServerSocket taken = bindAll(port)) {
                cluster.start(moved);
                assertEquals(1, cluster.portRetries());
                assertNotEquals(port, cluster.port(moved));
                writeBatches(cluster.node(moved), "after-move", 3);
                assertConverged(cluster);
            }
        }
    }

    /** Binds {@code port} on every interface, as Ratis's gRPC server does. */
    private static ServerSocket bindAll(int port) throws Exception {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(port));
        return socket;
    }
}
