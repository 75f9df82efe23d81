package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filter of thousands of {@code ||} sent with a {@code timeout} (RDF4J Server's connection path, where a query of
 * a new shape gets its template made and checked) answers below 500 in the launcher's 512 MB heap, at every depth
 * from one the store evaluates to one too deep to parse: comparing RDF4J's printed trees of such a chain once took
 * memory growing with the square of its depth and answered 500 (an {@link OutOfMemoryError}) from a few thousand
 * on. The server answers a plain query afterwards.
 *
 * <p>The launcher runs with a 64 MB thread stack: a freshly started JVM's request thread overflows its stack on
 * such a chain from about 3,000 deep (a 400, "nested too deeply"), while one that served many requests first runs
 * compiled code with smaller frames and parses deeper chains, as in {@code RestFuzzTest}; the larger stack lets every
 * depth here reach the template check at once.
 */
class DeepFilterChainTest {
    private static final String REPO = "deep";

    @TempDir
    Path data;

    private static String orChain(int depth) {
        StringBuilder q = new StringBuilder("SELECT * WHERE { ?s ?p ?o FILTER(?o = 0");
        for (int i = 1; i <= depth; i++) {
            q.append(" || ?o = ").append(i);
        }
        return q.append(") }").toString();
    }

    @Test
    void deepOrChainsWithATimeoutGetAnAnswerBelow500() throws Exception {
        try (LauncherProcess launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-deep.log"),
                "--no-repository")) {
            launcher.jvmOptions("-Xmx512m", "-Xss64m").start();
            Rest rest = new Rest(launcher.serverUrl());
            assertEquals(204, rest.createRepository(REPO, ServerRestApiTest.config(REPO, "basalt:journalMode \"RW\"")
                    .replace("\"openrdf:SailRepository\"", "\"basalt:BasaltRepository\"")).status());
            assertEquals(204, rest.add(REPO, "text/turtle", "<http://x/a> <http://x/p> 3, 7, \"z\" .").status());
            List<String> answers = new ArrayList<>();
            for (int depth : new int[] { 1_000, 3_000, 6_000, 9_000, 12_000, 20_000 }) {
                Rest.Response r = rest.send(HttpRequest.newBuilder(URI.create(rest.repositoryUrl(REPO)))
                        .header("Accept", "application/sparql-results+json")
                        .header("Content-Type", "application/x-www-form-urlencoded").timeout(Duration.ofSeconds(90))
                        .POST(HttpRequest.BodyPublishers.ofString("query=" + Rest.encode(orChain(depth)) + "&timeout=20")));
                answers.add(depth + ": " + r.status());
                assertTrue(r.status() < 500, "depth " + depth + ": HTTP " + r.status() + " "
                        + r.body().substring(0, Math.min(300, r.body().length())) + " (so far " + answers + ")");
                if (r.status() == 200) {
                    assertTrue(r.body().contains("\"value\" : \"3\"") || r.body().contains("\"value\":\"3\""),
                            "depth " + depth + ": " + r.body());
                }
            }
            System.out.println("deep || chains with timeout=20: " + answers);
            assertEquals("1", rest.selectOne(REPO, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p \"z\" }"));
        }
    }
}
