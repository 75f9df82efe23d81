package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 3 of issue 6: 8 concurrent HTTP clients send a mix of queries and small update
 * transactions to one Basalt repository for 10 minutes (-Dbasalt.load.seconds=N to change); no
 * request may fail, and every acknowledged update must be there afterwards, also after a restart.
 * Tagged {@code long}: run it with
 * {@code mvn -B verify -pl workbench-config -am -Dbasalt.excludedGroups= -Dtest=ServerLoadTest -Dsurefire.failIfNoSpecifiedTests=false}.
 * Writes its numbers to target/load-report.md.
 */
@Tag("long")
class ServerLoadTest {
    static final String REPO = "load";
    static final int CLIENTS = 8;
    static final int PRELOAD_PEOPLE = 5_000;
    static final String EX = "http://example.org/";

    @TempDir
    Path data;

    record Op(String kind, long nanos) {
    }

    @Test
    void eightClientsMixQueriesAndUpdatesWithoutErrorsOrLostWrites() throws Exception {
        long seconds = Long.getLong("basalt.load.seconds", 600);
        try (LauncherProcess launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-load.log"),
                "--no-repository")) {
            launcher.start();
            Rest setup = new Rest(launcher.serverUrl());
            assertEquals(204, setup.createRepository(REPO, ServerRestApiTest.config(REPO, "basalt:journalMode \"RW\"")).status());
            assertEquals(204, setup.add(REPO, "text/turtle", ServerRestApiTest.people(0, PRELOAD_PEOPLE)).status());
            long preloaded = setup.size(REPO);

            ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Op> ops = new ConcurrentLinkedQueue<>();
            AtomicLong updatesSent = new AtomicLong();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> clients = new ArrayList<>();
            long started = System.nanoTime();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                clients.add(pool.submit(() -> runClient(client, new Rest(launcher.serverUrl()), end, acknowledged,
                        errors, ops, updatesSent)));
            }
            for (Future<?> f : clients) {
                f.get();
            }
            pool.shutdown();
            double elapsed = (System.nanoTime() - started) / 1e9;

            Set<String> present = updateIds(setup);
            List<String> lost = acknowledged.stream().filter(id -> !present.contains(id)).toList();
            launcher.stop();
            launcher.start();
            Rest after = new Rest(launcher.serverUrl());
            Set<String> presentAfterRestart = updateIds(after);
            List<String> lostAfterRestart = acknowledged.stream().filter(id -> !presentAfterRestart.contains(id)).toList();
            long finalSize = after.size(REPO);

            String report = report(seconds, elapsed, new ArrayList<>(ops), acknowledged.size(), updatesSent.get(),
                    errors.size(), preloaded, finalSize);
            Files.writeString(LauncherProcess.OUTPUT.resolve("load-report.md"), report);
            System.out.println(report);

