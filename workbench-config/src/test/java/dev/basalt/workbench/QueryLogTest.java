package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's query log ({@link QueryLog}) and its replay ({@link QueryLogReplay}): a launcher records the
 * queries it answered (not updates, not failed queries, not the warm-up's), writes them when stopped, and its next
 * start replays them before it announces itself; the file round-trips texts with tabs, line breaks and non-ASCII
 * characters and a malformed file is refused.
 */
class QueryLogTest {
    @TempDir
    Path dir;

    @Test
    void recordsAnsweredQueriesAndReplaysThemAtTheNextStart() throws Exception {
        Path data = dir.resolve("data");
        Path log = dir.resolve("launcher.log");
        String select = "SELECT ?s\n\tWHERE { ?s ?p \"é\" }";
        String ask = "ASK { ?s ?p ?o }";
        HttpClient http = HttpClient.newHttpClient();
        try (LauncherProcess launcher = new LauncherProcess(data, log).start()) {
            String repo = launcher.serverUrl() + "/repositories/basalt";
            assertEquals(200, get(http, repo, select, "application/sparql-results+xml").statusCode());
            assertEquals(200, get(http, repo, ask, "application/sparql-results+json").statusCode());
            assertEquals(400, get(http, repo, "SELECT nonsense", "application/sparql-results+xml").statusCode());
            HttpResponse<String> update = http.send(HttpRequest.newBuilder(URI.create(repo + "/statements"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("update="
                            + URLEncoder.encode("INSERT DATA { <urn:a> <urn:b> \"c\" }", StandardCharsets.UTF_8)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(204, update.statusCode(), update.body());
            HttpResponse<String> form = http.send(HttpRequest.newBuilder(URI.create(repo))
                    .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "text/csv")
                    .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(select, StandardCharsets.UTF_8)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, form.statusCode(), form.body());
            launcher.stop();
        }
        Path file = data.resolve("server/repositories/basalt").resolve(QueryLog.FILE_NAME);
        List<QueryLog.Entry> entries = QueryLog.read(file);
        assertEquals(List.of(QueryLog.Entry.of("application/sparql-results+xml", select),
                QueryLog.Entry.of("application/sparql-results+json", ask), QueryLog.Entry.of("text/csv", select)),
                entries);
        // an update written into the file by hand is sent as a query, which the endpoint refuses: it fails, unapplied
        String insert = "INSERT DATA { <urn:replayed> <urn:b> \"c\" }";
        List<QueryLog.Entry> withUpdate = new java.util.ArrayList<>(entries);
        withUpdate.add(QueryLog.Entry.of("", insert));
        QueryLog.write(file, withUpdate);

        try (LauncherProcess launcher = new LauncherProcess(data, log)
                .jvmOptions("-Xmx512m", "-D" + QueryLogReplay.REQUESTS_PROPERTY + "=30").start()) {
            String out = Files.readString(log);
            Matcher m = Pattern.compile("query-log replay: (\\d+) requests.* of (\\d+) logged queries to 1 repository in .*, (\\d+) failed")
                    .matcher(out);
            assertTrue(m.find(), out);
            int sent = Integer.parseInt(m.group(1));
            assertTrue(sent >= 30 && sent <= QueryLogReplay.MAX_FACTOR * 30, out);
            assertEquals("4", m.group(2));
            // every fourth request is the update
            assertEquals(sent / 4, Integer.parseInt(m.group(3)), out);
            HttpResponse<String> applied = get(http, launcher.serverUrl() + "/repositories/basalt",
                    "ASK { <urn:replayed> ?p ?o }", "application/sparql-results+json");
            assertTrue(applied.body().contains("false"), applied.body());
            launcher.stop();
        }
        // the replayed queries are not recorded again, the ones found stay, and the ASK above is new
        List<QueryLog.Entry> expected = new java.util.ArrayList<>(withUpdate);
        expected.add(QueryLog.Entry.of("application/sparql-results+json", "ASK { <urn:replayed> ?p ?o }"));
        assertEquals(expected, QueryLog.read(file));
    }

    @Test
    void aCorruptLogIsSkippedWithItsFileAndLineNamed() throws Exception {
        Path data = dir.resolve("data");
        Path log = dir.resolve("launcher.log");
        try (LauncherProcess launcher = new LauncherProcess(data, log).start()) {
            launcher.stop();
        }
        Path file = data.resolve("server/repositories/basalt").resolve(QueryLog.FILE_NAME);
        Files.writeString(file, QueryLog.HEADER + "\n\tASK%20%7B%7D\nno tab here\n");
        Files.delete(log);
        try (LauncherProcess launcher = new LauncherProcess(data, log).start()) {
            String out = Files.readString(log);
            assertTrue(out.contains("query log skipped: " + file + ":3: no tab between the Accept header and the query"),
                    out);
            assertTrue(!out.contains("query-log replay:"), out);
            launcher.stop();
        }
    }

    @Test
    void theFileKeepsTextsAsTheyWereAndRefusesOtherFiles() throws IOException {
        Path file = dir.resolve(QueryLog.FILE_NAME);
        List<QueryLog.Entry> entries = List.of(QueryLog.Entry.of("", "SELECT *\r\n{ ?s ?p \"a\tb%41+ü\" }"),
                QueryLog.Entry.of("application/rdf+xml", "DESCRIBE <urn:x>"));
        QueryLog.write(file, entries);
        assertEquals(entries, QueryLog.read(file));
        assertTrue(Files.readAllLines(file).stream().skip(1).allMatch(l -> l.indexOf('\t') == l.lastIndexOf('\t')));
        Files.writeString(file, "basalt-query-log 2\n");
        assertThrows(IOException.class, () -> QueryLog.read(file));
        Files.writeString(file, QueryLog.HEADER + "\nno tab here\n");
        assertThrows(IOException.class, () -> QueryLog.read(file));
        Files.writeString(file, QueryLog.HEADER + "\n\tSELECT%ZZ\n");
        assertThrows(IOException.class, () -> QueryLog.read(file));
    }

    @Test
    void keepsTheLastQueriesUpToItsCapacity() throws IOException {
        Path data = dir.resolve("data");
        Path repo = Files.createDirectories(data.resolve("server/repositories/r1"));
        QueryLog.write(repo.resolve(QueryLog.FILE_NAME), List.of(QueryLog.Entry.of("", "old")));
        QueryLog log = new QueryLog(data, 2);
        assertEquals(List.of(QueryLog.Entry.of("", "old")), log.found().get("r1"));
        log.flush();
        QueryLog.Entries e = new QueryLog.Entries();
        e.add(QueryLog.Entry.of("", "a"), 2, false);
        assertNull(e.takeChanged());
        e.add(QueryLog.Entry.of("", "b"), 2, true);
        e.add(QueryLog.Entry.of("", "c"), 2, true);
        assertEquals(List.of(QueryLog.Entry.of("", "b"), QueryLog.Entry.of("", "c")), e.takeChanged());
        assertNull(e.takeChanged());
        assertTrue(new QueryLog(data, 0).found().isEmpty());
    }

    @Test
    void takesAGetRequestsQueryAsItCame() {
        assertEquals("SELECT+%3Fs", QueryLog.formValue("x=1&query=SELECT+%3Fs&infer=false", "query"));
        assertEquals("SELECT+%3Fs", QueryLog.formValue("query=SELECT+%3Fs", "query"));
        assertNull(QueryLog.formValue("query=SELECT {?s}", "query"));
        assertNull(QueryLog.formValue("query=%3", "query"));
        assertNull(QueryLog.formValue("queryx=1", "query"));
        assertNull(QueryLog.formValue(null, "query"));
        assertEquals("SELECT ?s", new QueryLog.Entry("", "SELECT+%3Fs").text());
    }

    @Test
    void repositoryIdsAndSettings() {
        assertEquals("basalt", QueryLog.repositoryId("/rdf4j-server/repositories/basalt", "/rdf4j-server"));
        assertNull(QueryLog.repositoryId("/rdf4j-server/repositories/basalt/statements", "/rdf4j-server"));
        assertNull(QueryLog.repositoryId("/rdf4j-server/repositories/..", "/rdf4j-server"));
        assertNull(QueryLog.repositoryId("/rdf4j-server/protocol", "/rdf4j-server"));
        assertEquals(QueryLog.DEFAULT_CAPACITY, QueryLog.capacity(null));
        assertEquals(0, QueryLog.capacity("0"));
        assertThrows(IllegalArgumentException.class, () -> QueryLog.capacity("-3"));
        assertEquals(QueryLogReplay.DEFAULT_REQUESTS, QueryLogReplay.requests("", 17));
        assertEquals(0, QueryLogReplay.requests(null, 25));
        assertEquals(500, QueryLogReplay.requests("500", 25));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QueryLogReplay.requests("many", 17));
        assertTrue(e.getMessage().contains(QueryLogReplay.REQUESTS_PROPERTY), e.getMessage());
        assertArrayEquals(new int[] {750, 250}, QueryLogReplay.shares(List.of(300, 100), 1000));
        assertEquals(10, QueryLogReplay.shares(List.of(5), 10)[0]);
    }

    private static HttpResponse<String> get(HttpClient http, String repo, String query, String accept)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(repo + "?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
    }
}
