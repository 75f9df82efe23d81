package dev.basalt.federation;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Basalt server (the launcher: RDF4J Server 5.0.3 with Basalt and a {@code basalt} repository)
 * running as a child process of this JVM, for the local cluster and the tests. The child has its
 * own class path, so RDF4J 5.0.3 never meets this process's RDF4J 5.1.2. Its output goes to
 * {@code <data>/server.log}. With an inference rule set the member's repository is created with
 * {@code basalt:inference} set to it (through RDF4J Server's REST API, on the member's first start).
 *
 * <p>Not thread-safe: one owner starts and stops it.
 */
public final class MemberServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MemberServer.class);
    static final String REPOSITORY = "basalt";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final List<String> launcher;
    private final String host;
    private final int port;
    private final Path dataDir;
    private final String inference;
    private final int selectPort;
    private Process process;

    /**
     * @param launcher the command that runs the launcher's main class, without its options, e.g.
     *                 {@code java -Xmx1g -jar workbench-config/target/basalt-server.jar}
     */
    public MemberServer(List<String> launcher, String host, int port, Path dataDir) {
        this(launcher, host, port, dataDir, null);
    }

    /** @param inference {@code rdfs} or {@code owl-rl} for the member's repository, or null for none */
    public MemberServer(List<String> launcher, String host, int port, Path dataDir, String inference) {
        this(launcher, host, port, dataDir, inference, -1);
    }

    /**
     * @param selectPort the port of the member's select port ({@code -Dbasalt.server.selectPort}, where the front
     *                   sends its star SELECTs, docs/federation.md), or -1 for none
     */
    public MemberServer(List<String> launcher, String host, int port, Path dataDir, String inference, int selectPort) {
        this.launcher = List.copyOf(launcher);
        this.host = host;
        this.port = port;
        this.dataDir = dataDir.toAbsolutePath();
        this.inference = inference;
        this.selectPort = selectPort;
    }

    /**
     * The launcher command for {@code java -jar basalt-server.jar} with the given heap (e.g. "1g"). The
     * launcher relaunches itself with its JIT options and class-data archive, as it does for one server
     * (docs/operator-guide.md), so a member runs with the same JVM options as one Basalt server; {@link #pid}
     * is then the relaunched child's.
     */
    public static List<String> jarLauncher(Path serverJar, String heap) {
        if (!Files.isRegularFile(serverJar)) {
            throw new IllegalArgumentException("no Basalt server launcher at " + serverJar.toAbsolutePath()
                    + "; build it with: mvn -B -pl workbench-config -am package -DskipTests, or pass --server-jar");
        }
        return List.of(javaBinary(), "-Xmx" + heap, "-XX:+UseParallelGC", "-jar", serverJar.toAbsolutePath().toString());
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A port that was free on loopback a moment ago. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Starts the server and waits until its repository answers. */
    public MemberServer start() throws IOException, InterruptedException {
        if (process != null) {
            throw new IllegalStateException("member on port " + port + " runs already");
        }
        Files.createDirectories(dataDir);
        List<String> command = new ArrayList<>(launcher);
        if (selectPort >= 0) {
            // a JVM option, before the launcher's -jar or main class (the launcher's relaunch keeps it)
            command.add(1, "-Dbasalt.server.selectPort=" + host + ":" + selectPort);
        }
        command.addAll(List.of("--host", host, "--port", String.valueOf(port), "--data", dataDir.toString()));
        if (inference != null) {
            command.add("--no-repository");
        }
        Path log = dataDir.resolve("server.log");
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        awaitRepository(log);
        LOG.info("Basalt member up at {} (pid {}, log {})", repositoryUrl(), pid(), log);
        return this;
    }

    private void awaitRepository(Path log) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest size = HttpRequest.newBuilder(URI.create(inference == null ? repositoryUrl() + "/size"
                : serverUrl() + "/protocol")).timeout(Duration.ofSeconds(10)).GET().build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                int code = process.exitValue();
                process = null;
                throw new IOException("the Basalt server for " + dataDir + " exited with " + code + " while starting;"
                        + " see " + log + ", which ends with:\n" + tail(log, 15));
            }
            try {
                if (http.send(size, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    if (inference != null) {
                        ensureRepository(http);
                    }
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        close();
        throw new IOException("the Basalt server for " + dataDir + " did not answer within " + START_TIMEOUT
                + " on port " + port + "; see " + log);
    }

    /** Creates the member's repository with the inference setting unless the server has it already. */
    private void ensureRepository(HttpClient http) throws IOException, InterruptedException {
        if (http.send(HttpRequest.newBuilder(URI.create(repositoryUrl() + "/size")).GET().build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
        }
        String config = """
                @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
                @prefix config: <tag:rdf4j.org,2023:config/>.
                @prefix basalt: <http://basalt.dev/config/sail#>.

                [] a config:Repository ;
                    config:rep.id "%s" ;
                    rdfs:label "Basalt federation member (%s)" ;
                    config:rep.impl [
                        config:rep.type "basalt:BasaltRepository" ;
                        config:sail.impl [
                            config:sail.type "basalt:BasaltStore" ;
                            basalt:inference "%s"
                        ]
                    ].
                """.formatted(REPOSITORY, inference, inference);
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(serverUrl() + "/repositories/"
                + REPOSITORY)).header("Content-Type", "text/turtle").PUT(HttpRequest.BodyPublishers.ofString(config))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() / 100 != 2) {
            throw new IOException("the Basalt server for " + dataDir + " refused to create its " + inference
                    + " repository (HTTP " + created.statusCode() + "): " + created.body());
        }
    }

    /**
     * Makes the front reachable from this member's Workbench: (re)creates the repository {@code id} in
     * its RDF4J Server as a SPARQL-endpoint repository ({@code openrdf:SPARQLRepository}) whose query
     * endpoint is {@code frontUrl}. Queries sent to that repository (from the Workbench or any RDF4J
     * client) go to the front; updates are refused by the front.
     */
    void registerEndpoint(String id, String title, String frontUrl) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI repository = URI.create(serverUrl() + "/repositories/" + id);
        http.send(HttpRequest.newBuilder(repository).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        String config = """
                @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
                @prefix rep: <http://www.openrdf.org/config/repository#>.
                @prefix sparql: <http://www.openrdf.org/config/repository/sparql#>.

                [] a rep:Repository ;
                    rep:repositoryID "%s" ;
                    rdfs:label "%s" ;
                    rep:repositoryImpl [
                        rep:repositoryType "openrdf:SPARQLRepository" ;
                        sparql:query-endpoint <%s>
                    ].
                """.formatted(id, title, frontUrl);
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(repository).header("Content-Type", "text/turtle")
                .PUT(HttpRequest.BodyPublishers.ofString(config)).build(), HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() / 100 != 2) {
            throw new IOException("the Basalt server at " + serverUrl() + " refused the repository '" + id + "' for the"
                    + " federation's front (HTTP " + created.statusCode() + "): " + created.body());
        }
    }

    /** The Workbench page of a repository of this server. */
    String workbenchUrl(String id) {
        return "http://" + host + ":" + port + "/rdf4j-workbench/repositories/" + id + "/summary";
    }

    private String serverUrl() {
        return "http://" + host + ":" + port + "/rdf4j-server";
    }

    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read it: " + e + ")";
        }
    }

    /** The member's select port's repository URL, or null when it has none. */
    public String selectUrl() {
        return selectPort < 0 ? null : "http://" + host + ":" + selectPort + "/repositories/" + REPOSITORY;
    }

    public String repositoryUrl() {
        return serverUrl() + "/repositories/" + REPOSITORY;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * The process id of the JVM that serves: the launcher's relaunched child when it has one, else the started
     * process; -1 when it is not running.
     */
    public long pid() {
        return isRunning() ? process.children().mapToLong(ProcessHandle::pid).findFirst().orElse(process.pid()) : -1;
    }

    /** Stops gracefully (SIGTERM, as Ctrl-C), forcibly after 60 s. */
    public void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            LOG.warn("member on port {} did not stop within 60 s of SIGTERM; killing it", port);
            process.destroyForcibly().waitFor();
        }
        process = null;
    }

    /** Kills the child and its relaunched JVM at once (SIGKILL), as a crash would. */
    public void kill() throws InterruptedException {
        if (process != null) {
            List<ProcessHandle> children = process.descendants().toList();
            children.forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
            for (ProcessHandle child : children) {
                child.onExit().join();
            }
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
