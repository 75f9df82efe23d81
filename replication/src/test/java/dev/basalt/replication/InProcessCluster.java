package dev.basalt.replication;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.ratis.util.ExitUtils;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * Replicas in the test's JVM: each a {@link ReplicatedSail} over its own Basalt store in
 * {@code <dir>/<id>}, on free loopback ports. Nodes can be stopped and started again on the same
 * data. A cluster made {@link #linked} has a {@link LinkProxy} on every directed link between two
 * nodes (each node knows the others by its own proxies' ports), so a test can cut a node off from
 * the others and heal it. Used by one test thread.
 *
 * <p><b>Ports.</b> Each node's Raft port stays bound by a socket of this class from the cluster's
 * creation until just before the node's first start (then Ratis binds it), so no proxy and no other
 * node of the cluster can be given the same port meanwhile. The socket does not listen: a node
 * started earlier that reaches for one not started yet is refused, as by a closed port, rather than
 * left in a backlog no one reads (which held its first requests until the socket closed and its
 * gRPC channel reconnected). A port taken by another process in
 * that last moment (or while a node is stopped) fails the node's start; in a linked cluster, where
 * only the node's own proxies know its port, the node then starts on a new port and its proxies
 * forward there.
 */
final class InProcessCluster implements AutoCloseable {
    static {
        // a Ratis server that cannot bind its port (a free port taken by another process meanwhile)
        // exits the JVM by default, killing every test of the run; this way its start throws, and
        // only the test that started it fails
        ExitUtils.disableSystemExit();
    }

    private final Path dir;
    private final Map<String, String> peers = new LinkedHashMap<>();
    /** Sockets holding the ports of nodes not yet started (see the class comment), by node id. */
    private final Map<String, Socket> reserved = new LinkedHashMap<>();
    /** Starts of a node that failed on a port taken meanwhile and were tried again on another. */
    private int portRetries;
    private final List<BasaltRepository> nodes = new ArrayList<>();
    private final long commitTimeoutMillis;
    private final long snapshotEvery;
    private int pieceBytes = ReplicationSettings.DEFAULT_PIECE_BYTES;
    /** links[i][j] carries what node i sends to node j; null when the cluster is not linked. */
    private LinkProxy[][] links;

    InProcessCluster(Path dir, int size, long commitTimeoutMillis, long snapshotEvery) throws IOException {
        this.dir = dir;
        this.commitTimeoutMillis = commitTimeoutMillis;
        this.snapshotEvery = snapshotEvery;
        for (int i = 0; i < size; i++) {
            reserve("n" + i);
            nodes.add(null);
        }
    }

    /** Binds (without listening) a free loopback port for node {@code id} and holds it until the node starts. */
    private void reserve(String id) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Socket previous = reserved.put(id, socket);
        if (previous != null) {
            previous.close();
        }
        peers.put(id, "127.0.0.1:" + socket.getLocalPort());
    }

    /** Starts of a node tried again on a new port (for tests of this class). */
    int portRetries() {
        return portRetries;
    }

    /** A cluster whose nodes reach each other only through {@link LinkProxy}s the test can cut. */
    static InProcessCluster linked(Path dir, int size, long commitTimeoutMillis) throws IOException {
        InProcessCluster cluster = new InProcessCluster(dir, size, commitTimeoutMillis, 0);
        cluster.links = new LinkProxy[size][size];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                if (i != j) {
                    cluster.links[i][j] = new LinkProxy("n" + i + "-n" + j, cluster.port(j));
                }
            }
        }
        return cluster;
    }

    /** The port node {@code node} listens on for Raft. */
    int port(int node) {
        String address = peers.get("n" + node);
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /** The port of the proxy carrying what node {@code from} sends to node {@code to}. */
    int linkPort(int from, int to) {
        return links[from][to].port();
    }

    /** Node {@code i}'s view of the members: itself at its own port, the others at its links to them. */
    private Map<String, String> peersSeenBy(int i) {
        if (links == null) {
            return peers;
        }
        Map<String, String> view = new LinkedHashMap<>();
        for (int j = 0; j < nodes.size(); j++) {
            view.put("n" + j, "127.0.0.1:" + (i == j ? port(j) : links[i][j].port()));
        }
        return view;
    }

    /** Cuts every link to and from node {@code i}: it neither hears nor reaches any other node. */
    void isolate(int i) {
        for (int j = 0; j < nodes.size(); j++) {
            if (i != j) {
                links[i][j].cut();
                links[j][i].cut();
            }
        }
    }

    /** Cuts the links between nodes {@code i} and {@code j}, both ways. */
    void cut(int i, int j) {
        links[i][j].cut();
        links[j][i].cut();
    }

    /** Heals every link. */
    void heal() {
        for (LinkProxy[] row : links) {
            for (LinkProxy link : row) {
                if (link != null) {
                    link.heal();
                }
            }
        }
    }

    /** Each link's state, one per line; empty when the cluster is not linked. */
    String describeLinks() {
        StringBuilder b = new StringBuilder();
        if (links != null) {
            for (LinkProxy[] row : links) {
                for (LinkProxy link : row) {
                    if (link != null) {
                        b.append("\n  ").append(link.describe());
                    }
                }
            }
        }
        return b.toString();
    }

    /** Bytes node {@code i} sent to the others that a cut link dropped. */
    long droppedFrom(int i) {
        long bytes = 0;
        for (int j = 0; j < nodes.size(); j++) {
            bytes += i == j ? 0 : links[i][j].dropped();
        }
        return bytes;
    }

    /** Sets the piece size of split transactions for nodes started from now on. */
    InProcessCluster pieceBytes(int bytes) {
        this.pieceBytes = bytes;
        return this;
    }

    InProcessCluster startAll() {
        for (int i = 0; i < nodes.size(); i++) {
            start(i);
        }
        return this;
    }

    BasaltRepository start(int i) {
        String id = "n" + i;
        for (int attempt = 1;; attempt++) {
            Socket held = reserved.remove(id);
            if (held != null) {
                closeQuietly(held);
            }
            // small log segments, so that a purge after a snapshot removes entries a stopped replica needs
            ReplicationSettings settings = new ReplicationSettings(id, peersSeenBy(i), "test", commitTimeoutMillis,
                    snapshotEvery, 0, 4096, pieceBytes, ReplicationSettings.DEFAULT_ELECTION_TIMEOUT_MILLIS);
            BasaltRepository repo = new BasaltRepository(
                    new ReplicatedSail(new BasaltStore(dir.resolve(id).toFile()), settings));
            try {
                repo.init();
            } catch (RuntimeException e) {
                if (links == null || attempt == 3 || !portTaken(e)) {
                    throw e;
                }
                moveNode(i);
                continue;
            }
            nodes.set(i, repo);
            return repo;
        }
    }

    /** True if {@code e} says a port was in use. */
    static boolean portTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException
                    || String.valueOf(t.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    /** Gives node {@code i} of a linked cluster a new port, and points its proxies there. */
    private void moveNode(int i) {
        try {
            reserve("n" + i);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        portRetries++;
        for (int j = 0; j < nodes.size(); j++) {
            if (j != i) {
                links[j][i].retarget(port(i));
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the port is free either way
        }
    }

    /** Starts a new, empty node with the next id, its peer list the old members and itself. */
    int addNode() throws IOException {
        if (links != null) {
            throw new IllegalStateException("a linked cluster has a fixed membership");
        }
        reserve("n" + nodes.size());
        nodes.add(null);
        start(nodes.size() - 1);
        return nodes.size() - 1;
    }

    String peers() {
        StringBuilder b = new StringBuilder();
        peers.forEach((id, address) -> b.append(b.length() == 0 ? "" : ",").append(id).append('=').append(address));
        return b.toString();
    }

    void stop(int i) {
        BasaltRepository repo = nodes.set(i, null);
        if (repo != null) {
            repo.shutDown();
        }
    }

    BasaltRepository node(int i) {
        return nodes.get(i);
    }

    ReplicatedSail sail(int i) {
        return (ReplicatedSail) nodes.get(i).getSail();
    }

    int size() {
        return nodes.size();
    }

    /** Index of the current leader among running nodes, waiting up to {@code millis}; -1 if none. */
    int awaitLeader(long millis) throws Exception {
        long deadline = System.currentTimeMillis() + millis;
        do {
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i) != null && sail(i).isLeader()) {
                    return i;
                }
            }
            Thread.sleep(50);
        } while (System.currentTimeMillis() < deadline);
        return -1;
    }

    @Override
    public void close() {
        for (int i = 0; i < nodes.size(); i++) {
            stop(i);
        }
        reserved.values().forEach(InProcessCluster::closeQuietly);
        reserved.clear();
        if (links != null) {
            for (LinkProxy[] row : links) {
                for (LinkProxy link : row) {
                    if (link != null) {
                        link.close();
                    }
                }
            }
        }
    }
}
