package dev.basalt.workbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The third part of the launcher's warm-up, for the repositories that have no query log to replay ({@link
 * QueryLogReplay}; a store started for the first time has none): it reads a bounded sample of each such Basalt
 * repository over HTTP ({@link DataSample}), makes from it {@value #ENTRIES} queries of the shapes clients send with the
 * repository's own predicates, classes and values ({@link DataQueries}), and sends them as the replay sends a log,
 * with its pacing (rounds until the JIT settles, the wait for the compiler queue) and its caps. So the JIT compiles the
 * plans, operators, the lexicon's and B+trees' read paths and the result writers with profiles of the repository's
 * data, and the store's caches hold some of it, before the first client's query, as after a replay of its log.
 *
 * <p>It only reads: its sample and its queries are SELECT, ASK, DESCRIBE and CONSTRUCT sent as {@code GET ?query=},
 * which RDF4J Server evaluates as queries only. A repository whose sample fails or holds nothing to ask (an empty
 * store) is skipped with a line saying so; a failing query is counted and skipped ({@link QueryLogReplay}).
 *
 * <p>{@code -Dbasalt.server.warmup.data=N} sets the requests ({@value QueryLogReplay#DEFAULT_REQUESTS} unless set on
 * Java 17 to {@value QueryLogReplay#LAST_DEFAULT_RELEASE}, none unless set on later releases, as the replay), {@code 0}
 * turns it off; {@code -Dbasalt.server.warmup.dataRows=N} bounds what the sample reads ({@value #DEFAULT_ROWS} rows
 * unless set: the sum of its queries' {@code LIMIT}s), per repository.
 *
 * <p>Thread rules: the launcher's main thread calls {@link #run} once, after the catalogue's warm-up and the log's
 * replay and before it announces the server; the sample is read on that thread, and the queries are sent by {@link
 * QueryLogReplay}'s client threads, which share only the immutable entries and atomic counts.
 */
final class DataWarmup {
    static final String REQUESTS_PROPERTY = "basalt.server.warmup.data";
    static final String ROWS_PROPERTY = "basalt.server.warmup.dataRows";
    static final int DEFAULT_ROWS = 100_000;
    /** Queries made per repository, sent in turn as a log's entries are. */
    static final int ENTRIES = 4_000;
    /** The sampling's own caps, before the queries' ({@link QueryLogReplay#MAX_CPU_SECONDS}). */
    static final long SAMPLE_CPU_SECONDS = 20;
    static final long SAMPLE_WALL_SECONDS = 60;
    private static final Pattern REPOSITORY_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
    /** How a repository's configuration names a Basalt repository or store ({@code basalt:BasaltRepository}, ...). */
    private static final String BASALT_TYPE = "\"basalt:Basalt";

    private final String serverUrl;

    DataWarmup(String serverUrl) {
        this.serverUrl = serverUrl;
    }

    /** The requests {@code property} asks for on Java {@code javaRelease}; a clear error when not a count. */
    static int requests(String property, int javaRelease) {
        return ServerOptions.count(property, REQUESTS_PROPERTY,
                javaRelease <= QueryLogReplay.LAST_DEFAULT_RELEASE ? QueryLogReplay.DEFAULT_REQUESTS : 0,
                "a number of requests (0 for no data warm-up)");
    }

    /** The sample's bound {@code property} asks for; a clear error when not a count. */
    static int rows(String property) {
        return ServerOptions.count(property, ROWS_PROPERTY, DEFAULT_ROWS, "a number of rows (0 for no sample)");
    }

    /**
     * The Basalt repositories under {@code dataDir/server/repositories} that are not in {@code logged} and not the
     * catalogue's scratch repository, in the directory's order.
     */
    static List<String> repositories(Path dataDir, Set<String> logged) {
        Path root = dataDir.resolve("server").resolve("repositories");
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (var dirs = Files.list(root)) {
            return dirs.sorted().filter(d -> {
                String id = d.getFileName().toString();
                return REPOSITORY_ID.matcher(id).matches() && !logged.contains(id)
                        && !LauncherWarmup.REPOSITORY.equals(id) && isBasalt(d);
            }).map(d -> d.getFileName().toString()).toList();
        } catch (IOException e) {
            System.err.println("basalt-server: data warm-up: cannot list " + root + ": " + e);
            return List.of();
        }
    }

    private static boolean isBasalt(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".ttl")).toList()) {
                if (Files.readString(f).contains(BASALT_TYPE)) {
                    return true;
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
        return false;
    }

    /**
     * Samples {@code ids}, at most {@code rows} rows each, and sends what it made from them with {@code requests}
     * requests; returns the lines to print. Never throws for a failing repository or query.
     */
    List<String> run(List<String> ids, int requests, int rows) {
        long start = System.nanoTime();
        long startCpu = LauncherWarmup.processCpuNanos();
        LauncherWarmup.Budget budget = LauncherWarmup.Budget.fromNow(SAMPLE_CPU_SECONDS, SAMPLE_WALL_SECONDS);
        Map<String, List<QueryLog.Entry>> made = new LinkedHashMap<>();
        List<String> lines = new java.util.ArrayList<>();
        int sampled = 0;
        int bound = 0;
        int sampleRequests = 0;
        for (String id : ids) {
            try {
                DataSample sample = DataSample.read(DataSample.http(serverUrl + "/repositories/" + id), rows, budget);
                sampled += sample.statements().size();
                bound += sample.rowsBound();
                sampleRequests += sample.requests();
                List<QueryLog.Entry> entries = DataQueries.entries(sample, ENTRIES, 808L + id.hashCode());
                if (entries.isEmpty()) {
                    lines.add("data warm-up: nothing to ask of repository " + id + " (" + sample.statements().size()
                            + " statements read)");
                } else {
                    made.put(id, entries);
                }
            } catch (IOException | RuntimeException e) {
                lines.add("data warm-up: repository " + id + " skipped: " + e);
            }
        }
        String sampling = "data warm-up: sample of " + sampled + " statements (at most " + bound + " rows read, "
                + sampleRequests + " requests) in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                + " ms (JVM CPU " + TimeUnit.NANOSECONDS.toMillis(LauncherWarmup.processCpuNanos() - startCpu) + " ms)";
        lines.add(0, sampling);
        if (!made.isEmpty()) {
            lines.add(new QueryLogReplay(serverUrl).run(made, requests).describe("data warm-up", "generated"));
        }
        return lines;
    }
}
