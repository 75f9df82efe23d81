package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Online compaction inside RDF4J Server: a repository with {@code compactFreePercent} 70 is grown,
 * then most of its statements are deleted while 8 HTTP clients read and write; the store compacts
 * itself in the server. Every read during the run must give the answer it gave before the deletes
 * (the reads touch only statements that stay), every write must succeed, every acknowledged write
 * must be present afterwards, and the file must end within 1.2x the size of an offline-compacted
 * copy (the live data). The file is measured once it has stopped shrinking and the clients have
 * written for a few seconds more, so space the clients' writes take again after the compaction
 * counts too. {@code target/online-compaction-report.md} gets the figures of the run (the file every
 * 0.5 s of those last seconds, load averages, CPU, the regions the store's allocator made at the
 * file's end after the compaction, which the server logs at debug level here) and the compaction's
 * own report (rounds, writer pauses, CPU) from the server's log. Tagged {@code long}: it runs for 2 to 5 minutes and
 * its bound is a measurement; its runs are recorded in docs/benchmarks-compaction.md.
 * {@code -Dbasalt.compactTest.keep=DIR} keeps the online-compacted journal as {@code DIR/online.jnl}.
 */
@Tag("long")
class ServerOnlineCompactionTest {
    static final String REPO = "compact";
    static final String EX = "http://example.org/c/";
    static final int CLIENTS = 8;
    /**
     * Statements before the deletes: 15 predicates, 5 values each per subject. The bound is a ratio,
     * and every size class the allocator serves keeps one partly filled region (16 KiB or more), a
     * fixed slack of a few hundred KB that an offline copy built bottom-up into full pages does not
     * have; at 1.5M statements (a live file of several MB) the ratio measures the compaction, not that
     * constant. {@code -Dbasalt.compactTest.statements} runs it at another size.
     */
    static final int STATEMENTS = Integer.getInteger("basalt.compactTest.statements", 1_500_000);
    static final int PER_UPLOAD = 50_000;
    static final String KEPT = "SELECT (COUNT(*) AS ?n) (SUM(?o) AS ?sum) WHERE { ?s ?p ?o FILTER(?p IN (<" + EX + "p0>, <"
            + EX + "p5>, <" + EX + "p10>)) }";

    @TempDir
    Path data;

    @Test
    void deletesUnderLoadAreCompactedOnlineWithoutErrors() throws Exception {
        Path log = LauncherProcess.OUTPUT.resolve("launcher-online-compaction.log");
        String loadAtStart = loadAverage();
        long testStart = System.nanoTime();
        writeServerLogging(data);
        try (LauncherProcess launcher = new LauncherProcess(data, log, "--no-repository")) {
            runAndCheck(launcher, log, loadAtStart, testStart);
        } finally {
            // also when a client failed: the server's side of an error is in its log, and the
            // temporary directory goes with the test
            keepServerLogs();
        }
    }

    private void keepServerLogs() throws java.io.IOException {
        try (Stream<Path> logs = Files.walk(data)) {
            for (Path l : logs.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                Files.copy(l, LauncherProcess.OUTPUT.resolve("online-compaction-" + l.getFileName()),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private void runAndCheck(LauncherProcess launcher, Path log, String loadAtStart, long testStart) throws Exception {
        launcher.start();
        Rest rest = new Rest(launcher.serverUrl());
        assertEquals(204, rest.createRepository(REPO, ServerRestApiTest.config(REPO,
                "basalt:journalMode \"RW\" ; basalt:compactFreePercent \"70\"")).status());
        int subjects = STATEMENTS / 75;
        for (int b = 0; b * PER_UPLOAD < STATEMENTS; b++) {
            StringBuilder ttl = new StringBuilder();
            for (int i = b * PER_UPLOAD; i < Math.min(STATEMENTS, (b + 1) * PER_UPLOAD); i++) {
                ttl.append("<").append(EX).append("s").append(i % subjects).append("> <").append(EX).append("p")
                        .append(i / subjects % 15).append("> ").append(i).append(" .\n");
            }
            assertEquals(204, rest.add(REPO, "text/turtle", ttl.toString()).status());
        }
        String expected = rest.query(REPO, KEPT, "text/csv").body();
        Path journal = journal(data);

        Map<String, Boolean> acknowledged = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> clients = new java.util.ArrayList<>();
        for (int c0 = 0; c0 < CLIENTS; c0++) {
            int c = c0;
            clients.add(pool.submit(() -> {
            Rest client = new Rest(launcher.serverUrl());
            for (int n = 0; running.get(); n++) {
                if (n % 2 == 0) {
                    String id = "w" + c + "-" + n;
                    Rest.Response r = client.update(REPO, "INSERT DATA { <" + EX + id + "> <" + EX + "written> " + n + " }");
                    if (r.status() / 100 == 2) {
                        acknowledged.put(id, true);
                    } else {
                        errors.add("write " + id + ": " + r.status() + " " + r.body());
                    }
                } else {
                    Rest.Response r = client.query(REPO, KEPT, "text/csv");
                    reads.incrementAndGet();
                    if (r.status() != 200 || !r.body().equals(expected)) {
                        errors.add("read: " + r.status() + " " + r.body());
                    }
                }
            }
            }));
        }
        long peak = Files.size(journal);
        String loadAtDeletes = loadAverage();
        for (int p = 0; p < 15; p++) {
            if (p % 5 != 0) {
                assertEquals(204, rest.update(REPO, "DELETE WHERE { ?s <" + EX + "p" + p + "> ?o }").status());
                peak = Math.max(peak, Files.size(journal));
            }
        }
        long t0 = System.nanoTime();
        long size = Files.size(journal);
        long lastShrink = t0;
        // the policy checks after commits: the clients' writes keep committing. The compaction
        // shrinks the file round by round and waits for readers between rounds, so it is measured
        // once every compaction the policy started has logged its report and the file has not
        // shrunk for 3 s, not at its first drop below half the peak
        while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(300)
                && (size > peak / 2 || !compactionsFinished(data)
                        || System.nanoTime() - lastShrink < TimeUnit.SECONDS.toNanos(3))) {
            Thread.sleep(250);
            long now = Files.size(journal);
            if (now < size) {
                lastShrink = System.nanoTime();
            }
            size = now;
        }
        long settled = size;
        int writesAtSettled = acknowledged.size();
        long[] after = new long[4];
        for (int i = 0; i < after.length; i++) {
            Thread.sleep(500);
            after[i] = Files.size(journal);
        }
        int writesAfter = acknowledged.size() - writesAtSettled;
        running.set(false);
        for (Future<?> f : clients) {
            f.get(2, TimeUnit.MINUTES);
        }
        pool.shutdown();
        long online = Files.size(journal);
        String present = rest.query(REPO, "SELECT ?s WHERE { ?s <" + EX + "written> ?n }", "text/csv").body();
        long missing = acknowledged.keySet().stream().filter(id -> !present.contains(EX + id)).count();
        assertEquals(expected, rest.query(REPO, KEPT, "text/csv").body());
        java.time.Duration serverCpu = ProcessHandle.of(launcher.pid()).flatMap(h -> h.info().totalCpuDuration())
                .orElse(java.time.Duration.ZERO);
        launcher.stop();
        keepServerLogs();

        Path serverLog = LauncherProcess.OUTPUT.resolve("online-compaction-main.log");
        List<String> serverLines = Files.exists(serverLog) ? Files.readAllLines(serverLog) : List.of();
        String compactions = serverLines.stream().filter(l -> l.contains("online compaction:"))
                .map(l -> "- " + l.substring(l.indexOf("online compaction:"))).collect(Collectors.joining("\n"));
        String growth = regionsAtTheEndAfterTheLastCompaction(serverLines);

        Path copy = data.resolve("offline");
        Files.createDirectories(copy);
        Files.copy(journal, copy.resolve("basalt.jnl"));
        String keep = System.getProperty("basalt.compactTest.keep");
        if (keep != null) {
            // -Dbasalt.compactTest.keep=DIR keeps the online-compacted journal for a look at its trees
            Files.createDirectories(Path.of(keep));
            Files.copy(journal, Path.of(keep, "online.jnl"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), "dev.basalt.sail.cli.BasaltCli", "compact", "--store",
                copy.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(5, TimeUnit.MINUTES) && p.exitValue() == 0, out);
        long live = Files.size(copy.resolve("basalt.jnl"));
        String report = String.format("peak %,d bytes, after online compaction %,d bytes, offline-compacted copy %,d bytes"
                + " (%.2fx); %,d acknowledged writes, %d missing; %,d reads; %d errors", peak, online, live,
                (double) online / live, acknowledged.size(), missing, reads.get(), errors.size());
        String details = String.format("- file when it had not shrunk for 3 s: %,d bytes (%.2fx the copy); then every"
                        + " 0.5 s while the clients went on: %,d, %,d, %,d, %,d bytes; %,d acknowledged writes in"
                        + " those 2 s (%.0f/s)%n- load average (1, 5, 15 min): %s at the start, %s at the deletes,"
                        + " %s at the end%n- test %.1f s wall; server JVM %.1f s CPU (user+sys); test JVM %.1f s CPU%n"
                        + "- regions the allocator made at the file's end: %s",
                settled, (double) settled / live, after[0], after[1], after[2], after[3], writesAfter,
                writesAfter / 2.0, loadAtStart, loadAtDeletes, loadAverage(),
                (System.nanoTime() - testStart) / 1e9, serverCpu.toMillis() / 1000.0, testJvmCpuSeconds(), growth);
        Files.writeString(LauncherProcess.OUTPUT.resolve("online-compaction-report.md"),
                report + "\n" + details + "\n" + compactions + "\n");
        System.out.println(report);
        assertTrue(errors.isEmpty(), errors.size() + " errors, first: " + errors.peek());
        assertEquals(0, missing, report);
        assertTrue(peak >= 3 * live, "the deletes did not grow the file to 3x the live data: " + report);
        assertTrue(online <= 1.2 * live, report);
    }

    /**
     * Whether the server's log shows at least one online compaction started and every started one
     * reported as finished.
     */
    private static boolean compactionsFinished(Path data) throws java.io.IOException {
        List<String> lines;
        try (Stream<Path> walk = Files.walk(data)) {
            Path log = walk.filter(f -> f.getFileName().toString().equals("main.log")).findFirst().orElse(null);
            if (log == null) {
                return false;
            }
            lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
        }
        long started = lines.stream().filter(l -> l.contains("starting online compaction")).count();
        long reported = lines.stream().filter(l -> l.contains("online compaction:")).count();
        return started > 0 && reported >= started;
    }

    /**
     * The server's logging with the store's allocator at debug level, so the log names every region
     * made at the file's end and the free space by size class at that moment (the launcher writes its
     * own configuration only where none exists).
     */
    private static void writeServerLogging(Path data) throws Exception {
        Path conf = data.resolve(WebappAssembly.SERVER_LOG_CONFIG);
        Files.createDirectories(conf.getParent());
        String config;
        try (var in = WebappAssembly.class.getResourceAsStream("server/logback.xml")) {
            config = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Files.writeString(conf, config.replace("<root>",
                "<logger name=\"dev.basalt.store.journal.SlotAllocator\" level=\"DEBUG\"/>\n\t<root>"));
    }

    /**
     * How many regions the allocator made at the file's end after the last compaction's report (or,
     * if the server was stopped before a compaction reported, after the last one started), and the
     * last of them.
     */
    private static String regionsAtTheEndAfterTheLastCompaction(List<String> serverLines) {
        int last = -1;
        String after = "no compaction started";
        for (int i = 0; i < serverLines.size(); i++) {
            if (serverLines.get(i).contains("online compaction:")) {
                last = i;
                after = "after the last compaction report";
            } else if (serverLines.get(i).contains("starting online compaction")) {
                last = i;
                after = "after the last compaction started (it did not report before the server stopped)";
            }
        }
        List<String> made = serverLines.subList(last + 1, serverLines.size()).stream()
                .filter(l -> l.contains("at the file's end")).map(l -> l.substring(l.indexOf("new region"))).toList();
        return made.size() + " " + after + (made.isEmpty() ? "" : "; the last: " + made.get(made.size() - 1));
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static double testJvmCpuSeconds() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() / 1e9 : -1;
    }

    private static Path journal(Path data) throws Exception {
        try (Stream<Path> walk = Files.walk(data)) {
            return walk.filter(f -> f.getFileName().toString().equals("basalt.jnl")).findFirst().orElseThrow();
        }
    }
}
