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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

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
 * more while the JIT is still compiling much ({@link #sendQueries}), then waits while the JIT's compiler threads
 * work through their queue ({@link #drain}). It stops early once the JVM has spent {@value #MAX_CPU_SECONDS} s of
 * CPU in it, or after {@value #MAX_WALL_SECONDS} s of wall time ({@link Budget}). A request that fails ends the
 * warm-up with a warning on standard error; the launcher serves regardless.
 *
 * <p>{@code -Dbasalt.server.warmup=N} sets the number of requests before the JIT's progress is checked
 * ({@value #DEFAULT_REQUESTS} unless set), {@code 0} turns the warm-up off. The launcher prints the warm-up's
 * requests, wall time, the CPU the JVM spent in it and the wait for the compiler threads.
 *
 * <p>Thread rules: the launcher's main thread calls {@link #run} once, before it announces the server; {@code run}
 * starts, round after round, {@link #clientThreads} client threads that send their shares of the round's requests
 * at the same time (each its own connections, {@link Random} and count; they share only the atomic count of
 * requests sent and the first failure, which stops the others; the {@link Budget} they read is immutable) and
 * waits for them before the next round.
 */
final class LauncherWarmup {
    static final String REPOSITORY = "basalt-launcher-warmup";
    static final String REQUESTS_PROPERTY = "basalt.server.warmup";
    static final int DEFAULT_REQUESTS = 16_000;
    /**
     * The most CPU the JVM may spend in the warm-up, in seconds (all its threads: the server's answering the warm-up,
     * its clients', the JIT's compiler threads'). The warm-up ends on work done rather than on wall time, so a busy
     * machine, where it gets a small share of a core, still completes it; 16,000 requests and twice that cost about
     * 20-35 s.
     */
    static final long MAX_CPU_SECONDS = 90;
    /** The most wall time the warm-up may take, in seconds, however little CPU it gets. */
    static final long MAX_WALL_SECONDS = 240;
    /** How often the JIT's progress is read while the warm-up waits for its compiler threads ({@link #drain}). */
    static final long DRAIN_POLL_MILLIS = 500;
    /** The longest the warm-up waits for the compiler threads at a time, in seconds. */
    static final long MAX_DRAIN_SECONDS = 30;
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
    /** The {@code User-Agent} of the warm-ups' requests that name their client ({@link #get}). */
    static final String USER_AGENT = "basalt-launcher-warmup";

    private final String repositoryUrl;
    /** Wall milliseconds spent waiting for the compiler threads (main thread only). */
    private long drainedMillis;

    LauncherWarmup(String serverUrl) {
        this.repositoryUrl = serverUrl + "/repositories/" + REPOSITORY;
    }

    /** The requests {@code property} asks for: the default when unset; a clear error when not a count. */
    static int requests(String property) {
        return ServerOptions.count(property, REQUESTS_PROPERTY, DEFAULT_REQUESTS, "a number of requests (0 for no warm-up)");
    }

    /**
     * What one warm-up did: requests sent, wall and CPU milliseconds, the wall milliseconds of them it waited for the
     * compiler threads (after its last request and before each round after the first), why it stopped early if a
     * limit stopped it (null if not), and the
     * failure that ended it, if any.
     */
    record Outcome(int requests, long wallMillis, long cpuMillis, long drainMillis, String limit, String failure) {
        String describe() {
            String done = "warm-up: " + requests + " requests in " + wallMillis + " ms (JVM CPU " + cpuMillis
                    + " ms; compiler queue drained in " + drainMillis + " ms)";
            if (limit != null) {
                done += ", stopped at the " + limit;
            }
            return failure == null ? done : done + ", ended early: " + failure;
        }
    }

    /**
     * The warm-up's limits: {@value #MAX_CPU_SECONDS} s of the JVM's CPU and {@value #MAX_WALL_SECONDS} s of wall
     * time from its start. Read by every client thread; its fields are final.
     */
    record Budget(long startNanos, long startCpuNanos, long maxCpuNanos, long maxWallNanos) {
        static Budget fromNow() {
            return fromNow(MAX_CPU_SECONDS, MAX_WALL_SECONDS);
        }

        /** A budget of {@code cpuSeconds} of the JVM's CPU and {@code wallSeconds} of wall time from now. */
        static Budget fromNow(long cpuSeconds, long wallSeconds) {
            return new Budget(System.nanoTime(), processCpuNanos(), TimeUnit.SECONDS.toNanos(cpuSeconds),
                    TimeUnit.SECONDS.toNanos(wallSeconds));
        }

        /** The limit reached now (a description), or null while the warm-up may go on. */
        String reached(long nowNanos, long cpuNanos) {
            if (cpuNanos - startCpuNanos > maxCpuNanos) {
                return "CPU cap of " + TimeUnit.NANOSECONDS.toSeconds(maxCpuNanos) + " s";
            }
            if (nowNanos - startNanos > maxWallNanos) {
                return "wall-time cap of " + TimeUnit.NANOSECONDS.toSeconds(maxWallNanos) + " s";
            }
            return null;
        }

        String reached() {
            return reached(System.nanoTime(), processCpuNanos());
        }
    }

    /** Runs the warm-up with {@code requests} requests; never throws for a failing request. */
    Outcome run(int requests) {
        Budget budget = Budget.fromNow();
        int sent = 0;
        String failure = null;
        try {
            send("DELETE", repositoryUrl, null, null, true);
            send("PUT", repositoryUrl, "text/turtle",
                    RepositoryBootstrap.defaultConfig(REPOSITORY, "launcher warm-up (deleted after it)"), false);
            try {
                send("PUT", repositoryUrl + "/statements", "application/n-triples", WarmupData.ntriples(), false);
                sent = sendQueries(requests, budget);
            } finally {
                send("DELETE", repositoryUrl, null, null, true);
            }
            drainedMillis += drain(ManagementFactory.getCompilationMXBean(), budget);
        } catch (IOException | RuntimeException e) {
            failure = e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = e.toString();
        }
        return new Outcome(sent, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - budget.startNanos()),
                TimeUnit.NANOSECONDS.toMillis(processCpuNanos() - budget.startCpuNanos()), drainedMillis, budget.reached(),
                failure);
    }

    /**
     * Waits, sending nothing, while the JIT's compiler threads work through what the requests left in their queue:
     * until they compiled for at most {@link #SETTLED_SHARE} of a {@value #DRAIN_POLL_MILLIS} ms interval,
     * {@value #MAX_DRAIN_SECONDS} s have passed or the budget is spent. On a busy machine the compiler threads fall
     * behind the requests, and what is still queued when the warm-up ends would be compiled during the first client
     * queries. Returns the milliseconds waited.
     */
    static long drain(CompilationMXBean jit, Budget budget) throws InterruptedException {
        return drain(jit, budget, SETTLED_SHARE, 1);
    }

    /**
     * {@link #drain(CompilationMXBean, Budget)} with another test of "settled": the compiler threads compiled for at
     * most {@code share} of each of {@code quietPolls} intervals in a row.
     */
    static long drain(CompilationMXBean jit, Budget budget, double share, int quietPolls) throws InterruptedException {
        long start = System.nanoTime();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return 0;
        }
        long end = start + TimeUnit.SECONDS.toNanos(MAX_DRAIN_SECONDS);
        int quiet = 0;
        while (System.nanoTime() < end && budget.reached() == null) {
            long compile = jit.getTotalCompilationTime();
            long interval = System.nanoTime();
            Thread.sleep(DRAIN_POLL_MILLIS);
            boolean settled = settled(jit.getTotalCompilationTime() - compile,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - interval), share);
            quiet = settled ? quiet + 1 : 0;
            if (quiet >= quietPolls) {
                break;
            }
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /**
     * Sends {@code requests} requests, then rounds of {@value #ROUND} more while the JIT has not settled ({@link
     * #settled}), up to {@value #MAX_FACTOR} times {@code requests} in all; stops at the first failure or when the
     * {@link Budget} is spent. Before each round it lets the compiler threads empty their queue ({@link #drain}), so
     * that a round's compile time is what the round itself asked for.
     * The JIT's progress depends on the CPU it gets: on a busy machine its compiler threads fall behind the requests,
     * and what they have not compiled by the end of a fixed warm-up they compile during the first client queries;
     * while its queue is long, tiered compilation also compiles hot methods without profiling (tier 2), and they
     * reach C2 only when later calls find the queue short again.
     */
    private int sendQueries(int requests, Budget budget) throws IOException, InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean watch = jit != null && jit.isCompilationTimeMonitoringSupported();
        int sent = sendRound(requests, 0, Math.min(requests / 10, MAX_UPDATE_PHASE), budget);
        for (int round = 1; watch && sent < MAX_FACTOR * requests && budget.reached() == null; round++) {
            drainedMillis += drain(jit, budget);
            long wall = System.nanoTime();
            long compile = jit.getTotalCompilationTime();
            sent += sendRound(Math.min(ROUND, MAX_FACTOR * requests - sent), round, 0, budget);
            long roundMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wall);
            if (settled(jit.getTotalCompilationTime() - compile, roundMillis)) {
                break;
            }
        }
        return sent;
    }

    /** Whether the JIT, having compiled for {@code compileMillis} during a round of {@code wallMillis}, has settled. */
    static boolean settled(long compileMillis, long wallMillis) {
        return settled(compileMillis, wallMillis, SETTLED_SHARE);
    }

    /** Whether {@code compileMillis} of compilation during {@code wallMillis} is at most {@code share} of it. */
    static boolean settled(long compileMillis, long wallMillis, double share) {
        return compileMillis <= share * wallMillis;
    }

    /**
     * Sends {@code requests} requests from {@link #clientThreads} threads, each its share with constants of its own
     * and of {@code round}, starting at another kind, the updates (among the first {@code updatesUntil} of its
     * share) all from the first; stops them all at the first failure or when the budget is spent.
     */
    private int sendRound(int requests, int round, int updatesUntil, Budget budget) throws IOException {
        int threads = clientThreads(Runtime.getRuntime().availableProcessors(), requests);
        AtomicInteger sent = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        boolean done = onClients(threads, "basalt-warmup-client-", client -> {
            int share = requests / threads + (client < requests % threads ? 1 : 0);
            try {
                sendShare(client + threads * round, share, client == 0 ? updatesUntil : 0, budget, sent, failure);
            } catch (IOException | RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        });
        if (!done) {
            failure.compareAndSet(null, new InterruptedException("warm-up interrupted"));
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
     * Runs {@code client} with the numbers 0 to {@code threads - 1}, each on a daemon thread of its own named {@code
     * name} and the number, and waits for them all; false if this thread was interrupted while it waited.
     */
    static boolean onClients(int threads, String name, IntConsumer client) {
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int number = t;
            Thread w = new Thread(() -> client.accept(number), name + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        try {
            for (Thread w : workers) {
                w.join();
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
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

    private void sendShare(int client, int share, int updatesUntil, Budget budget, AtomicInteger sent,
            AtomicReference<Exception> failure) throws IOException {
        List<WarmupData.Request> kinds = WarmupData.queries();
        Random random = new Random(808 + client);
        int mine = 0;
        for (int k = client * 5 % kinds.size(); mine < share && failure.get() == null && budget.reached() == null; k++) {
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

    /**
     * A {@code GET} of {@code url} with {@code accept}, its answer read to the end. Half of them, at random, name their
     * client in a {@code User-Agent} header ahead of {@code Accept}, as many clients do, so that the server's header
     * parsing and lookups are compiled for {@code Accept} in either place (the JDK's client otherwise sends it first).
     */
    static void get(String url, String accept) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setConnectTimeout(TIMEOUT_MS);
        c.setReadTimeout(TIMEOUT_MS);
        if (ThreadLocalRandom.current().nextBoolean()) {
            c.setRequestProperty("User-Agent", USER_AGENT);
        }
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
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.getCurrentThreadCpuTime();
    }
}
