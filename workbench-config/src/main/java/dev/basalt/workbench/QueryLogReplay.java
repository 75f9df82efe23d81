package dev.basalt.workbench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The second part of the launcher's warm-up: it sends each repository, over HTTP on the loopback, the queries the
 * server answered for it before it was last stopped ({@link QueryLog}), as they came (same text, same {@code Accept}
 * header, as {@code GET ?query=}, so only queries can run: RDF4J Server evaluates no update from that field). The JIT
 * then compiles the request path, the plans and the operators with the profiles of the clients' own queries, which
 * the warm-up's catalogue ({@link LauncherWarmup}) only approximates. A store started for the first time has no log,
 * and then nothing is replayed.
 *
 * <p>It sends {@code requests} requests in all, shared among the repositories by the size of their logs, each log
 * cycled from its oldest entry, from {@link LauncherWarmup#clientThreads} clients, then waits for the JIT's compiler
 * queue ({@link LauncherWarmup#drain}). A query that fails (the repository or the data changed) is counted and
 * skipped; a repository whose first {@value #PROBE} requests all fail is given up. It stops once the JVM has spent
 * {@value #MAX_CPU_SECONDS} s of CPU in it or after {@value #MAX_WALL_SECONDS} s of wall time.
 * {@code -Dbasalt.server.warmup.replay=N} sets {@code requests} ({@value #DEFAULT_REQUESTS} unless set on Java 17 to
 * {@value #LAST_DEFAULT_RELEASE}; none unless set on later releases, where the warm figure was worse after a replay in
 * every start measured, docs/benchmarks-coldstart.md); {@code 0}
 * turns the replay off.
 *
 * <p>Thread rules: the launcher's main thread calls {@link #run} once, after the catalogue's warm-up and before it
 * announces the server; {@code run} starts the client threads of one repository at a time and waits for them. Each
 * client thread sends the entries at its own positions (client {@code t} of {@code n}: positions {@code t}, {@code
 * t + n}, ...), through its own connections; they share only atomic counts and the immutable budget and entries.
 */
final class QueryLogReplay {
    static final String REQUESTS_PROPERTY = "basalt.server.warmup.replay";
    static final int DEFAULT_REQUESTS = 12_000;
    /** The last Java release on which the replay runs unless {@link #REQUESTS_PROPERTY} says otherwise. */
    static final int LAST_DEFAULT_RELEASE = 24;
    static final long MAX_CPU_SECONDS = 60;
    static final long MAX_WALL_SECONDS = 180;
    /** Requests after which a repository all of whose requests failed is given up. */
    static final int PROBE = 20;

    private final String serverUrl;

    QueryLogReplay(String serverUrl) {
        this.serverUrl = serverUrl;
    }

    /**
     * The requests {@code property} asks for on Java {@code javaRelease}: the release's default when unset; a clear
     * error when not a count.
     */
    static int requests(String property, int javaRelease) {
        return ServerOptions.count(property, REQUESTS_PROPERTY, javaRelease <= LAST_DEFAULT_RELEASE ? DEFAULT_REQUESTS : 0,
                "a number of requests (0 for no replay)");
    }

    /** What a replay did: logged queries found, requests sent, of them failed, wall, CPU and drain milliseconds. */
    record Outcome(int logged, int repositories, int requests, int failed, long wallMillis, long cpuMillis,
            long drainMillis, String limit) {
        String describe() {
            String done = "query-log replay: " + requests + " requests of " + logged + " logged queries to " + repositories
                    + (repositories == 1 ? " repository" : " repositories") + " in " + wallMillis + " ms (JVM CPU "
                    + cpuMillis + " ms; compiler queue drained in " + drainMillis + " ms), " + failed + " failed";
            return limit == null ? done : done + ", stopped at the " + limit;
        }
    }

    /**
     * How many of {@code requests} each of the logs gets: in proportion to its entries, at least one pass over a log
     * while there are requests for it. Same order as {@code sizes}.
     */
    static int[] shares(List<Integer> sizes, int requests) {
        long total = sizes.stream().mapToLong(Integer::longValue).sum();
        int[] shares = new int[sizes.size()];
        for (int i = 0; i < shares.length && total > 0; i++) {
            shares[i] = (int) (requests * (long) sizes.get(i) / total);
        }
        return shares;
    }

    /** Replays {@code logs} (per repository id) with {@code requests} requests; never throws for a failing request. */
    Outcome run(Map<String, List<QueryLog.Entry>> logs, int requests) {
        LauncherWarmup.Budget budget = LauncherWarmup.Budget.fromNow(MAX_CPU_SECONDS, MAX_WALL_SECONDS);
        List<String> ids = new ArrayList<>(logs.keySet());
        int[] shares = shares(ids.stream().map(id -> logs.get(id).size()).toList(), requests);
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        long drained = 0;
        for (int i = 0; i < ids.size() && budget.reached() == null; i++) {
            replay(serverUrl + "/repositories/" + ids.get(i), logs.get(ids.get(i)), shares[i], budget, sent, failed);
        }
        try {
            drained = LauncherWarmup.drain(ManagementFactory.getCompilationMXBean(), budget);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int logged = logs.values().stream().mapToInt(List::size).sum();
        return new Outcome(logged, ids.size(), sent.get(), failed.get(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - budget.startNanos()),
                TimeUnit.NANOSECONDS.toMillis(LauncherWarmup.processCpuNanos() - budget.startCpuNanos()), drained,
                budget.reached());
    }

    private static void replay(String url, List<QueryLog.Entry> entries, int share, LauncherWarmup.Budget budget,
            AtomicInteger sent, AtomicInteger failed) {
        int threads = LauncherWarmup.clientThreads(Runtime.getRuntime().availableProcessors(), share);
        AtomicInteger mine = new AtomicInteger();
        AtomicInteger bad = new AtomicInteger();
        LauncherWarmup.onClients(threads, "basalt-replay-client-", client -> {
            for (int k = client; k < share && budget.reached() == null; k += threads) {
                int done = mine.incrementAndGet();
                if (done > PROBE && bad.get() >= done - 1) {
                    return;
                }
                QueryLog.Entry e = entries.get(k % entries.size());
                try {
                    LauncherWarmup.get(url + "?query=" + e.encoded(),
                            e.accept().isEmpty() ? "*/*" : e.accept());
                } catch (IOException | RuntimeException ex) {
                    bad.incrementAndGet();
                    failed.incrementAndGet();
                }
                sent.incrementAndGet();
            }
        });
    }
}
