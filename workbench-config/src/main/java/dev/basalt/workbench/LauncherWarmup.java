package dev.basalt.workbench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The launcher's warm-up: after Jetty has started and before the launcher prints its URL, it sends its own
 * server the requests a SPARQL client sends, over HTTP on the loopback, so that the JIT compiles the request
 * path (Jetty, the SPARQL fast path, the query front door, the plan's operators, the B+trees and the lexicon,
 * the result writers, and the connection path that DESCRIBE, CONSTRUCT, ASK and updates take) before the
 * first client's query rather than during its first thousands of queries.
 *
 * <p>It runs against a scratch repository, {@value #REPOSITORY}, which it creates with the launcher's default
 * configuration, fills with a small generated catalogue ({@link WarmupData}) and deletes when done (and, should a
 * killed launcher have left it, before it starts); the user's repositories are not read or written. It sends
 * {@link WarmupData#queries} in turn from {@link #clientThreads} clients at once, each request with other
 * constants, {@code queries} requests (the updates among them only at first, {@link #MAX_UPDATE_PHASE}), then
 * more while the JIT is still compiling much ({@link #sendQueries}), and stops early after {@value #MAX_SECONDS}
 * seconds. A request that fails ends the warm-up with a warning on standard error; the launcher serves regardless.
 *
 * <p>{@code -Dbasalt.server.warmup=N} sets the number of requests before the JIT's progress is checked
 * ({@value #DEFAULT_REQUESTS} unless set), {@code 0} turns the warm-up off. The launcher prints the warm-up's
 * requests, wall time and the CPU the JVM spent in it.
 *
 * <p>Thread rules: the launcher's main thread calls {@link #run} once, before it announces the server; {@code run}
 * starts, round after round, {@link #clientThreads} client threads that send their shares of the round's requests
 * at the same time (each its own connections, {@link Random} and count; they share only the atomic count of
 * requests sent and the first failure, which stops the others) and waits for them before the next round.
 */
final class LauncherWarmup {
    static final String REPOSITORY = "basalt-launcher-warmup";
    static final String REQUESTS_PROPERTY = "basalt.server.warmup";
    static final int DEFAULT_REQUESTS = 16_000;
    static final long MAX_SECONDS = 120;
    /**
     * Updates are sent only among the first tenth of the requests, and among at most this many: each commit makes
     * a new store state, on which every shape's first query compiles its plan again, whereas a server mostly
     * answers queries of a state whose plans it keeps.
     */
    static final int MAX_UPDATE_PHASE = 1_000;
    /** Requests per round after the first ones, while the JIT has not settled ({@link #sendQueries}). */
    static final int ROUND = 1_000;
    /** The most requests sent, as a multiple of those asked for, while waiting for the JIT to settle. */
    static final int MAX_FACTOR = 2;
    /**
     * The JIT has settled when its compiler threads compiled for at most this share of a round's wall time (the
     * JVM's accumulated compilation time, {@link CompilationMXBean#getTotalCompilationTime}).
     */
    static final double SETTLED_SHARE = 0.25;
    /** The most client threads the warm-up uses ({@link #clientThreads}). */
    static final int MAX_CLIENT_THREADS = 4;
    private static final int MIN_SHARE = 20;
    private static final int TIMEOUT_MS = 60_000;

    private final String repositoryUrl;

    LauncherWarmup(String serverUrl) {
        this.repositoryUrl = serverUrl + "/repositories/" + REPOSITORY;
    }

    /** The requests {@code property} asks for: the default when unset; a clear error when not a count. */
    static int requests(String property) {
        if (property == null || property.isBlank()) {
            return DEFAULT_REQUESTS;
        }
        try {
            int n = Integer.parseInt(property.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + REQUESTS_PROPERTY + " must be a number of requests (0 for no warm-up), got '"
                + property + "'");
    }

    /** What one warm-up did: requests sent, wall and CPU milliseconds, and the failure that ended it, if any. */
    record Outcome(int requests, long wallMillis, long cpuMillis, String failure) {
        String describe() {
            String done = "warm-up: " + requests + " requests in " + wallMillis + " ms (JVM CPU " + cpuMillis + " ms)";
            return failure == null ? done : done + ", ended early: " + failure;
        }
    }

    /** Runs the warm-up with {@code requests} requests; never throws for a failing request. */
    Outcome run(int requests) {
        long wall = System.nanoTime();
        long cpu = processCpuNanos();
        int sent = 0;
        String failure = null;
        try {
            send("DELETE", repositoryUrl, null, null, true);
            send("PUT", repositoryUrl, "text/turtle",
                    RepositoryBootstrap.defaultConfig(REPOSITORY, "launcher warm-up (deleted after it)"), false);
            try {
                send("PUT", repositoryUrl + "/statements", "application/n-triples", WarmupData.ntriples(), false);
                sent = sendQueries(requests, wall);
            } finally {
                send("DELETE", repositoryUrl, null, null, true);
            }
        } catch (IOException | RuntimeException e) {
            failure = e.toString();
        }
        return new Outcome(sent, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wall),
                TimeUnit.NANOSECONDS.toMillis(processCpuNanos() - cpu), failure);
    }

    /**
     * Sends {@code requests} requests, then rounds of {@value #ROUND} more while the JIT has not settled ({@link
     * #settled}), up to {@value #MAX_FACTOR} times {@code requests} in all; stops at the first failure or the deadline.
     * The JIT's progress depends on the CPU it gets: on a busy machine its compiler threads fall behind the requests,
     * and what they have not compiled by the end of a fixed warm-up they compile during the first client queries.
     */
    private int sendQueries(int requests, long started) throws IOException {
        long deadline = started + TimeUnit.SECONDS.toNanos(MAX_SECONDS);
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean watch = jit != null && jit.isCompilationTimeMonitoringSupported();
        int sent = sendRound(requests, 0, Math.min(requests / 10, MAX_UPDATE_PHASE), deadline);
        for (int round = 1; watch && sent < MAX_FACTOR * requests && System.nanoTime() < deadline; round++) {
            long wall = System.nanoTime();
            long compile = jit.getTotalCompilationTime();
            sent += sendRound(Math.min(ROUND, MAX_FACTOR * requests - sent), round, 0, deadline);
            long roundMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wall);
            if (settled(jit.getTotalCompilationTime() - compile, roundMillis)) {
                break;
            }
        }
        return sent;
    }

    /** Whether the JIT, having compiled for {@code compileMillis} during a round of {@code wallMillis}, has settled. */
    static boolean settled(long compileMillis, long wallMillis) {
        return compileMillis <= SETTLED_SHARE * wallMillis;
    }

    /**
     * Sends {@code requests} requests from {@link #clientThreads} threads, each its share with constants of its own
     * and of {@code round}, starting at another kind, the updates (among the first {@code updatesUntil} of its
     * share) all from the first; stops them all at the first failure or the deadline.
     */
    private int sendRound(int requests, int round, int updatesUntil, long deadline) throws IOException {
        int threads = clientThreads(Runtime.getRuntime().availableProcessors(), requests);
        AtomicInteger sent = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int client = t;
            int share = requests / threads + (t < requests % threads ? 1 : 0);
            Thread w = new Thread(() -> {
                try {
                    sendShare(client + threads * round, share, client == 0 ? updatesUntil : 0, deadline, sent,
                            failure);
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, "basalt-warmup-client-" + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        try {
            for (Thread w : workers) {
                w.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
        }
        Exception e = failure.get();
        if (e instanceof IOException io) {
            throw io;
        } else if (e != null) {
            throw new IllegalStateException(e.toString(), e);
        }
        return sent.get();
    }

    /**
     * Client threads for the warm-up: one per processor, at most {@value #MAX_CLIENT_THREADS}, and no more than give
     * each at least {@value #MIN_SHARE} requests. On a machine with two processors, two clients keep both busy (the
     * server's request threads and the JIT's compiler threads share them), so the warm-up takes about half the wall
     * time of one client for about the same CPU.
     */
    static int clientThreads(int processors, int requests) {
        return Math.max(1, Math.min(Math.min(processors, MAX_CLIENT_THREADS), requests / MIN_SHARE));
    }

    private void sendShare(int client, int share, int updatesUntil, long deadline, AtomicInteger sent,
            AtomicReference<Exception> failure) throws IOException {
        List<WarmupData.Request> kinds = WarmupData.queries();
        Random random = new Random(808 + client);
        int mine = 0;
        for (int k = client * 5 % kinds.size(); mine < share && failure.get() == null && System.nanoTime() < deadline; k++) {
            WarmupData.Request kind = kinds.get(k % kinds.size());
            if (kind.update() && mine >= updatesUntil) {
                continue;
            }
            String text = kind.text(random);
            if (kind.update()) {
                send("POST", repositoryUrl + "/statements", "application/x-www-form-urlencoded",
                        "update=" + URLEncoder.encode(text, StandardCharsets.UTF_8), false);
            } else {
                get(repositoryUrl + "?query=" + URLEncoder.encode(text, StandardCharsets.UTF_8),
                        mine % 8 == 7 ? kind.otherAccept() : kind.accept());
            }
            mine++;
            sent.incrementAndGet();
        }
    }

    private static void get(String url, String accept) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(TIMEOUT_MS);
        c.setReadTimeout(TIMEOUT_MS);
        c.setRequestProperty("Accept", accept);
        finish(c, "GET " + url, false);
    }

    private static void send(String method, String url, String contentType, String body, boolean absentIsFine)
            throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(TIMEOUT_MS);
        c.setReadTimeout(TIMEOUT_MS);
        c.setRequestMethod(method);
        if (body != null) {
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", contentType);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            c.setFixedLengthStreamingMode(bytes.length);
            try (OutputStream out = c.getOutputStream()) {
                out.write(bytes);
            }
        }
        finish(c, method + " " + url, absentIsFine);
    }

    /** Reads the whole answer (so the connection is kept for the next request); fails on a status not 2xx. */
    private static void finish(HttpURLConnection c, String what, boolean absentIsFine) throws IOException {
        int status = c.getResponseCode();
        InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
        byte[] buffer = new byte[8192];
        StringBuilder start = new StringBuilder();
        if (in != null) {
            try (in) {
                for (int n; (n = in.read(buffer)) >= 0;) {
                    if (status >= 300 && start.length() < 300) {
                        start.append(new String(buffer, 0, Math.min(n, 300), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        if (status / 100 != 2 && !(absentIsFine && status == 404)) {
            throw new IOException((what.length() > 200 ? what.substring(0, 200) + "..." : what) + " answered HTTP "
                    + status + ": " + start);
        }
    }

    /** CPU of this JVM's threads so far (all threads: the server's and the compiler's, as a process monitor sees it). */
    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.getCurrentThreadCpuTime();
    }
}
