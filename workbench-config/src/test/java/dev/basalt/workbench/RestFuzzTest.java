package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated, truncated and hostile requests against the launcher's REST API: uploads in every RDF format RDF4J
 * Server parses (bit flips, cut-outs, duplicated and inserted bytes, truncation, the wrong content type),
 * mutated SPARQL queries and updates, deeply nested and oversized queries, and unknown content types. Every
 * answer must be below 500 and come within the client's timeout, the server must stay up, and a rejected write
 * must leave the journal file byte for byte as it was (an accepted one, a mutation that happens to be valid,
 * moves the baseline on). A query stopped at its timeout ({@value Fuzzer#QUERY_TIMEOUT_SECONDS} s) gets RDF4J
 * Server's 503 for a timeout, which is counted apart and not as a failure. The default run sends {@value #DEFAULT_REQUESTS} requests; the {@code long} run
 * {@code basalt.fuzz.requests} (10,000). Writes a summary by request kind and status to target/fuzz-report.md.
 */
class RestFuzzTest {
    static final String REPO = "fuzz";
    static final int DEFAULT_REQUESTS = 600;
    static final String EX = "http://example.org/fuzz/";
    /** The corpus and the fuzzed writes keep the journal at a few MB; far beyond that a write runs away. */
    static final long MAX_JOURNAL_BYTES = 256L << 20;

    @TempDir
    Path data;

    @Test
    void mutatedRequestsGetClientErrorsAndLeaveTheStoreUnchanged() throws Exception {
        fuzz(DEFAULT_REQUESTS);
    }

    @Test
    @Tag("long")
    void tenThousandMutatedRequests() throws Exception {
        fuzz(Integer.getInteger("basalt.fuzz.requests", 10_000));
    }

    private void fuzz(int requests) throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        System.out.println("RestFuzzTest seed " + seed + " (-Dbasalt.seed=" + seed + " repeats it)");
        SplittableRandom random = new SplittableRandom(seed);
        try (LauncherProcess launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-fuzz.log"),
                "--no-repository")) {
            launcher.start();
            Rest rest = new Rest(launcher.serverUrl());
            // the launcher's repository type: its connections report a parser's failure on an upload as a
            // parse error, which RDF4J Server answers with 400 (a plain openrdf:SailRepository keeps RDF4J's 500)
            assertEquals(204, rest.createRepository(REPO, ServerRestApiTest.config(REPO, "basalt:journalMode \"RW\"")
                    .replace("\"openrdf:SailRepository\"", "\"basalt:BasaltRepository\"")).status());
            Map<RDFFormat, byte[]> corpus = corpus();
            assertEquals(204, rest.add(REPO, "text/turtle", new String(corpus.get(RDFFormat.TURTLE), StandardCharsets.UTF_8))
                    .status());
            Path journal = data.resolve("server/repositories").resolve(REPO).resolve("basalt.jnl");
            Fuzzer fuzzer = new Fuzzer(random, corpus, rest.repositoryUrl(REPO));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            Map<String, Integer> tally = new TreeMap<>();
            List<String> failures = new ArrayList<>();
            String baseline = sha256(journal);
            for (int i = 0; i < requests && failures.size() < 20; i++) {
                if (Files.size(journal) > MAX_JOURNAL_BYTES) {
                    // a 4 KB upload on which RDF4J's TriG parser looped once wrote gigabytes here and the run crawled
                    failures.add(String.format("the journal holds %,d bytes after request %d: a write grows the store"
                            + " without bound", Files.size(journal), i - 1));
                    break;
                }
                Fuzzer.Request request = fuzzer.next();
                int status;
                String body;
                long t0 = System.nanoTime();
                try {
                    HttpResponse<String> r = http.send(request.http().timeout(Duration.ofSeconds(60)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    status = r.statusCode();
                    body = r.body();
                } catch (IOException e) {
                    failures.add(request.kind() + ": no answer (" + e + "); server alive: " + alive(rest));
                    baseline = settled(journal); // the request may still end on the server and commit
                    continue;
                }
                long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
                if (status == 503 && !request.write() && seconds >= Fuzzer.QUERY_TIMEOUT_SECONDS) {
                    // RDF4J Server answers a query stopped at its timeout with 503: the timeout was honoured
                    tally.merge(request.kind() + " stopped at its " + Fuzzer.QUERY_TIMEOUT_SECONDS + " s timeout (503)", 1,
                            Integer::sum);
                    continue;
                }
                tally.merge(request.kind() + " " + status / 100 + "xx", 1, Integer::sum);
                if (status >= 500) {
                    failures.add(request.kind() + ": HTTP " + status + " " + snippet(body) + " for " + snippet(request.sample()));
                }
                if (request.write()) {
                    String now = sha256(journal);
                    if (status / 100 == 2) {
                        baseline = now;
                    } else if (!now.equals(baseline)) {
                        failures.add(request.kind() + ": rejected with HTTP " + status + " but the journal changed");
                        baseline = now;
                    }
                }
            }
            assertTrue(alive(rest), "the server answers after the fuzzing");
            StringBuilder report = new StringBuilder(String.format("%,d requests (seed %d), %d failures%n%n| kind and status class | count |%n|---|---:|%n",
                    requests, seed, failures.size()));
            tally.forEach((k, v) -> report.append("| ").append(k).append(" | ").append(v).append(" |\n"));
            Files.writeString(LauncherProcess.OUTPUT.resolve("fuzz-report.md"), report);
            System.out.println(report);
            if (!failures.isEmpty()) {
                fail(failures.size() + " failures (seed " + seed + "):\n" + String.join("\n", failures));
            }
        }
    }

    /** The journal's hash once it has not changed for two seconds. */
    private static String settled(Path journal) throws IOException, InterruptedException {
        String last = sha256(journal);
        for (int i = 0; i < 30; i++) {
            Thread.sleep(2000);
            String now = sha256(journal);
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static boolean alive(Rest rest) {
        try {
            return rest.size(REPO) >= 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String snippet(String s) {
        String flat = s.replaceAll("\\s+", " ");
        return flat.length() > 160 ? flat.substring(0, 160) + "…" : flat;
    }

    static String sha256(Path file) throws IOException {
        try {
            // streamed: a journal may be larger than the test's heap
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            try (var in = Files.newInputStream(file)) {
                for (int n; (n = in.read(buffer)) > 0;) {
                    digest.update(buffer, 0, n);
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A small dataset with IRIs, blank nodes, typed and language literals and a named graph, in every format. */
    static Map<RDFFormat, byte[]> corpus() {
        ValueFactory vf = SimpleValueFactory.getInstance();
        Model model = new LinkedHashModel();
        for (int i = 0; i < 12; i++) {
            var s = vf.createIRI(EX, "s" + i);
            model.add(s, vf.createIRI(EX, "name"), vf.createLiteral("name " + i, i % 2 == 0 ? "en" : "de"));
            model.add(s, vf.createIRI(EX, "age"), vf.createLiteral(20 + i));
            model.add(s, vf.createIRI(EX, "score"), vf.createLiteral(String.valueOf(i * 1.5), XSD.DECIMAL));
            var b = vf.createBNode("b" + i);
            model.add(s, vf.createIRI(EX, "address"), b, vf.createIRI(EX, "g" + i % 3));
            model.add(b, vf.createIRI(EX, "city"), vf.createLiteral("City \"" + i + "\"\n"), vf.createIRI(EX, "g" + i % 3));
        }
        Map<RDFFormat, byte[]> corpus = new LinkedHashMap<>();
        for (RDFFormat format : List.of(RDFFormat.TURTLE, RDFFormat.NTRIPLES, RDFFormat.NQUADS, RDFFormat.TRIG,
                RDFFormat.RDFXML, RDFFormat.JSONLD, RDFFormat.RDFJSON, RDFFormat.TRIX, RDFFormat.BINARY, RDFFormat.N3)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Rio.write(model, out, format);
            corpus.put(format, out.toByteArray());
        }
        return corpus;
    }
}
