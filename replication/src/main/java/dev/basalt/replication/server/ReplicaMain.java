package dev.basalt.replication.server;

import java.nio.file.Path;
import java.util.Arrays;

import dev.basalt.workbench.BasaltServer;

/**
 * {@code java -jar basalt-replica.jar node|cluster|front|write-load ...}: one replica (RDF4J Server and
 * Workbench with a replicated {@code basalt} repository), a local cluster of replicas as child
 * processes, a read-spreading front over replicas ({@link ReadFront}), or the write load driver.
 * Command-line entry point only; it prints to the console. Runs on the main thread, which then waits while Jetty's,
 * Raft's and the child processes' threads do the work; only its shutdown hooks run on other threads.
 */
public final class ReplicaMain {
    private ReplicaMain() {
    }

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        try {
            switch (command) {
                case "node" -> node(ReplicaOptions.parse(rest));
                case "cluster" -> cluster(rest);
                case "write-load" -> WriteLoad.run(rest);
                case "front" -> front(rest);
                default -> throw new IllegalArgumentException("usage: basalt-replica " + ReplicaOptions.USAGE
                        + "\n       basalt-replica " + ClusterOptions.USAGE
                        + "\n       basalt-replica " + ReadFront.USAGE);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("basalt-replica: " + e.getMessage());
            System.exit(2);
        }
    }

    private static void node(ReplicaOptions options) throws Exception {
        BasaltServer server = BasaltServer.start(options.server());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("basalt-replica: stopping: " + e);
            }
        }));
        new ReplicaRepositoryConfig().ensure(server.serverUrl(), options);
        ReplicationEndpoint endpoint = ReplicationEndpoint.start(options.server().host(), options.adminPort());
        System.out.println("Basalt replica " + options.nodeId() + " of " + options.peers());
        System.out.println("consistency:     http://" + options.server().host() + ":" + endpoint.port()
                + "/replication/status");
        System.out.println("RDF4J Server:    " + server.serverUrl() + " (repository " + options.repository() + ")");
        System.out.println("RDF4J Workbench: " + server.workbenchUrl());
        System.out.println("data directory:  " + options.dataDir());
        Thread.currentThread().join();
    }

    private static void front(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 8079;
        int threads = 16;
        String nodes = null;
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("usage: basalt-replica " + ReadFront.USAGE);
        }
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host" -> host = args[i + 1];
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                case "--nodes" -> nodes = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; usage: basalt-replica "
                        + ReadFront.USAGE);
            }
        }
        if (nodes == null) {
            throw new IllegalArgumentException("--nodes is required; usage: basalt-replica " + ReadFront.USAGE);
        }
        ReadFront front = ReadFront.start(host, port, ReadFront.parseNodes(nodes), threads);
        Runtime.getRuntime().addShutdownHook(new Thread(front::close));
        System.out.println("front on http://" + host + ":" + front.port() + "/rdf4j-server/ over " + nodes
                + ": reads round robin over healthy replicas, writes to the leader");
        Thread.currentThread().join();
    }

    private static void cluster(String[] args) throws Exception {
        ClusterOptions o = ClusterOptions.parse(args);
        int nodes = o.nodes();
        LocalReplicaCluster cluster = LocalReplicaCluster.start(LocalReplicaCluster.jarLauncher(o.heap()), nodes,
                o.data(), o.port(), o.port() == 0 ? 0 : o.port() + 10_000, o.raftPort(), o.nodeOptions());
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::close));
        for (int i = 0; i < nodes; i++) {
            System.out.println("replica n" + i + ": " + cluster.repositoryUrl(i) + "  consistency "
                    + cluster.replicationUrl(i) + "/status  (log " + cluster.log(i) + ")");
        }
        System.out.println("writes to any replica go through the Raft leader; Ctrl-C stops all " + nodes);
        Thread.currentThread().join();
    }
}