            assertTrue(errors.isEmpty(), errors.size() + " errors, first: " + errors.peek());
            assertTrue(lost.isEmpty(), lost.size() + " acknowledged updates missing, e.g. " + lost.stream().limit(5).toList());
            assertTrue(lostAfterRestart.isEmpty(), lostAfterRestart.size() + " acknowledged updates missing after restart");
            assertEquals(acknowledged.size(), updatesSent.get(), "every update sent was acknowledged");
            assertEquals(preloaded + 3L * acknowledged.size(), finalSize);
        }
    }

    /** 70% queries of four shapes, 30% small transactions (one SPARQL INSERT or one Turtle upload of 3 statements). */
    private static void runClient(int client, Rest rest, long end, ConcurrentLinkedQueue<String> acknowledged,
                                  ConcurrentLinkedQueue<String> errors, ConcurrentLinkedQueue<Op> ops, AtomicLong updatesSent) {
        SplittableRandom random = new SplittableRandom(client);
        int seq = 0;
        while (System.nanoTime() < end) {
            int dice = random.nextInt(100);
            int person = random.nextInt(PRELOAD_PEOPLE);
            long t0 = System.nanoTime();
            String kind;
            Rest.Response r;
            try {
                if (dice < 30) {
                    String id = "u" + client + "-" + seq++;
                    updatesSent.incrementAndGet();
                    String triples = "<" + EX + id + "> <" + EX + "seq> " + seq + " ; <" + EX + "by> \"client " + client
                            + "\" ; <" + EX + "about> <" + EX + "p" + person + "> .";
                    if (dice < 15) {
                        kind = "update (SPARQL INSERT DATA)";
                        r = rest.update(REPO, "INSERT DATA { " + triples + " }");
                    } else {
                        kind = "update (Turtle POST)";
                        r = rest.add(REPO, "text/turtle", triples);
                    }
                    if (r.status() == 204) {
                        acknowledged.add(id);
                    }
                } else if (dice < 55) {
                    kind = "query (SELECT by subject)";
                    r = rest.query(REPO, "SELECT ?p ?o WHERE { <" + EX + "p" + person + "> ?p ?o }", "text/csv");
                } else if (dice < 75) {
                    kind = "query (SELECT join + FILTER)";
                    r = rest.query(REPO, "PREFIX ex: <" + EX + "> SELECT ?name ?friend WHERE { ?x ex:age ?a ; ex:name ?name ;"
                            + " ex:knows ?f . ?f ex:name ?friend FILTER(?a = " + (20 + person % 50) + ") } LIMIT 20", "text/csv");
                } else if (dice < 90) {
                    kind = "query (ASK)";
                    r = rest.query(REPO, "ASK { <" + EX + "p" + person + "> <" + EX + "knows> ?x }", "text/boolean");
                } else {
                    kind = "query (COUNT of updates)";
                    r = rest.query(REPO, "SELECT (COUNT(*) AS ?n) WHERE { ?u <" + EX + "about> <" + EX + "p" + person + "> }",
                            "text/csv");
                }
                if (r.status() / 100 != 2) {
                    errors.add(kind + ": HTTP " + r.status() + " " + r.body());
                }
                ops.add(new Op(kind, System.nanoTime() - t0));
            } catch (RuntimeException e) {
                errors.add(e.toString());
            }
        }
    }

    private static Set<String> updateIds(Rest rest) {
        Rest.Response r = rest.query(REPO, "SELECT ?u WHERE { ?u <" + EX + "seq> ?n }", "text/csv");
        assertEquals(200, r.status(), r.body());
        Set<String> ids = new HashSet<>();
        r.body().lines().skip(1).filter(l -> !l.isBlank()).forEach(l -> ids.add(l.trim().substring(EX.length())));
        return ids;
    }

    private static String report(long seconds, double elapsed, List<Op> ops, int acknowledged, long sent, int errors,
                                 long preloaded, long finalSize) {
        StringBuilder md = new StringBuilder();
        md.append(String.format("%d clients, %d s, %d operations, %.1f ops/s; %d updates sent, %d acknowledged, %d errors; "
                        + "%d statements preloaded, %d at the end (after a restart)%n%n", CLIENTS, seconds, ops.size(),
                ops.size() / elapsed, sent, acknowledged, errors, preloaded, finalSize));
        md.append("| operation | count | per second | p50 ms | p95 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|---:|\n");
        ops.stream().map(Op::kind).distinct().sorted().forEach(kind -> {
            List<Long> nanos = new ArrayList<>(ops.stream().filter(o -> o.kind().equals(kind)).map(Op::nanos).toList());
            Collections.sort(nanos);
            md.append(String.format("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f |%n", kind, nanos.size(),
                    nanos.size() / elapsed, pct(nanos, 50), pct(nanos, 95), pct(nanos, 99), nanos.get(nanos.size() - 1) / 1e6));
        });
        return md.toString();
    }

    private static double pct(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1)) / 1e6;
    }
}
