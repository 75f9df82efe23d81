package dev.basalt.replication.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Replicas on one machine: N child processes of {@code basalt-replica node} on loopback, node
 * {@code i} with id {@code n<i>}, data in {@code <data>/n<i>} and output in {@code <data>/n<i>.log}.
 * What {@code basalt-replica cluster} runs and what the failover tests drive: a node can be killed
 * (SIGKILL, as a crash), stopped (SIGTERM) and started again on the same data and ports.
 *
 * <p>{@link #close()} stops every node and leaves no process behind; it is safe to call from a
 * shutdown hook. Otherwise used by one thread.
 */
public final class LocalReplicaCluster implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final List<String> launcher;
    private final Path data;
    private final int[] httpPorts;
    private final int[] adminPorts;
    private final String peers;
    private final Process[] processes;
    /** Options every node is started with, after its own (e.g. {@code --election-timeout-ms 2000}). */
    private final List<String> nodeOptions;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LocalReplicaCluster(List<String> launcher, Path data, int[] httpPorts, int[] adminPorts, String peers,
            List<String> nodeOptions) {
        this.launcher = List.copyOf(launcher);
        this.nodeOptions = List.copyOf(nodeOptions);
        this.data = data.toAbsolutePath();
        this.httpPorts = httpPorts;
        this.adminPorts = adminPorts;
        this.peers = peers;
        this.processes = new Process[httpPorts.length];
    }

    /**
     * Starts {@code nodes} replicas with HTTP ports from {@code httpPort} and Raft ports from
     * {@code raftPort} (0: free ports), and waits until each answers.
     *
     * @param launcher the command running {@link ReplicaMain}, e.g. {@link #jarLauncher}
     */
    public static LocalReplicaCluster start(List<String> launcher, int nodes, Path data, int httpPort, int raftPort)
            throws IOException, InterruptedException {
        return start(launcher, nodes, data, httpPort, httpPort == 0 ? 0 : httpPort + 10_000, raftPort);
    }

    /**
     * As {@link #start(List, int, Path, int, int)}, with the consistency endpoints' ports from
     * {@code adminPort} (0: free ports) rather than {@code httpPort + 10000}.
     */
    public static LocalReplicaCluster start(List<String> launcher, int nodes, Path data, int httpPort, int adminPort,
            int raftPort) throws IOException, InterruptedException {
        return start(launcher, nodes, data, httpPort, adminPort, raftPort, List.of());
    }

    /** As {@link #start(List, int, Path, int, int, int)}, every node started with {@code nodeOptions} too. */
    public static LocalReplicaCluster start(List<String> launcher, int nodes, Path data, int httpPort, int adminPort,
            int raftPort, List<String> nodeOptions) throws IOException, InterruptedException {
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
        }
        int[] http = new int[nodes];
        int[] admin = new int[nodes];
        StringBuilder peers = new StringBuilder();
        for (int i = 0; i < nodes; i++) {
            http[i] = httpPort == 0 ? freePort() : httpPort + i;
            admin[i] = adminPort == 0 ? freePort() : adminPort + i;
            peers.append(i == 0 ? "" : ",").append("n").append(i).append('=').append(HOST).append(':')
                    .append(raftPort == 0 ? freePort() : raftPort + i);
        }
        LocalReplicaCluster cluster = new LocalReplicaCluster(launcher, data, http, admin, peers.toString(),
                nodeOptions);
        try {
            for (int i = 0; i < nodes; i++) {
                cluster.launch(i);
            }
            for (int i = 0; i < nodes; i++) {
                cluster.awaitReady(i);
            }
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * The JIT options one server's launcher adds to its JVM (smaller C2 inlining limits, measured to
     * cut the compiler's CPU, docs/benchmarks-coldstart.md); a replica compiles more code still
     * (Ratis, gRPC, the apply path), docs/benchmarks-replication.md.
     */
    public static final List<String> COMPILER_OPTIONS = List.of("-XX:MaxInlineLevel=9", "-XX:InlineSmallCode=1000",
            "-XX:FreqInlineSize=150");

    /** {@code java -Xmx<heap> -XX:+UseParallelGC <COMPILER_OPTIONS> -jar <the jar holding this class>}. */
    public static List<String> jarLauncher(String heap) {
        Path jar;
        try {
            jar = Path.of(LocalReplicaCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the launcher's jar: " + e.getMessage(), e);
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the local cluster runs replicas from basalt-replica.jar, but this class"
                    + " was loaded from " + jar + "; build it with mvn -pl replication -am package -DskipTests");
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-XX:+UseParallelGC"));
        command.addAll(COMPILER_OPTIONS);
        command.addAll(List.of("-jar", jar.toString()));
        return command;
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    public int size() {
        return httpPorts.length;
    }

    public String peers() {
        return peers;
    }

    public String repositoryUrl(int i) {
        return "http://" + HOST + ":" + httpPorts[i] + "/rdf4j-server/repositories/basalt";
    }

    /** The node's consistency endpoint ({@code /replication/status}, {@code /await}, {@code /linearizable}). */
    public String replicationUrl(int i) {
        return "http://" + HOST + ":" + adminPorts[i] + "/replication";
    }

    public Path log(int i) {
        return data.resolve("n" + i + ".log");
    }

    public Path dataDir(int i) {
        return data.resolve("n" + i);
    }

    public boolean isRunning(int i) {
        return processes[i] != null && processes[i].isAlive();
    }

    /** Starts node {@code i} again (it must not be running) and waits until it answers. */
    public void restart(int i) throws IOException, InterruptedException {
        launch(i);
        awaitReady(i);
    }

    private void launch(int i) throws IOException {
        if (isRunning(i)) {
            throw new IllegalStateException("replica n" + i + " runs already (pid " + processes[i].pid() + ")");
        }
        Files.createDirectories(dataDir(i));
        List<String> command = new ArrayList<>(launcher);
        command.addAll(nodeArguments(i, peers, httpPorts[i], adminPorts[i], dataDir(i), nodeOptions));
        processes[i] = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log(i).toFile())).start();
    }

    /** The arguments after the launcher that start node {@code i}: {@code node}, its own options, then {@code nodeOptions}. */
    static List<String> nodeArguments(int i, String peers, int httpPort, int adminPort, Path data,
            List<String> nodeOptions) {
        List<String> args = new ArrayList<>(List.of("node", "--id", "n" + i, "--peers", peers, "--host", HOST,
                "--port", String.valueOf(httpPort), "--admin-port", String.valueOf(adminPort),
                "--data", data.toString()));
        args.addAll(nodeOptions);
        return args;
    }

    private void awaitReady(int i) throws IOException, InterruptedException {
        HttpRequest size = HttpRequest.newBuilder(URI.create(repositoryUrl(i) + "/size"))
                .timeout(Duration.ofSeconds(10)).GET().build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!processes[i].isAlive()) {
                throw new IOException("replica n" + i + " exited with " + processes[i].exitValue()
                        + " while starting; see " + log(i));
            }
            try {
                if (http.send(size, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new IOException("replica n" + i + " did not answer within " + START_TIMEOUT + " at " + repositoryUrl(i)
                + "; see " + log(i));
    }

    /** The process id of node {@code i}, or -1 when it is not running. */
    public long pid(int i) {
        return isRunning(i) ? processes[i].pid() : -1;
    }

    /** Kills node {@code i} at once (SIGKILL), as a crash would. */
    public void kill(int i) throws InterruptedException {
        if (processes[i] != null) {
            processes[i].destroyForcibly().waitFor();
            processes[i] = null;
        }
    }

    /** Stops node {@code i} gracefully (SIGTERM), forcibly after 60 s. */
    public void stop(int i) throws InterruptedException {
        Process p = processes[i];
        if (p == null) {
            return;
        }
        p.destroy();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
        processes[i] = null;
    }

    @Override
    public void close() {
        for (int i = 0; i < processes.length; i++) {
            try {
                stop(i);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (processes[i] != null) {
                    processes[i].destroyForcibly();
                }
            }
        }
    }
}
