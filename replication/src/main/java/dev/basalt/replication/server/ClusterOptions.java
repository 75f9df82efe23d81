package dev.basalt.replication.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Options of {@code basalt-replica cluster}: how many nodes, where their data goes, the first HTTP and
 * Raft ports, each node's heap, and the node options passed through to every node unchanged
 * ({@code --election-timeout-ms}, {@code --commit-timeout-ms}, {@code --snapshot-every},
 * {@code --retain-entries}; see {@code node}'s usage), each checked to be a whole number here.
 *
 * <p>Immutable.
 */
record ClusterOptions(int nodes, Path data, int port, int raftPort, String heap, List<String> nodeOptions) {
    static final String USAGE = "cluster [--nodes 3] [--data DIR] [--port 8080] [--raft-port 9870] [--heap 1g]"
            + " [--election-timeout-ms N] [--commit-timeout-ms N] [--snapshot-every N] [--retain-entries N]"
            + "  (consistency endpoints on port + 10000; ports 0: free ones; the last four go to every node)";
    /** Options of {@code node} that every node of the cluster is given as they are. */
    static final Set<String> PASSED = Set.of("--election-timeout-ms", "--commit-timeout-ms", "--snapshot-every",
            "--retain-entries");

    ClusterOptions {
        nodeOptions = List.copyOf(nodeOptions);
    }

    static ClusterOptions parse(String[] args) {
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("usage: basalt-replica " + USAGE);
        }
        int nodes = 3;
        Path data = Path.of("data/replicas");
        int port = 8080;
        int raftPort = 9870;
        String heap = "1g";
        List<String> passed = new ArrayList<>();
        for (int i = 0; i < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--nodes" -> nodes = (int) number(args[i], value);
                case "--data" -> data = Path.of(value);
                case "--port" -> port = (int) number(args[i], value);
                case "--raft-port" -> raftPort = (int) number(args[i], value);
                case "--heap" -> heap = value;
                default -> {
                    if (!PASSED.contains(args[i])) {
                        throw new IllegalArgumentException("unknown option '" + args[i] + "'; usage: basalt-replica "
                                + USAGE);
                    }
                    number(args[i], value);
                    passed.addAll(List.of(args[i], value));
                }
            }
        }
        return new ClusterOptions(nodes, data, port, raftPort, heap, passed);
    }

    private static long number(String option, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got '" + value + "'");
        }
    }
}
