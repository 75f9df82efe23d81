package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.impl.TupleQueryResultBuilder;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Basalt servers (child JVMs of the launcher's build) and the FedX front on 127.0.0.1 at a tiny
 * scale. The data is partitioned and loaded; BSBM-like queries through the front must give the same
 * solutions as one store holding all the data (RDF4J's MemoryStore, the reference engine), compared
 * as sorted solution sets, with star pushdown and without it, and the stars must take fewer member
 * requests (a constant-subject star exactly one), through the members' select ports (as {@code cluster} runs them)
 * and through their RDF4J Servers. DESCRIBE and CONSTRUCT answers must come in
 * RDF/XML, JSON-LD, Turtle, N-Triples and N-Quads as the Accept header asks. Then a member is frozen (SIGSTOP: it accepts
 * connections but never answers) and killed: each time queries must fail with HTTP 503 naming that
 * member, never answer partially, and answer fully again once the member is back. A front started before the
 * load warms itself at the load's refresh. Nothing may be left running or listening afterwards.
 */
class LocalClusterTest {
    static final Path HOME = Path.of(System.getProperty("basalt.server.home", "../workbench-config/target"));

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The launcher in the started JVM (no relaunch: the test freezes a member by its pid; no warm-up: tests start many). */
    static List<String> launcher() {
        String classPath = HOME.resolve("classes") + File.pathSeparator + HOME.resolve("lib") + File.separator + "*";
        return List.of(MemberServer.javaBinary(), "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dbasalt.server.relaunch=false", "-Dbasalt.server.warmup=0", "-Dbasalt.server.warmup.data=0", "-cp", classPath,
                "dev.basalt.workbench.BasaltServer", "--home", HOME.toString());
    }

    @Test
    void twoShardsAnswerLikeOneStoreAndAFailedMemberIsNamed() throws Exception {
        assertTrue(Files.isDirectory(HOME.resolve("webapps")), "build the launcher first: " + HOME);
        List<Path> files = TinyShop.write(dir);
        List<Integer> ports = new ArrayList<>();
        List<Long> pids = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.start(2, dir.resolve("cluster"), launcher(), List.of(), List.of(), null,
                ReplicatedVocabulary.schema())) {
            assertTrue(cluster.members().stream().allMatch(m -> m.selectUrl() != null), "select ports open");
            SparqlFront early = SparqlFront.start(Federation.open(cluster.members(), FrontSettings.defaults()),
                    FrontSettings.defaults(), "127.0.0.1", 0);
            ports.add(early.port());
            PartitioningLoader.LoadResult load;
            try {
                assertEquals(0, early.warmUp(FrontWarmup.TEMPLATES.size()).queries(), "no data to warm with yet");
                load = cluster.load(files);
                HttpResponse<String> refreshed = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + early.port() + SparqlFront.REFRESH_PATH)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, refreshed.statusCode(), refreshed.body());
                assertTrue(refreshed.body().contains("front warm-up: " + FrontWarmup.TEMPLATES.size() + " queries"),
                        "a front started before the load warms itself at the load's refresh: " + refreshed.body());
                assertNull(early.warmUp(FrontWarmup.TEMPLATES.size()), "warmed once");
            } finally {
                early.close();
            }
            long expected = Files.readAllLines(files.get(0)).size() + Files.readAllLines(files.get(1)).size();
            assertEquals(expected, load.statements());
            long[] sizes = { size(cluster.members().get(0)), size(cluster.members().get(1)) };
            assertEquals(expected, sizes[0] + sizes[1], "statements on the members");
            assertTrue(sizes[0] > expected / 4 && sizes[1] > expected / 4, "both shards hold data: " + sizes[0] + "/" + sizes[1]);

            // No member timeout of its own: a member's reads wait for the query's remaining time, so a slow
            // member on a loaded machine still answers, and a frozen one fails the query at its timeout.
            FrontSettings settings = FrontSettings.defaults().withQueryTimeout(Duration.ofSeconds(12));
            SparqlFront front = cluster.startFront(settings, 0);
            ports.add(front.port());
            for (int i = 0; i < 2; i++) {
                ports.add(cluster.server(i).port());
                pids.add(cluster.server(i).pid());
            }

            SailRepository reference = new SailRepository(new MemoryStore());
            try (RepositoryConnection c = reference.getConnection()) {
                c.add(files.get(0).toFile(), RDFFormat.NTRIPLES);
                c.add(files.get(1).toFile(), RDFFormat.NQUADS);
                for (String query : TinyShop.queries()) {
                    List<String> want = solutions(c, TinyShop.PREFIXES + query);
                    assertFalse(want.isEmpty(), "the reference answers " + query);
                    assertEquals(want, federated(cluster, TinyShop.PREFIXES + query), query);
                }
                starsTakeFewerRequests(cluster.members(), settings, c);
                List<Member> viaRdf4jServer = cluster.members().stream().map(m -> new Member(m.shard(), m.repositoryUrl()))
                        .toList();
                starsTakeFewerRequests(viaRdf4jServer, settings, c);
                everyFormatIsServed(cluster, c);
                aQueryPastItsTimeoutIsAnsweredWithATimeoutError(cluster.members());
                limitsGoToTheMembers(cluster.members(), c);
                theFrontWarmsItselfWithQueriesFromTheData(cluster);

                String probe = TinyShop.PREFIXES + TinyShop.queries().get(3);
                List<String> want = solutions(c, probe);
                MemberServer member = cluster.server(1);
                String named = "shard-1 (" + member.repositoryUrl() + ")";

                signal("STOP", member.pid());
                try {
                    long started = System.nanoTime();
                    HttpResponse<String> frozen = query(cluster, probe);
                    assertEquals(503, frozen.statusCode(), frozen.body());
                    assertTrue(frozen.body().contains(named) && frozen.body().contains("did not answer"), frozen.body());
                    long waited = System.nanoTime() - started;
                    assertTrue(waited > 11_000_000_000L && waited < 30_000_000_000L,
                            "a frozen member fails the query at its 12 s timeout, after " + waited / 1_000_000 + " ms");
                } finally {
                    signal("CONT", member.pid());
                }
                assertEquals(want, federated(cluster, probe), "after the member answers again");

                member.kill();
                HttpResponse<String> down = query(cluster, probe);
                assertEquals(503, down.statusCode(), down.body());
                assertTrue(down.body().contains(named) && down.body().contains("unreachable"), down.body());
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(
                        URI.create(cluster.frontUrl().replace(SparqlFront.PATH, "/health"))).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(503, health.statusCode());
                assertTrue(health.body().contains("shard-1"), health.body());

                member.start();
                pids.add(member.pid());
                assertEquals(want, federated(cluster, probe), "after the member restarted on its data");
            } finally {
                reference.shutDown();
            }
        }
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " left running");
        }
        for (int port : ports) {
            try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(port, free.getLocalPort());
            }
        }
    }

    @Test
    void updatesAreRefusedWithWhereToSendThem() throws Exception {
        // A front over an address where nothing listens: the refusal happens before any member is asked.
        int port = MemberServer.freePort();
        Member nowhere = new Member(0, "http://127.0.0.1:" + port + "/rdf4j-server/repositories/basalt");
        FrontSettings settings = FrontSettings.defaults().withMemberTimeout(Duration.ofSeconds(2));
        try (SparqlFront front = SparqlFront.start(Federation.open(List.of(nowhere), settings), settings, "127.0.0.1", 0)) {
            String url = "http://127.0.0.1:" + front.port() + SparqlFront.PATH;
            HttpResponse<String> update = http.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/sparql-update")
                    .POST(HttpRequest.BodyPublishers.ofString("INSERT DATA { <a:b> <a:c> <a:d> }")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, update.statusCode());
            assertTrue(update.body().contains("read-only"), update.body());
            HttpResponse<String> down = http.send(HttpRequest.newBuilder(URI.create(url + "?query="
                    + URLEncoder.encode("SELECT * { ?s ?p ?o }", StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, down.statusCode(), down.body());
            assertTrue(down.body().contains("shard-0 (" + nowhere.repositoryUrl() + ")"), down.body());
        }
    }

    /**
     * The same queries through a federation with star pushdown and one without: equal answers, and
     * the stars take fewer member requests; a star on a constant subject takes one (its owner).
     */
    private static void starsTakeFewerRequests(List<Member> members, FrontSettings settings, RepositoryConnection reference) {
        try (Federation stars = Federation.open(members, settings);
                Federation plain = Federation.open(members, settings.withStarPushdown(false))) {
            for (String query : TinyShop.queries()) {
                String text = TinyShop.PREFIXES + query;
                if (query.equals(TinyShop.queries().get(11))) {
                    // FedX 5.1.2 alone drops the reviews whose OPTIONAL rating fails its filter; the star answers right
                    assertNotEquals(solutions(reference, text), counted(plain, text).solutions(), query);
                    assertEquals(solutions(reference, text), counted(stars, text).solutions(), query);
                } else {
                    assertEquals(solutions(reference, text), counted(plain, text).solutions(), "without stars: " + query);
                }
            }
            for (String query : List.of(TinyShop.queries().get(0), TinyShop.queries().get(1), TinyShop.queries().get(2),
                    TinyShop.queries().get(3), TinyShop.queries().get(12))) {
                String text = TinyShop.PREFIXES + query;
                Counted withStars = counted(stars, text);
                Counted without = counted(plain, text);
                assertEquals(without.solutions(), withStars.solutions(), query);
                assertTrue(withStars.requests() < without.requests(),
                        withStars.requests() + " requests with stars, " + without.requests() + " without: " + query);
            }
            Counted owner = counted(stars, TinyShop.PREFIXES
                    + "SELECT ?l ?f WHERE { ex:product6 rdfs:label ?l ; bsbm:productFeature ?f }");
            assertEquals(2, owner.solutions().size());
            assertEquals(1, owner.requests(), "a constant-subject star goes to its owner only");
        }
    }

    /**
     * A query whose rows the front joins and sorts for longer than its timeout (four label stars joined on
     * nothing, ordered) is answered 503 with the timeout error, not after the whole product.
     */
    private void aQueryPastItsTimeoutIsAnsweredWithATimeoutError(List<Member> members) throws Exception {
        FrontSettings settings = FrontSettings.defaults().withQueryTimeout(Duration.ofSeconds(1));
        try (SparqlFront front = SparqlFront.start(Federation.open(members, settings), settings, "127.0.0.1", 0)) {
            String query = TinyShop.PREFIXES + "SELECT * WHERE { ?a rdfs:label ?w . ?b rdfs:label ?x ."
                    + " ?c rdfs:label ?y . ?d rdfs:label ?z } ORDER BY ?w ?x ?y ?z LIMIT 5";
            long started = System.nanoTime();
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.port()
                    + SparqlFront.PATH + "?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertEquals(503, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("did not finish within its timeout of 1000 ms"), answer.body());
            assertTrue(millis < 15_000, "answered after " + millis + " ms");
        }
    }

    /**
     * With members allowed to send 50 rows per answer, a LIMIT over the whole data (over 1,000 statements)
     * answers, and LIMIT / OFFSET / ORDER BY answers equal one store's, while the same query without LIMIT
     * is answered 413.
     */
    private void limitsGoToTheMembers(List<Member> members, RepositoryConnection reference) throws Exception {
        FrontSettings settings = FrontSettings.defaults().withQueryTimeout(Duration.ofSeconds(30)).withMaxMemberRows(50);
        try (SparqlFront front = SparqlFront.start(Federation.open(members, settings), settings, "127.0.0.1", 0)) {
            String url = "http://127.0.0.1:" + front.port() + SparqlFront.PATH;
            HttpResponse<String> all = http.send(HttpRequest.newBuilder(URI.create(url + "?query="
                    + URLEncoder.encode("SELECT * WHERE { ?s ?p ?o }", StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(413, all.statusCode(), all.body());
            List<String> every = solutions(reference, "SELECT * WHERE { ?s ?p ?o }");
            assertTrue(every.size() > 1000, every.size() + " statements");
            List<String> one = federated(url, "SELECT * WHERE { ?s ?p ?o } LIMIT 1");
            assertEquals(1, one.size());
            assertTrue(every.containsAll(one), one.toString());
            for (String query : List.of("SELECT ?p ?l WHERE { ?p rdfs:label ?l } ORDER BY ?l ?p LIMIT 4 OFFSET 7",
                    "SELECT ?o ?price WHERE { ?o bsbm:price ?price } ORDER BY DESC(?price) ?o LIMIT 5")) {
                String text = TinyShop.PREFIXES + query;
                assertEquals(solutions(reference, text), federated(url, text), query);
            }
        }
    }

    record Counted(List<String> solutions, long requests) {
    }

    private static void theFrontWarmsItselfWithQueriesFromTheData(LocalCluster cluster) throws IOException {
        FrontWarmup warmup = new FrontWarmup(cluster.frontUrl());
        List<FrontWarmup.Subject> subjects = warmup.sample();
        assertFalse(subjects.isEmpty(), "the sample has IRI subjects");
        assertFalse(warmup.describable(subjects).isEmpty(), "some sampled subjects can be described");
        int queries = FrontWarmup.TEMPLATES.size() * 5; // every template in several Accept types
        FrontWarmup.Result result = FrontWarmup.run(cluster.frontUrl(), queries);
        assertEquals(queries, result.queries(), "every warm-up query is answered with HTTP 200");
    }

    private static Counted counted(Federation federation, String query) {
        long before = federation.requestsSent();
        try (RepositoryConnection c = federation.repository().getConnection()) {
            List<String> rows = solutions(c, query);
            return new Counted(rows, federation.requestsSent() - before);
        }
    }

    /** DESCRIBE/CONSTRUCT in every RDF format the front offers and ASK in CSV, with content negotiation. */
    private void everyFormatIsServed(LocalCluster cluster, RepositoryConnection reference) throws Exception {
        String construct = TinyShop.PREFIXES + "CONSTRUCT { ?o bsbm:product ?p ; bsbm:label ?l } WHERE {"
                + " ?o bsbm:product ?p . ?p rdfs:label ?l ; bsbm:producer ex:producer2 }";
        Model want = QueryResults.asModel(reference.prepareGraphQuery(construct).evaluate());
        assertFalse(want.isEmpty());
        for (RDFFormat format : List.of(RDFFormat.RDFXML, RDFFormat.JSONLD, RDFFormat.TURTLE, RDFFormat.NTRIPLES,
                RDFFormat.NQUADS)) {
            HttpResponse<String> answer = query(cluster, construct, format.getDefaultMIMEType());
            assertEquals(200, answer.statusCode(), format + ": " + answer.body());
            assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith(format.getDefaultMIMEType()));
            Model got = Rio.parse(new ByteArrayInputStream(answer.body().getBytes(StandardCharsets.UTF_8)), "", format);
            assertTrue(Models.isomorphic(want, got), format + " answer differs: " + got);
        }
        String describe = TinyShop.PREFIXES + "DESCRIBE ex:product6";
        Model described = QueryResults.asModel(reference.prepareGraphQuery(describe).evaluate());
        HttpResponse<String> rdfXml = query(cluster, describe, "text/plain;q=0.2, application/rdf+xml;q=0.9, text/turtle;q=0.5");
        assertEquals(200, rdfXml.statusCode(), rdfXml.body());
        assertTrue(Models.isomorphic(described, Rio.parse(new ByteArrayInputStream(rdfXml.body().getBytes(
                StandardCharsets.UTF_8)), "", RDFFormat.RDFXML)), rdfXml.body());
        assertTrue(query(cluster, describe, "*/*").headers().firstValue("Content-Type").orElse("")
                .startsWith("application/n-triples"));
        assertEquals(406, query(cluster, describe, "application/rdf+xml;q=0, image/png").statusCode());
        HttpResponse<String> ask = query(cluster, TinyShop.PREFIXES + "ASK { ex:product6 rdfs:label ?l }",
                "text/csv");
        assertEquals("_askResult\r\ntrue\r\n", ask.body());
        HttpResponse<String> tsv = query(cluster, TinyShop.PREFIXES + "SELECT ?l { ex:product6 rdfs:label ?l }",
                "text/tab-separated-values");
        assertTrue(tsv.headers().firstValue("Content-Type").orElse("").startsWith("text/tab-separated-values"));
        assertTrue(tsv.body().startsWith("?l\n") && tsv.body().contains("Product 6"), tsv.body());
    }

    private long size(Member member) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(member.repositoryUrl() + "/size")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Long.parseLong(r.body().trim());
    }

    private HttpResponse<String> query(LocalCluster cluster, String query) throws IOException, InterruptedException {
        return query(cluster, query, "application/sparql-results+json");
    }

    private HttpResponse<String> query(LocalCluster cluster, String query, String accept)
            throws IOException, InterruptedException {
        return query(cluster.frontUrl(), query, accept);
    }

    private HttpResponse<String> query(String frontUrl, String query, String accept)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(frontUrl))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", accept)
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<String> federated(LocalCluster cluster, String query) throws IOException, InterruptedException {
        return federated(cluster.frontUrl(), query);
    }

    private List<String> federated(String frontUrl, String query) throws IOException, InterruptedException {
        HttpResponse<String> response = query(frontUrl, query, "application/sparql-results+json");
        assertEquals(200, response.statusCode(), response.body());
        TupleQueryResultBuilder builder = new TupleQueryResultBuilder();
        QueryResultIO.parseTuple(new ByteArrayInputStream(response.body().getBytes(StandardCharsets.UTF_8)),
                TupleQueryResultFormat.JSON, builder, SimpleValueFactory.getInstance());
        try (TupleQueryResult result = builder.getQueryResult()) {
            return canonical(result);
        }
    }

    private static List<String> solutions(RepositoryConnection c, String query) {
        try (TupleQueryResult result = c.prepareTupleQuery(QueryLanguage.SPARQL, query).evaluate()) {
            return canonical(result);
        }
    }

    /** Each solution as "var=term" pairs in variable order, the list sorted: a solution multiset. */
    static List<String> canonical(TupleQueryResult result) {
        List<String> rows = new ArrayList<>();
        for (BindingSet solution : result) {
            TreeMap<String, String> row = new TreeMap<>();
            solution.forEach(b -> row.put(b.getName(), NTriplesUtil.toNTriplesString(b.getValue())));
            rows.add(row.toString());
        }
        rows.sort(null);
        return rows;
    }

    private static void signal(String name, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + name + " " + pid);
    }
}
