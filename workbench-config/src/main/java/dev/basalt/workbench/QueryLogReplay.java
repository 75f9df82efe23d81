package dev.basalt.workbench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The second part of the launcher's warm-up: it sends each repository, over HTTP on the loopback, the queries the
 * server answered for it before it was last stopped ({@link QueryLog}), as they came (same text, same {@code Accept}
 * header, as {@code GET ?query=}, so only queries can run: RDF4J Server evaluates no update from that field). The JIT
 * then compiles the request path, the plans and the operators with the profiles of the clients' own queries, which
 * the warm-up's catalogue ({@link LauncherWarmup}) only approximates. A store started for the first time has no log,
 * and then nothing is replayed.
 *
 * <p>It sends {@code requests} requests, shared among the repositories by the size of their logs, each log cycled
 * from its oldest entry, from {@link LauncherWarmup#clientThreads} clients; then, while the JIT has not settled, rounds
 * of {@value #ROUND} more (each log continuing where it stopped), up to {@value #MAX_FACTOR} times {@code requests} in
 * all: the JIT has settled when its compiler threads compiled for at most {@value #SETTLED_SHARE} of a round's wall
 * time. Then it waits for the JIT's compiler queue ({@link LauncherWarmup#drain}) until {@value #QUIET_POLLS} polls in
 * a row find the compiler threads at most that busy. What the replay leaves compiling when the launcher announces
 * itself is compiled during the clients' first queries, on their CPU. A query that fails (the repository or the data
 * changed, or an update that found its way into the file: the endpoint evaluates queries only) is counted and
 * skipped; a repository whose first {@value #PROBE} requests all fail is given up. It stops once the JVM has spent
 * {@value #MAX_CPU_SECONDS} s of CPU in it or after {@value #MAX_WALL_SECONDS} s of wall time.
 * {@code -Dbasalt.server.warmup.replay=N} sets {@code requests} ({@value #DEFAULT_REQUESTS} unless set on Java 17 to
 * {@value #LAST_DEFAULT_RELEASE}; none unless set on later releases, where the warm figure was worse after a replay in
 * every start measured, docs/benchmarks-coldstart.md); {@code 0}
 * turns the replay off.
 *
 * <p>Thread rules: the launcher's main thread calls {@link #run} once, after the catalogue's warm-up and before it
 * announces the server; {@code run} starts, round after round, the client threads of one repository at a time and
 * waits for them. Each client thread sends the entries at its own positions of the round (client {@code t} of {@code
 * n}: positions {@code t}, {@code t + n}, ... after where the round starts), through its own connections; they share only atomic counts and the immutable budget and entries.
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
    /** Requests per round after the first {@code requests}, while the JIT has not settled. */
    static final int ROUND = 1_000;
    /** The most requests sent, as a multiple of those asked for, while waiting for the JIT to settle. */
    static final int MAX_FACTOR = 3;
    /**
     * The JIT has settled when its compiler threads compiled for at most this share of a round's (or a poll's) wall
     * time; stricter than the catalogue's warm-up ({@link LauncherWarmup#SETTLED_SHARE}), since what the replay
     * leaves compiling falls on the clients' first queries.
     */
    static final double SETTLED_SHARE = 0.10;
    /** Polls in a row at which the final wait must find the compiler threads settled. */
    static final int QUIET_POLLS = 2;

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

    /**
     * What a replay did: logged queries found, repositories, requests sent (of them {@code extra} in rounds after the
     * first {@code requests} while the JIT had not settled), of them failed, wall, CPU and drain milliseconds, the
     * limit that stopped it (null if none).
     */
    record Outcome(int logged, int repositories, int requests, int extra, int failed, long wallMillis, long cpuMillis,
            long drainMillis, String limit) {
        String describe() {
            return describe("query-log replay", "logged");
        }

        /** The line the launcher prints, beginning with {@code name}, the queries called {@code kind} ones. */
        String describe(String name, String kind) {
            String done = name + ": " + requests + " requests" + (extra > 0 ? " (" + extra
                    + " of them until the JIT settled)" : "") + " of " + logged + " " + kind + " queries to " + repositories
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
        return run(logs, requests, LauncherWarmup.Budget.fromNow(MAX_CPU_SECONDS, MAX_WALL_SECONDS),
                ManagementFactory.getCompilationMXBean());
    }

    /**
     * {@link #run(Map, int)} within {@code budget}, reading the JIT's progress from {@code jit} (null: no rounds after
     * the first {@code requests} and no wait for the compiler queue).
     */
    Outcome run(Map<String, List<QueryLog.Entry>> logs, int requests, LauncherWarmup.Budget budget,
            CompilationMXBean jit) {
        List<String> ids = new ArrayList<>(logs.keySet());
        List<Integer> sizes = ids.stream().map(id -> logs.get(id).size()).toList();
        int[] next = new int[ids.size()];
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        long drained = 0;
        int extra = 0;
        try {
            replayRound(ids, logs, shares(sizes, requests), next, budget, sent, failed);
            boolean watch = jit != null && jit.isCompilationTimeMonitoringSupported();
            while (watch && sent.get() < (long) MAX_FACTOR * requests && budget.reached() == null) {
                long wall = System.nanoTime();
                long compile = jit.getTotalCompilationTime();
                int before = sent.get();
                List<Integer> active = new ArrayList<>();
                for (int i = 0; i < ids.size(); i++) {
                    active.add(next[i] < 0 ? 0 : sizes.get(i));
                }
                replayRound(ids, logs, shares(active, (int) Math.min(ROUND, (long) MAX_FACTOR * requests - before)),
                        next, budget, sent, failed);
                extra += sent.get() - before;
                if (sent.get() == before || LauncherWarmup.settled(jit.getTotalCompilationTime() - compile,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wall), SETTLED_SHARE)) {
                    break;
                }
            }
            drained = LauncherWarmup.drain(jit, budget, SETTLED_SHARE, QUIET_POLLS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int logged = logs.values().stream().mapToInt(List::size).sum();
        return new Outcome(logged, ids.size(), sent.get(), extra, failed.get(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - budget.startNanos()),
                TimeUnit.NANOSECONDS.toMillis(LauncherWarmup.processCpuNanos() - budget.startCpuNanos()), drained,
                budget.reached());
    }

    /**
     * Sends each repository its share of a round, from its log's position {@code next[i]} on, and moves that position
     * past what was sent; a repository given up earlier ({@code next[i] < 0}) is skipped.
     */
    private void replayRound(List<String> ids, Map<String, List<QueryLog.Entry>> logs, int[] shares, int[] next,
            LauncherWarmup.Budget budget, AtomicInteger sent, AtomicInteger failed) {
        for (int i = 0; i < ids.size() && budget.reached() == null; i++) {
            if (next[i] < 0 || shares[i] == 0) {
                continue;
            }
            boolean givenUp = replay(serverUrl + "/repositories/" + ids.get(i), logs.get(ids.get(i)), next[i], shares[i],
                    budget, sent, failed);
            next[i] = givenUp ? -1 : (int) ((next[i] + (long) shares[i]) % logs.get(ids.get(i)).size());
        }
    }

    /**
     * Sends {@code share} requests of {@code entries}, from position {@code from} on, cycling; true if the repository
     * was given up (its first {@value #PROBE} requests of this call all failed).
     */
    private static boolean replay(String url, List<QueryLog.Entry> entries, int from, int share,
            LauncherWarmup.Budget budget, AtomicInteger sent, AtomicInteger failed) {
        int threads = LauncherWarmup.clientThreads(Runtime.getRuntime().availableProcessors(), share);
        AtomicInteger mine = new AtomicInteger();
        AtomicInteger answered = new AtomicInteger();
        AtomicBoolean givenUp = new AtomicBoolean();
        LauncherWarmup.onClients(threads, "basalt-replay-client-", client -> {
            for (int k = client; k < share && budget.reached() == null; k += threads) {
                // counted before the request, answers after it: none answered of more than PROBE sent means all failed
                if (mine.incrementAndGet() > PROBE && answered.get() == 0) {
                    givenUp.set(true);
                    return;
                }
                QueryLog.Entry e = entries.get((int) ((from + (long) k) % entries.size()));
                try {
                    LauncherWarmup.get(url + "?query=" + e.encoded(),
                            e.accept().isEmpty() ? "*/*" : e.accept());
                    answered.incrementAndGet();
                } catch (IOException | RuntimeException ex) {
                    failed.incrementAndGet();
                }
                sent.incrementAndGet();
            }
        });
        return givenUp.get();
    }
}
