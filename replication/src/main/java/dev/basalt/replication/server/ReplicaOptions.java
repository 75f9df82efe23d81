package dev.basalt.replication.server;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

import dev.basalt.workbench.ServerOptions;

/**
 * Options of {@code basalt-replica node}: the RDF4J Server's own (host, HTTP port, data directory,
 * home) plus this node's id, the Raft peer list ({@code id=host:port,...}, this node included), log
 * retention, the commit timeout and the election timeout. Parsed by hand so the launcher's class path stays Jetty and the launcher only.
 *
 * <p>Immutable.
 */
record ReplicaOptions(ServerOptions server, String repository, String nodeId, String peers, long snapshotEvery,
        long retainEntries, long commitTimeoutMillis, int adminPort, long electionTimeoutMillis) {
    static final String USAGE = "node --id ID --peers ID=HOST:PORT,... [--host H] [--port N] [--data DIR] [--home DIR]"
            + " [--repository ID] [--snapshot-every N] [--retain-entries N] [--commit-timeout-ms N]"
            + " [--election-timeout-ms N (default 2000)]"
            + " [--admin-port N (default: port + 10000)]";
    private static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9_-]+");

    static ReplicaOptions parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("unexpected '" + a + "'; usage: " + USAGE);
            }
            values.put(a, args[++i]);
        }
        String id = values.remove("--id");
        String peers = values.remove("--peers");
        if (id == null || peers == null) {
            throw new IllegalArgumentException("--id and --peers are required; usage: " + USAGE);
        }
        if (!NODE_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("--id '" + id + "' may use only letters, digits, '_' and '-'");
        }
        if (!(',' + peers).contains("," + id + "=")) {
            throw new IllegalArgumentException("--id " + id + " is not among --peers " + peers);
        }
        String repository = values.getOrDefault("--repository", ServerOptions.DEFAULT_REPOSITORY);
        values.remove("--repository");
        long snapshotEvery = number(values.remove("--snapshot-every"), 100_000, "--snapshot-every");
        long retain = number(values.remove("--retain-entries"), 10_000, "--retain-entries");
        long timeout = number(values.remove("--commit-timeout-ms"), 30_000, "--commit-timeout-ms");
        long election = number(values.remove("--election-timeout-ms"),
                dev.basalt.replication.ReplicationSettings.DEFAULT_ELECTION_TIMEOUT_MILLIS, "--election-timeout-ms");
        String admin = values.remove("--admin-port");
        if (!values.containsKey("--home") && System.getProperty("basalt.server.home") == null) {
            values.put("--home", replicaHome().toString());
        }
        String[] serverArgs = values.entrySet().stream()
                .flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue())).toArray(String[]::new);
        ServerOptions parsed = ServerOptions.parse(serverArgs);
        ServerOptions server = new ServerOptions(parsed.host(), parsed.port(), parsed.dataDir(), parsed.home(), null);
        int adminPort = admin != null ? (int) number(admin, 0, "--admin-port")
                : server.port() == 0 ? 0 : server.port() + 10_000;
        return new ReplicaOptions(server, repository, id, peers, snapshotEvery, retain, timeout, adminPort, election);
    }

    private static long number(String value, long fallback, String option) {
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got '" + value + "'");
        }
    }

    /** The directory of basalt-replica.jar (or of the classes), where the build put lib/, basalt-lib/, webapps/. */
    static Path replicaHome() {
        try {
            return Path.of(ReplicaOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot locate basalt-replica.jar: " + e.getMessage(), e);
        }
    }

    Path dataDir() {
        return server.dataDir();
    }
}
