package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.CompilationMXBean;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * {@link QueryLogReplay} against a stand-in server on the loopback: it sends the requests asked for, then rounds while
 * the JIT (here a stand-in whose compile time the test sets) has not settled, at most {@link QueryLogReplay#MAX_FACTOR}
 * times the requests; it stops at its wall-time cap; it gives up a repository whose requests all fail and goes on with
 * the others.
 */
class QueryLogReplayTest {
    private HttpServer server;
    private final Map<String, AtomicLong> answered = new ConcurrentHashMap<>();
    private volatile long delayMillis;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/repositories/", exchange -> {
            String repo = exchange.getRequestURI().getPath().substring("/repositories/".length());
            answered.computeIfAbsent(repo, r -> new AtomicLong()).incrementAndGet();
            try {
                Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(repo.equals("gone") ? 404 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static List<QueryLog.Entry> log(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> QueryLog.Entry.of("", "ASK { <urn:" + i + "> ?p ?o }"))
                .toList();
    }

    private static CompilationMXBean jit(LongUnaryOperator growth) {
        return LauncherWarmupTest.jit(growth);
    }

    @Test
    void sendsMoreRoundsWhileTheJitCompilesUpToItsFactor() {
        LauncherWarmup.Budget open = LauncherWarmup.Budget.fromNow(60, 60);
        // a JIT still compiling in the round (each of the round's two reads finds a minute more), then idle
        QueryLogReplay.Outcome busy = new QueryLogReplay(url()).run(Map.of("a", log(7)), 40, open,
                jit(n -> n < 2 ? 60_000 : 0));
        assertEquals(QueryLogReplay.MAX_FACTOR * 40, busy.requests(), busy.describe());
        assertEquals((QueryLogReplay.MAX_FACTOR - 1) * 40, busy.extra(), busy.describe());
        assertEquals(QueryLogReplay.MAX_FACTOR * 40, answered.get("a").get());
        assertTrue(busy.describe().contains("(80 of them until the JIT settled)"), busy.describe());
        assertNull(busy.limit());

        // an idle JIT: the first round after the requests finds it settled, and no more follow
        answered.clear();
        QueryLogReplay.Outcome idle = new QueryLogReplay(url()).run(Map.of("a", log(7)), 40, open, jit(n -> 0));
        assertEquals(40 + Math.min(QueryLogReplay.ROUND, (QueryLogReplay.MAX_FACTOR - 1) * 40), idle.requests());
        assertEquals(0, idle.failed());

        // without the JIT's figures: the requests asked for, no rounds
        answered.clear();
        QueryLogReplay.Outcome blind = new QueryLogReplay(url()).run(Map.of("a", log(7)), 40, open, null);
        assertEquals(40, blind.requests());
        assertEquals(0, blind.extra());
        assertEquals(0, blind.drainMillis());
        assertTrue(!blind.describe().contains("until the JIT settled"), blind.describe());
    }

    @Test
    void stopsAtItsWallTimeCap() {
        delayMillis = 50;
        LauncherWarmup.Budget oneSecond = LauncherWarmup.Budget.fromNow(60, 1);
        long start = System.nanoTime();
        QueryLogReplay.Outcome o = new QueryLogReplay(url()).run(Map.of("a", log(5)), 10_000, oneSecond, jit(n -> 60_000));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(o.requests() > 0 && o.requests() < 200, o.describe());
        assertEquals("wall-time cap of 1 s", o.limit());
        assertTrue(o.describe().endsWith("stopped at the wall-time cap of 1 s"), o.describe());
        assertTrue(millis < 5_000, millis + " ms");
    }

    @Test
    void stopsAtItsCpuCap() {
        LauncherWarmup.Budget spent = new LauncherWarmup.Budget(System.nanoTime(), LauncherWarmup.processCpuNanos(), -1,
                Long.MAX_VALUE);
        QueryLogReplay.Outcome o = new QueryLogReplay(url()).run(Map.of("a", log(5)), 100, spent, jit(n -> 60_000));
        assertEquals(0, o.requests(), o.describe());
        assertTrue(o.limit().startsWith("CPU cap"), o.describe());
    }

    @Test
    void givesUpARepositoryWhoseRequestsAllFailAndGoesOnWithTheOthers() {
        LauncherWarmup.Budget open = LauncherWarmup.Budget.fromNow(60, 60);
        QueryLogReplay.Outcome o = new QueryLogReplay(url()).run(Map.of("gone", log(5), "a", log(5)), 100, open,
                jit(n -> 0));
        long gone = answered.get("gone").get();
        long a = answered.get("a").get();
        assertEquals(QueryLogReplay.PROBE, gone, "sent to the failing repository");
        assertEquals(gone, o.failed(), o.describe());
        // the rounds after the first go to the repository left
        assertEquals(o.requests(), gone + a, o.describe());
        assertTrue(a > 100, o.describe());
    }
}
