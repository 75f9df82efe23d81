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
 * {@code <data>/server.log}.
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
    private Process process;

    /**
     * @param launcher the command that runs the launcher's main class, without its options, e.g.
     *                 {@code java -Xmx1g -jar workbench-config/target/basalt-server.jar}
     */
    public MemberServer(List<String> launcher, String host, int port, Path dataDir) {
        this.launcher = List.copyOf(launcher);
        this.host = host;
        this.port = port;
        this.dataDir = dataDir.toAbsolutePath();
    }

    /**
     * The launcher command for {@code java -jar basalt-server.jar} with the given heap (e.g. "1g"). The
     * launcher stays in the started JVM ({@code -Dbasalt.server.relaunch=false}, see docs/operator-guide.md):
     * {@link #pid} must be the serving process's, which the cluster's tests freeze and stop by signal.
     */
    public static List<String> jarLauncher(Path serverJar, String heap) {
        if (!Files.isRegularFile(serverJar)) {
            throw new IllegalArgumentException("no Basalt server launcher at " + serverJar.toAbsolutePath()
                    + "; build it with: mvn -B -pl workbench-config -am package -DskipTests, or pass --server-jar");
        }
        return List.of(javaBinary(), "-Xmx" + heap, "-XX:+UseParallelGC", "-Dbasalt.server.relaunch=false", "-jar",
                serverJar.toAbsolutePath().toString());
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
        command.addAll(List.of("--host", host, "--port", String.valueOf(port), "--data", dataDir.toString()));
        Path log = dataDir.resolve("server.log");
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        awaitRepository(log);
        LOG.info("Basalt member up at {} (pid {}, log {})", repositoryUrl(), process.pid(), log);
        return this;
    }

    private void awaitRepository(Path log) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest size = HttpRequest.newBuilder(URI.create(repositoryUrl() + "/size"))
                .timeout(Duration.ofSeconds(10)).GET().build();
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

    private static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read it: " + e + ")";
        }
    }

    public String repositoryUrl() {
        return "http://" + host + ":" + port + "/rdf4j-server/repositories/" + REPOSITORY;
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

    /** The child's process id, or -1 when it is not running. */
    public long pid() {
        return isRunning() ? process.pid() : -1;
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

    /** Kills the child at once (SIGKILL), as a crash would. */
    public void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor();
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
