package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time travel through RDF4J Server's SPARQL endpoint, as any HTTP client sends it: the as-of query
 * hints read a past commit point of a WORM store and of an RW store with history retention, the
 * commitPoints hint lists the readable commit points with time and statement counts, and a commit
 * point that is no longer readable is answered with HTTP 400 naming the readable range.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimeTravelRestTest {
    static final String HINT = "http://basalt.dev/hint#";
    static final String SELECT = "SELECT ?o WHERE { <http://example.org/s> <http://example.org/p> ?o %s } ORDER BY ?o";
    static final String COMMITS = """
            PREFIX commit: <http://basalt.dev/commit#>
            SELECT ?n ?time ?statements WHERE { [] <http://basalt.dev/hint#commitPoints> true .
              ?c commit:counter ?n ; commit:time ?time ; commit:statements ?statements } ORDER BY DESC(?n)""";

    @TempDir
    static Path data;
    LauncherProcess launcher;
    Rest rest;

    @BeforeAll
    void start() throws Exception {
        launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-time-travel.log"),
                "--no-repository").start();
        rest = new Rest(launcher.serverUrl());
    }

    @AfterAll
    void stop() throws Exception {
        launcher.close();
    }

    private void create(String id, String properties) {
        Rest.Response r = rest.createRepository(id, ServerRestApiTest.config(id, properties));
        assertEquals(204, r.status(), r.body());
    }

    private void update(String id, String sparql) {
        Rest.Response r = rest.update(id, sparql);
        assertEquals(204, r.status(), r.body());
    }

    /** The values of ?o, from text/csv. */
    private List<String> select(String id, String hint) {
        Rest.Response r = rest.query(id, String.format(SELECT, hint), "text/csv");
        assertEquals(200, r.status(), r.body());
        return Arrays.stream(r.body().split("\r?\n")).skip(1).map(String::trim).toList();
    }

    /** Rows "counter,time,statements" of the readable commit points, newest first. */
    private List<String[]> commitPoints(String id) {
        Rest.Response r = rest.query(id, COMMITS, "text/csv");
        assertEquals(200, r.status(), r.body());
        return Arrays.stream(r.body().split("\r?\n")).skip(1).map(l -> l.trim().split(",")).toList();
    }

    private void readsOldAndNew(String id) {
        update(id, "INSERT DATA { <http://example.org/s> <http://example.org/p> \"old\" }");
        String[] noted = commitPoints(id).get(0);
        assertEquals("1", noted[2], "statements at the noted commit point");
        long old = Long.parseLong(noted[0]);
        update(id, "DELETE DATA { <http://example.org/s> <http://example.org/p> \"old\" } ;"
                + " INSERT DATA { <http://example.org/s> <http://example.org/p> \"new\" }");

        assertEquals(List.of("new"), select(id, ""));
        assertEquals(List.of("old"), select(id, ". [] <" + HINT + "asOfCommit> " + old));
        assertEquals(List.of("old"), select(id, ". [] <" + HINT + "asOfTime> \"" + noted[1]
                + "\"^^<http://www.w3.org/2001/XMLSchema#dateTime>"));
        List<String[]> points = commitPoints(id);
        assertTrue(Long.parseLong(points.get(0)[0]) > old, "a newer commit point is listed first");
        assertTrue(points.stream().anyMatch(p -> p[0].equals(String.valueOf(old))), "the noted one is still readable");
        assertEquals("1", points.get(0)[2]);
    }

    @Test
    void wormStoreAnswersAsOfAnyCommitPoint() {
        create("tt-worm", "basalt:journalMode \"WORM\"");
        readsOldAndNew("tt-worm");
    }

    @Test
    void rwStoreWithRetentionAnswersAsOfARetainedCommitPoint() {
        create("tt-rw", "basalt:journalMode \"RW\" ; basalt:historyRetention \"PT1H\"");
        readsOldAndNew("tt-rw");
    }

    @Test
    void releasedCommitPointIsA400NamingTheReadableRange() {
        create("tt-none", "basalt:journalMode \"RW\" ; basalt:historyRetention \"PT0S\"");
        update("tt-none", "INSERT DATA { <http://example.org/s> <http://example.org/p> \"old\" }");
        String old = commitPoints("tt-none").get(0)[0];
        update("tt-none", "INSERT DATA { <http://example.org/s> <http://example.org/p> \"new\" }");
        List<String[]> points = commitPoints("tt-none");
        assertEquals(1, points.size(), "retention 0 keeps only the newest commit point readable");
        String newest = points.get(0)[0];

        Rest.Response r = rest.query("tt-none", String.format(SELECT, ". [] <" + HINT + "asOfCommit> " + old), "text/csv");
        assertEquals(400, r.status(), r.body());
        assertTrue(r.body().contains("commit point " + old + " is no longer readable")
                && r.body().contains("the only readable commit point is " + newest + " ("), r.body());
        Rest.Response bad = rest.query("tt-none", String.format(SELECT, ". [] <" + HINT + "asOfCommit> \"soon\""),
                "text/csv");
        assertEquals(400, bad.status(), bad.body());
        assertTrue(bad.body().contains("asOfCommit"), bad.body());
        assertEquals(List.of("new", "old"), select("tt-none", ""));
    }
}
