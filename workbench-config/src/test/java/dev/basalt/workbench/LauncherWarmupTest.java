package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.CompilationMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.ObjectName;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's warm-up ({@link LauncherWarmup}): every kind of request it sends is answered, it leaves no
 * repository behind, the server it warmed answers the user's repository, and its setting is checked.
 */
class LauncherWarmupTest {
    @TempDir
    Path dir;

    @Test
    void warmsUpOnAScratchRepositoryAndRemovesIt() throws Exception {
        Path log = dir.resolve("launcher.log");
        int requests = WarmupData.queries().size() * 3;
        try (LauncherProcess launcher = new LauncherProcess(dir.resolve("data"), log)
                .jvmOptions("-Xmx512m", "-D" + LauncherWarmup.REQUESTS_PROPERTY + "=" + requests).start()) {
            String out = Files.readString(log);
            Matcher sent = Pattern.compile("warm-up: (\\d+) requests in ").matcher(out);
            assertTrue(sent.find(), out);
            int n = Integer.parseInt(sent.group(1));
            assertTrue(n >= requests && n <= LauncherWarmup.MAX_FACTOR * requests, out);
            assertFalse(out.contains("ended early"), out);
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create(launcher.serverUrl() + "/repositories"))
                    .header("Accept", "application/sparql-results+json").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, list.statusCode());
            assertFalse(list.body().contains(LauncherWarmup.REPOSITORY), list.body());
            assertTrue(list.body().contains("\"basalt\""), list.body());
            assertFalse(Files.exists(dir.resolve("data/server/repositories/" + LauncherWarmup.REPOSITORY)));
            HttpResponse<String> count = http.send(HttpRequest.newBuilder(URI.create(launcher.serverUrl()
                    + "/repositories/basalt?query=SELECT%20(COUNT(*)%20AS%20%3Fn)%20%7B%3Fs%20%3Fp%20%3Fo%7D"))
                    .header("Accept", "text/csv").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("n\r\n0\r\n", count.body());
            launcher.stop();
        }
    }

    @Test
    void requestCountSetting() {
        assertEquals(LauncherWarmup.DEFAULT_REQUESTS, LauncherWarmup.requests(null));
        assertEquals(0, LauncherWarmup.requests("0"));
        assertEquals(250, LauncherWarmup.requests(" 250 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LauncherWarmup.requests("lots"));
        assertTrue(e.getMessage().contains(LauncherWarmup.REQUESTS_PROPERTY), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LauncherWarmup.requests("-1"));
    }

    @Test
    void clientThreadsFollowTheProcessors() {
        assertEquals(1, LauncherWarmup.clientThreads(1, 8000));
        assertEquals(2, LauncherWarmup.clientThreads(2, 8000));
        assertEquals(LauncherWarmup.MAX_CLIENT_THREADS, LauncherWarmup.clientThreads(64, 8000));
        assertEquals(1, LauncherWarmup.clientThreads(2, 30));
        assertEquals(2, LauncherWarmup.clientThreads(8, 42));
        assertEquals(1, LauncherWarmup.clientThreads(2, 0));
    }

    @Test
    void settlesWhenTheJitCompilesLittle() {
        assertTrue(LauncherWarmup.settled(0, 1000));
        assertTrue(LauncherWarmup.settled(250, 1000));
        assertFalse(LauncherWarmup.settled(251, 1000));
        assertFalse(LauncherWarmup.settled(1800, 1000));
    }

    @Test
    void budgetEndsOnCpuOrWallTime() {
        LauncherWarmup.Budget b = new LauncherWarmup.Budget(1_000, 5_000, 90_000, 600_000);
        assertNull(b.reached(1_000, 5_000));
        assertNull(b.reached(600_000, 95_000), "both limits reached exactly, not passed");
        assertTrue(b.reached(2_000, 95_001).startsWith("CPU cap"), b.reached(2_000, 95_001));
        assertTrue(b.reached(601_001, 6_000).startsWith("wall-time cap"), b.reached(601_001, 6_000));
    }

    /** A JIT whose compile time grows by the given milliseconds at each reading after the first, then not. */
    private static CompilationMXBean jit(long... growth) {
        return jit(n -> n >= 1 && n <= growth.length ? growth[(int) n - 1] : 0);
    }

    /** A JIT whose accumulated compile time grows, at its reading number {@code n} (from 0), by {@code growth(n)}. */
    static CompilationMXBean jit(LongUnaryOperator growth) {
        AtomicLong reads = new AtomicLong();
        AtomicLong total = new AtomicLong();
        return new CompilationMXBean() {
            @Override
            public String getName() {
                return "test";
            }

            @Override
            public boolean isCompilationTimeMonitoringSupported() {
                return true;
            }

            @Override
            public long getTotalCompilationTime() {
                return total.addAndGet(growth.applyAsLong(reads.getAndIncrement()));
            }

            @Override
            public ObjectName getObjectName() {
                return null;
            }
        };
    }

    @Test
    void drainWaitsWhileTheCompilerThreadsAreBusy() throws InterruptedException {
        LauncherWarmup.Budget open = LauncherWarmup.Budget.fromNow();
        // busy for two intervals (each read pair grows by the interval's length), then idle
        long busy = 2 * LauncherWarmup.DRAIN_POLL_MILLIS;
        long waited = LauncherWarmup.drain(jit(busy, 0, busy, 0, 0, 0), open);
        assertTrue(waited >= 3 * LauncherWarmup.DRAIN_POLL_MILLIS && waited < 6 * LauncherWarmup.DRAIN_POLL_MILLIS,
                "waited " + waited + " ms");
        long idle = LauncherWarmup.drain(jit(), open);
        assertTrue(idle < 2 * LauncherWarmup.DRAIN_POLL_MILLIS, "waited " + idle + " ms");
        LauncherWarmup.Budget spent = new LauncherWarmup.Budget(System.nanoTime(), 0, -1, Long.MAX_VALUE);
        assertTrue(LauncherWarmup.drain(jit(busy, 0, busy, 0, busy, 0), spent) < LauncherWarmup.DRAIN_POLL_MILLIS,
                "a spent budget does not wait");
    }

    @Test
    void fullIrisReplacePrefixedNamesOnly() {
        String q = "PREFIX w: <" + WarmupData.NS + ">\nSELECT ?x WHERE { w:Product7 w:feature ?x ; "
                + "<" + WarmupData.NS + "num1> 3 . FILTER (?x != w:Feature1) }";
        assertEquals("PREFIX w: <" + WarmupData.NS + ">\nSELECT ?x WHERE { <" + WarmupData.NS + "Product7> <"
                + WarmupData.NS + "feature> ?x ; <" + WarmupData.NS + "num1> 3 . FILTER (?x != <" + WarmupData.NS
                + "Feature1>) }", WarmupData.fullIris(q));
    }

    @Test
    void laidOutTextsMeanTheSame() {
        java.util.Random random = new java.util.Random(5);
        for (WarmupData.Request kind : WarmupData.queries()) {
            String text = kind.template().apply(random);
            for (boolean tabs : new boolean[] { false, true }) {
                String laidOut = WarmupData.laidOut(text, tabs);
                assertTrue(laidOut.startsWith("# ") && laidOut.contains("\n" + (tabs ? "\t" : "  ")), laidOut);
                assertTrue(laidOut.contains("PREFIX " + WarmupData.LAID_OUT_PREFIX + ": <" + WarmupData.NS + ">"), laidOut);
                assertFalse(Pattern.compile("(?<![A-Za-z0-9_<:-])w:").matcher(laidOut).find(), laidOut);
                if (kind.update()) {
                    assertEquals(
                            org.eclipse.rdf4j.query.parser.QueryParserUtil.parseUpdate(
                                    org.eclipse.rdf4j.query.QueryLanguage.SPARQL, text, null).toString(),
                            org.eclipse.rdf4j.query.parser.QueryParserUtil.parseUpdate(
                                    org.eclipse.rdf4j.query.QueryLanguage.SPARQL, laidOut, null).toString(), laidOut);
                } else {
                    assertEquals(
                            org.eclipse.rdf4j.query.parser.QueryParserUtil.parseQuery(
                                    org.eclipse.rdf4j.query.QueryLanguage.SPARQL, text, null).getTupleExpr().toString(),
                            org.eclipse.rdf4j.query.parser.QueryParserUtil.parseQuery(
                                    org.eclipse.rdf4j.query.QueryLanguage.SPARQL, laidOut, null).getTupleExpr().toString(),
                            laidOut);
                }
            }
        }
    }

    @Test
    void catalogueIsTheSameEveryTime() {
        String data = WarmupData.ntriples();
        assertEquals(data, WarmupData.ntriples());
        long triples = data.lines().count();
        assertTrue(triples > 15_000 && triples < 30_000, "triples: " + triples);
    }
}
