package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Malformed N-Triples and N-Quads uploaded to the launcher's Basalt repository
 * ({@code POST /repositories/basalt/statements}, the bulk path): each is answered with 400 and a
 * body naming the request body, the line and what was expected there, at line 2 of a small upload
 * and at line {@value #LATE_LINE} of a large one (past the loader's chunks and batches); the
 * repository keeps exactly its statements. The full matrix of kinds and load paths runs in-process
 * ({@code MalformedLinePathsTest} in the sail module).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MalformedUploadTest {
    private static final String REPO = "basalt";
    private static final int LATE_LINE = 300_001;

    @TempDir
    static Path data;
    private LauncherProcess launcher;
    private Rest rest;
    private List<String> before;

    @BeforeAll
    void start() throws Exception {
        launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-malformed.log")).start();
        rest = new Rest(launcher.serverUrl());
        assertEquals(204, post("application/n-triples", lines(1, 50, false)).status());
        before = statements();
        assertEquals(49, before.size());
    }

    @AfterAll
    void stop() throws Exception {
        launcher.close();
    }

    /** The bad line ({0xFF} and {0x01} stand for those bytes), the format, early or late, and what the body must say. */
    @ParameterizedTest(name = "{0} {1} late {2}")
    @CsvSource(delimiter = '|', textBlock = """
            <http://example.org/x> <http://example.org/p> <http://example.org/o>      | nt | false | expected '.' at the end of the statement, found the end of the line
            <http://example.org/x> <http://example.org/p> <http://example.org/o>      | nt | true  | expected '.' at the end of the statement, found the end of the line
            <http://example.org/x> <http://example.org/p> "no closing quote .         | nt | false | unterminated literal: expected '"' to close the literal
            <http://example.org/x> <http://example.org/p> "no closing quote .         | nq | true  | unterminated literal: expected '"' to close the literal
            <http://example.org/x> <http://example.org/p> <http://example.org/o .     | nt | false | unterminated IRI: expected '>' to close the object IRI
            <http://example.org/x> <http://example.org/p> "a \\q b" .                 | nt | false | bad escape \\q in a literal
            <http://example.org/x> <http://example.org/p> "a \\q b" .                 | nq | false | bad escape \\q in a literal
            <http://example.org/x> <http://example.org/p> "chat"@1fr .                | nt | false | bad language tag '@1fr'
            <http://example.org/x> <http://example.org/p> "caf{0xFF}" .               | nt | false | invalid UTF-8 byte sequence 0xFF
            <http://example.org/x> <http://example.org/p> "caf{0xFF}" .               | nt | true  | invalid UTF-8 byte sequence 0xFF
            <http://example.org/x> <http://example.org/p{0x01}> <http://example.org/o> . | nt | false | the control character U+0001 is not allowed in an IRI
            """)
    void malformedLineIsA400NamingItsLineAndChangesNothing(String line, String format, boolean late, String expected)
            throws Exception {
        boolean quads = format.equals("nq");
        long bad = late ? LATE_LINE : 2;
        ByteArrayOutputStream upload = new ByteArrayOutputStream();
        upload.writeBytes(lines(1, bad, quads));
        upload.writeBytes(bytes(line.strip() + "\n"));
        upload.writeBytes(lines(bad + 1, bad + 3, quads));
        assertMalformed(upload.toByteArray(), quads, bad, expected);
    }

    @ParameterizedTest(name = "late {0}")
    @CsvSource({ "false", "true" })
    void lineCutByTheEndOfTheUploadIsNamed(boolean late) throws Exception {
        long bad = late ? LATE_LINE : 3;
        ByteArrayOutputStream upload = new ByteArrayOutputStream();
        upload.writeBytes(lines(1, bad, false));
        upload.writeBytes("<http://example.org/x> <http://example.org/p> \"cut off".getBytes(StandardCharsets.UTF_8));
        assertMalformed(upload.toByteArray(), false, bad,
                "unterminated literal: expected '\"' to close the literal that starts here, found the end of the input");
    }

    private void assertMalformed(byte[] upload, boolean quads, long line, String expected) {
        Rest.Response r = post(quads ? "application/n-quads" : "application/n-triples", upload);
        assertEquals(400, r.status(), r.body());
        String where = "request body:" + line + ": malformed " + (quads ? "N-Quads" : "N-Triples") + " at column ";
        assertTrue(r.body().contains(where), "names the upload and the line: " + r.body());
        assertTrue(r.body().contains(expected), "says what was expected: " + r.body());
        assertEquals(before, statements(), "the repository is unchanged");
    }

    /** Good statement lines {@code from} to {@code to - 1}, with few distinct terms. */
    private static byte[] lines(long from, long to, boolean quads) {
        StringBuilder b = new StringBuilder();
        for (long n = from; n < to; n++) {
            b.append("<http://example.org/s").append(n % 1000).append("> <http://example.org/p").append(n % 7)
                    .append("> \"v").append(n % 5000).append('"').append(quads ? " <http://example.org/g>" : "")
                    .append(" .\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The line's bytes: {@code {0xFF}} and {@code {0x01}} stand for those bytes. */
    private static byte[] bytes(String line) {
        return line.replace("{0xFF}", "\u00FF").replace("{0x01}", "\u0001").getBytes(StandardCharsets.ISO_8859_1);
    }

    private Rest.Response post(String contentType, byte[] body) {
        return rest.send(HttpRequest.newBuilder(URI.create(rest.repositoryUrl(REPO) + "/statements"))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** Every statement of the repository as N-Quads lines, sorted. */
    private List<String> statements() {
        Rest.Response r = rest.send(HttpRequest.newBuilder(URI.create(rest.repositoryUrl(REPO) + "/statements"))
                .header("Accept", "application/n-quads").GET());
        assertEquals(200, r.status(), r.body());
        return Arrays.stream(r.body().split("\n")).filter(l -> !l.isBlank()).sorted().toList();
    }
}
