package dev.basalt.workbench;

import java.io.File;
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

/**
 * The launcher in a child JVM, as a user starts it: its own class path (target/classes and the
 * Jetty jars in target/lib), the assembled webapps, a data directory, loopback and a free port.
 * {@link #stop()} sends SIGTERM so Jetty and RDF4J Server shut down as they do on Ctrl-C.
 */
final class LauncherProcess implements AutoCloseable {
    static final Path HOME = Path.of(System.getProperty("basalt.server.home", "target"));
    static final Path OUTPUT = Path.of(System.getProperty("basalt.test.output", "target"));

    private final Path dataDir;
    private final int port;
    private final Path log;
    private final List<String> extraArgs;
    private List<String> jvmOptions = List.of("-Xmx512m");
    private Process process;

    LauncherProcess(Path dataDir, Path log, String... extraArgs) throws IOException {
        this.dataDir = dataDir;
        this.port = freePort();
        this.log = log;
        this.extraArgs = List.of(extraArgs);
    }

    /**
     * The launcher's JVM with {@code heap} and remote JMX on {@code port} of the loopback interface, without
     * authentication (tests only), for tests that read the server's MBeans.
     */
    LauncherProcess withLocalJmx(String heap, int port) {
        return jvmOptions(heap, "-Dcom.sun.management.jmxremote.port=" + port,
                "-Dcom.sun.management.jmxremote.rmi.port=" + port,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Djava.rmi.server.hostname=127.0.0.1",
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false");
    }

    /** JVM options of the child in place of {@code -Xmx512m} (set before {@link #start()}). */
    LauncherProcess jvmOptions(String... options) {
        this.jvmOptions = List.of(options);
        return this;
    }

    /**
     * The serving JVM's process id (while it runs): the launcher's relaunched child JVM if it started one
     * (docs/operator-guide.md, "JVM options the launcher sets for itself"), else the launcher's own.
     */
    long pid() {
        return process.descendants().filter(d -> d.info().command().map(c -> c.endsWith("java")).orElse(false))
                .mapToLong(ProcessHandle::pid).max().orElse(process.pid());
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    LauncherProcess start() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = HOME.resolve("classes") + File.pathSeparator + HOME.resolve("lib") + File.separator + "*";
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvmOptions);
        String warmup = "-D" + LauncherWarmup.REQUESTS_PROPERTY + "=";
        if (jvmOptions.stream().noneMatch(o -> o.startsWith(warmup))) {
            command.add(warmup + "0"); // tests start many launchers: no warm-up unless a test asks for one
        }
        String data = "-D" + DataWarmup.REQUESTS_PROPERTY + "=";
        if (jvmOptions.stream().noneMatch(o -> o.startsWith(data))) {
            command.add(data + "0");
        }
        command.addAll(List.of("-XX:+UseSerialGC", "-cp", classPath, BasaltServer.class.getName(),
                "--host", "127.0.0.1", "--port", String.valueOf(port), "--data", dataDir.toString(), "--home", HOME.toString()));
        command.addAll(extraArgs);
        Files.createDirectories(log.getParent());
        long logStart = Files.exists(log) ? Files.size(log) : 0;
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        awaitReady(Duration.ofSeconds(120), logStart);
        return this;
    }

    private void awaitReady(Duration timeout, long logStart) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("launcher exited with " + process.exitValue() + "; see " + log);
            }
            // The launcher prints its URLs after the default repository exists; until then poll the server.
            if (Files.readString(log).substring((int) logStart).contains("RDF4J Workbench:")) {
                return;
            }
            try {
                http.send(HttpRequest.newBuilder(URI.create(serverUrl() + "/protocol")).build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        close();
        throw new IllegalStateException("launcher not ready after " + timeout + "; see " + log);
    }

    String serverUrl() {
        return "http://127.0.0.1:" + port + BasaltServer.SERVER_PATH;
    }

    String workbenchUrl() {
        return "http://127.0.0.1:" + port + BasaltServer.WORKBENCH_PATH;
    }

    /** Graceful stop (SIGTERM), as on Ctrl-C; fails if the JVM does not exit in time. */
    void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("launcher did not stop within 60 s of SIGTERM; see " + log);
        }
        process = null;
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor();
            process = null;
        }
    }
}
