package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.repository.config.ConfigTemplate;
import org.eclipse.rdf4j.repository.config.RepositoryConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance 1 and 4 of issue 6 against the launcher in a child JVM: a Basalt repository created
 * through the REST API, loaded with Turtle, queried with SELECT/ASK/CONSTRUCT, changed with SPARQL
 * UPDATE, found intact after a restart; bad requests get RDF4J's 4xx answers and change nothing.
 * A repository of Basalt's own type ({@code basalt:BasaltRepository}, from the template) answers
 * queries of one shape with many constants, takes updates and uploads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerRestApiTest {
    static final String REPO = "it";
    static final int PEOPLE = 500;

    @TempDir
    static Path data;
    LauncherProcess launcher;
    Rest rest;

    static String config(String id, String sailProperties) {
        return """
                @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
                @prefix config: <tag:rdf4j.org,2023:config/>.
                @prefix basalt: <http://basalt.dev/config/sail#>.
                [] a config:Repository ; config:rep.id "%s" ; rdfs:label "integration test" ;
                   config:rep.impl [ config:rep.type "openrdf:SailRepository" ;
                     config:sail.impl [ config:sail.type "basalt:BasaltStore" ; %s ] ].
                """.formatted(id, sailProperties);
    }

    static String people(int from, int to) {
        StringBuilder ttl = new StringBuilder("@prefix ex: <http://example.org/> .\n");
        for (int i = from; i < to; i++) {
            ttl.append("ex:p").append(i).append(" a ex:Person ; ex:name \"Person ").append(i)
                    .append("\" ; ex:age ").append(20 + i % 50).append(" ; ex:knows ex:p").append((i + 1) % to)
                    .append(" .\n");
        }
        return ttl.toString();
    }

    @BeforeAll
    void start() throws Exception {
        launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-rest-api.log"), "--no-repository")
                .start();
        rest = new Rest(launcher.serverUrl());
    }

    @AfterAll
    void stop() throws Exception {
        launcher.close();
    }

    @Test
    @Order(1)
    void createsBasaltRepositoryThroughRestApi() {
        Rest.Response created = rest.createRepository(REPO, config(REPO,
                "basalt:journalMode \"RW\" ; basalt:historyRetention \"PT1M\" ; basalt:statementIndexes \"spoc,posc,cspo\""));
        assertEquals(204, created.status(), created.body());
        assertTrue(rest.listRepositories().body().contains("/repositories/" + REPO + ","));
        assertEquals(0, rest.size(REPO));
        assertTrue(Files.exists(data.resolve("server/repositories").resolve(REPO).resolve("basalt.jnl")),
                "the store's journal lies under the data directory");
    }

    @Test
    @Order(2)
    void addsTurtle() {
        Rest.Response added = rest.add(REPO, "text/turtle", people(0, PEOPLE));
        assertEquals(204, added.status(), added.body());
        assertEquals(PEOPLE * 4L, rest.size(REPO));
        Rest.Response graph = rest.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                rest.repositoryUrl(REPO) + "/statements?context=" + Rest.encode("<http://example.org/g1>")))
                .header("Content-Type", "text/turtle")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "<http://example.org/g1> <http://example.org/source> \"test\" .")));
        assertEquals(204, graph.status(), graph.body());
        assertEquals(PEOPLE * 4L + 1, rest.size(REPO));
    }

    @Test
    @Order(3)
    void answersSelectAskConstruct() {
        assertEquals(String.valueOf(PEOPLE), rest.selectOne(REPO,
                "SELECT (COUNT(?p) AS ?n) WHERE { ?p a <http://example.org/Person> }"));
        assertEquals("Person 7", rest.selectOne(REPO,
                "SELECT ?name WHERE { <http://example.org/p7> <http://example.org/name> ?name }"));
        assertEquals("10", rest.selectOne(REPO,
                "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://example.org/age> 30 }"));
        assertEquals("1", rest.selectOne(REPO,
                "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <http://example.org/g1> { ?s ?p ?o } }"));

        Rest.Response ask = rest.query(REPO, "ASK { <http://example.org/p1> <http://example.org/knows> <http://example.org/p2> }",
                "text/boolean");
        assertEquals(200, ask.status(), ask.body());
        assertEquals("true", ask.body().trim());
        Rest.Response askNo = rest.query(REPO, "ASK { <http://example.org/p1> <http://example.org/knows> <http://example.org/p3> }",
                "text/boolean");
        assertEquals("false", askNo.body().trim());

        Rest.Response construct = rest.query(REPO, """
                PREFIX ex: <http://example.org/>
                CONSTRUCT { ?b ex:knownBy ?a } WHERE { ?a ex:knows ?b FILTER(?a IN (ex:p1, ex:p2, ex:p3)) }""",
                "application/n-triples");
        assertEquals(200, construct.status(), construct.body());
        List<String> triples = construct.body().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(3, triples.size(), construct.body());
        assertTrue(triples.contains("<http://example.org/p2> <http://example.org/knownBy> <http://example.org/p1> ."),
                construct.body());
    }

    @Test
    @Order(4)
    void appliesSparqlUpdate() {
        Rest.Response update = rest.update(REPO, """
                PREFIX ex: <http://example.org/>
                DELETE { ?p ex:age ?a } INSERT { ?p ex:age ?b } WHERE { ?p ex:age ?a FILTER(?a = 20) BIND(?a + 100 AS ?b) } ;
                INSERT DATA { ex:new a ex:Person ; ex:name "New" }""");
        assertEquals(204, update.status(), update.body());
        assertEquals("0", rest.selectOne(REPO, "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://example.org/age> 20 }"));
        assertEquals("10", rest.selectOne(REPO, "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://example.org/age> 120 }"));
        assertEquals(String.valueOf(PEOPLE + 1), rest.selectOne(REPO,
                "SELECT (COUNT(?p) AS ?n) WHERE { ?p a <http://example.org/Person> }"));
    }

    @Test
    @Order(5)
    void refusesBadRequestsAndKeepsTheRepository() {
        long before = rest.size(REPO);

        Rest.Response query = rest.query(REPO, "SELECT * WHERE { ?s ?p ", "text/csv");
        assertEquals(400, query.status());
        assertTrue(query.body().startsWith("MALFORMED QUERY"), query.body());

        Rest.Response update = rest.update(REPO, "INSERT DATA { <http://example.org/x> <http://example.org/p> }");
        assertEquals(400, update.status());
        assertTrue(update.body().startsWith("MALFORMED QUERY"), update.body());

        // The good lines before the bad one must not land: an upload is one transaction.
        Rest.Response upload = rest.add(REPO, "text/turtle",
                people(10_000, 10_010) + "<http://example.org/broken> <http://example.org/p> \"unterminated .\n");
        assertEquals(400, upload.status());
        assertTrue(upload.body().startsWith("MALFORMED DATA"), upload.body());
        assertTrue(upload.body().contains("line"), "the message names the line at fault: " + upload.body());

        Rest.Response wrongType = rest.add(REPO, "application/x-unknown", "whatever");
        assertEquals(415, wrongType.status(), wrongType.body());

        Rest.Response unknown = rest.query("no-such-repo", "ASK {}", "text/boolean");
        assertEquals(404, unknown.status());
        assertTrue(unknown.body().contains("Unknown repository: no-such-repo"), unknown.body());

        assertEquals(before, rest.size(REPO));
    }

    @Test
    @Order(6)
    void refusesInvalidBasaltConfigurations() {
        String listed = rest.listRepositories().body();
        record Bad(String properties, String message) {
        }
        for (Bad bad : List.of(
                new Bad("basalt:journalMode \"APPEND\"", "journalMode must be RW or WORM, found 'APPEND'"),
                new Bad("basalt:historyRetention \"one hour\"", "historyRetention must be an ISO-8601 duration"),
                new Bad("basalt:statementIndexes \"spoc,spoc\"", "statement index 'spoc' is listed twice"),
                new Bad("basalt:statementIndexes \"spox\"", "spox"),
                new Bad("basalt:leafMaxEntries \"-5\"", "leafMaxEntries must be a non-negative integer"),
                new Bad("basalt:pageCacheBytes \"lots\"", "pageCacheBytes must be a non-negative integer"),
                new Bad("basalt:durable \"yes\"", "durable must be true or false"))) {
            Rest.Response r = rest.createRepository("bad", config("bad", bad.properties()));
            assertEquals(400, r.status(), bad.properties() + " -> " + r.body());
            assertTrue(r.body().contains(bad.message()), bad.properties() + " -> " + r.body());
        }
        assertEquals(listed, rest.listRepositories().body(), "no repository was created");
        assertFalse(Files.exists(data.resolve("server/repositories/bad/basalt.jnl")));

        // Creating an existing repository again is refused and leaves it as it was.
        long before = rest.size(REPO);
        Rest.Response r = rest.createRepository(REPO, config(REPO, "basalt:journalMode \"WORM\""));
        assertEquals(409, r.status(), r.body());
        assertTrue(r.body().contains("repository already exists: " + REPO), r.body());
        assertEquals(before, rest.size(REPO));
    }

    @Test
    @Order(7)
    void streamsLargeUploads() {
        int statements = 200_000;
        long before = rest.size(REPO);
        Rest.Response r = rest.addStream(REPO, "application/n-triples", () -> generatedNTriples(statements));
        assertEquals(204, r.status(), r.body());
        assertEquals(before + statements, rest.size(REPO));
    }

    /** N-Triples produced while being sent, a few lines at a time. */
    static InputStream generatedNTriples(int statements) {
        int batch = 1000;
        Enumeration<InputStream> parts = new Enumeration<>() {
            int next;

            @Override
            public boolean hasMoreElements() {
                return next < statements;
            }

            @Override
            public InputStream nextElement() {
                StringBuilder lines = new StringBuilder();
                for (int end = Math.min(statements, next + batch); next < end; next++) {
                    lines.append("<http://example.org/bulk/").append(next).append("> <http://example.org/value> \"")
                            .append(next).append("\" .\n");
                }
                return new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8));
            }
        };
        return new SequenceInputStream(parts);
    }

    /** The sail jar's template (RDF4J 5 vocabulary) filled as the Console does: Basalt's own repository type. */
    static String templateConfig(String id, String queryShapes) throws IOException {
        String template;
        try (InputStream in = RepositoryConfig.class.getResourceAsStream("/org/eclipse/rdf4j/repository/config/basalt.ttl")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new ConfigTemplate(template).render(Map.of("Repository ID", id, "Query shapes", queryShapes));
    }

    @Test
    @Order(8)
    void servesBasaltRepositoryTypeFromTemplate() throws Exception {
        String id = "shaped";
        Rest.Response created = rest.createRepository(id, templateConfig(id, "50"));
        assertEquals(204, created.status(), created.body());
        Rest.Response config = rest.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                rest.repositoryUrl(id) + "/config")).header("Accept", "application/n-triples").GET());
        assertEquals(200, config.status(), config.body());
        assertTrue(config.body().contains("\"basalt:BasaltRepository\""), config.body());
        assertTrue(config.body().contains("<http://basalt.dev/config/sail#queryShapes> \"50\""), config.body());

        StringBuilder nt = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            nt.append("<http://example.org/p").append(i).append("> <http://example.org/name> \"Person ").append(i)
                    .append("\" .\n<http://example.org/p").append(i).append("> <http://example.org/age> \"")
                    .append(20 + i % 50).append("\"^^<http://www.w3.org/2001/XMLSchema#integer> .\n");
        }
        Rest.Response added = rest.add(id, "application/n-triples", nt.toString());
        assertEquals(204, added.status(), added.body());
        assertEquals(600, rest.size(id));
        // N-Triples uploads take the bulk pipeline: a malformed line names its line and changes nothing
        Rest.Response malformed = rest.add(id, "application/n-triples",
                nt + "<http://example.org/x> <http://example.org/p> .\n" + nt);
        assertEquals(400, malformed.status(), malformed.body());
        assertTrue(malformed.body().startsWith("MALFORMED DATA"), malformed.body());
        assertTrue(malformed.body().contains("request body:601: malformed N-Triples at column 47: expected an object"), "the message names the line: " + malformed.body());
        assertEquals(600, rest.size(id));

        // one query shape, many constants: each answer is its own constant's
        for (int i = 0; i < 300; i += 7) {
            assertEquals("Person " + i, rest.selectOne(id,
                    "SELECT ?name WHERE { <http://example.org/p" + i + "> <http://example.org/name> ?name }"));
            assertEquals("6", rest.selectOne(id,
                    "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://example.org/age> " + (20 + i % 50) + " }"));
        }
        // the launcher writes results without pretty printing (docs/benchmarks-server.md)
        Rest.Response xml = rest.query(id, "SELECT ?p ?n WHERE { ?p <http://example.org/name> ?n } LIMIT 5",
                "application/sparql-results+xml");
        assertEquals(200, xml.status(), xml.body());
        assertEquals(5, xml.body().split("<result>", -1).length - 1, xml.body());
        assertTrue(xml.body().lines().count() <= 2, "no indentation: " + xml.body());
        String log = Files.readString(data.resolve("server/logs/main.log"));
        assertFalse(log.contains("is finished"), "no INFO line per query in main.log");
        assertTrue(Files.readString(data.resolve(WebappAssembly.SERVER_LOG_CONFIG)).contains("org.eclipse.rdf4j.http.server.repository"));
        Rest.Response update = rest.update(id, "INSERT DATA { <http://example.org/p1> <http://example.org/age> 99 }");
        assertEquals(204, update.status(), update.body());
        assertEquals("1", rest.selectOne(id, "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://example.org/age> 99 }"));
        assertEquals("6", rest.selectOne(id, "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://example.org/age> 21 }"));

        Rest.Response bad = rest.createRepository("badshapes", templateConfig("badshapes", "many"));
        assertEquals(400, bad.status(), bad.body());
        assertTrue(bad.body().contains("queryShapes must be a non-negative integer"), bad.body());

        // the launcher's default repository is created as the same type
        new RepositoryBootstrap(launcher.serverUrl()).ensureBasaltRepository("boot");
        Rest.Response boot = rest.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                rest.repositoryUrl("boot") + "/config")).header("Accept", "application/n-triples").GET());
        assertTrue(boot.body().contains("\"basalt:BasaltRepository\""), boot.body());
        assertEquals(204, rest.deleteRepository("boot").status());
    }

    @Test
    @Order(9)
    void keepsEverythingAcrossARestart() throws Exception {
        long size = rest.size(REPO);
        launcher.stop();
        launcher.start();
        rest = new Rest(launcher.serverUrl());
        assertEquals(size, rest.size(REPO));
        assertEquals("10", rest.selectOne(REPO, "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://example.org/age> 120 }"));
        assertEquals("New", rest.selectOne(REPO,
                "SELECT ?n WHERE { <http://example.org/new> <http://example.org/name> ?n }"));
        assertEquals("199999", rest.selectOne(REPO,
                "SELECT ?v WHERE { <http://example.org/bulk/199999> <http://example.org/value> ?v }"));
        // and it still takes writes
        assertEquals(204, rest.update(REPO, "INSERT DATA { <http://example.org/after> <http://example.org/p> 1 }").status());
        assertEquals(size + 1, rest.size(REPO));
    }
}
