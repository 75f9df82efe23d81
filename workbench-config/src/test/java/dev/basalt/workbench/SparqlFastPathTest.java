package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.http.SparqlFastPathMXBean;

/**
 * The launcher's SPARQL fast path against RDF4J Server's own handling, in one server: repository {@code fast}
 * ({@code basalt:BasaltRepository}, which the fast path answers) and repository {@code rdf4j}
 * ({@code openrdf:SailRepository} over a Basalt store, which RDF4J Server answers), loaded with the same
 * statements. Every request goes to both; status, {@code Content-Type}, {@code Content-Disposition},
 * {@code Vary}, {@code Content-Language}, {@code Content-Encoding} and the body must be the same bytes, for
 * SELECT, ASK, CONSTRUCT and DESCRIBE in every result format the server offers (a DESCRIBE's body, and a CONSTRUCT's
 * in RDF/XML, which the fast path writes itself: the same statements, whose order is undefined and follows each
 * store's term ids), over GET, form POST and
 * {@code application/sparql-query} POST, with the protocol's parameters, and for malformed queries, bad
 * parameters and formats the client cannot accept. The fast path's MBean shows which requests it answered:
 * the well-formed queries, and none of the errors.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparqlFastPathTest {
    private static final List<String> HEADERS = List.of("content-type", "content-disposition", "vary",
            "content-language", "content-encoding");
    private static final String DATA = """
            <http://ex.org/a> <http://ex.org/name> "Alice, \\"the\\" <first> & only\\r\\n" .
            <http://ex.org/a> <http://ex.org/label> "chat"@fr .
            <http://ex.org/a> <http://ex.org/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .
            <http://ex.org/a> <http://ex.org/score> "1.50"^^<http://www.w3.org/2001/XMLSchema#decimal> .
            <http://ex.org/a> <http://ex.org/odd> "x"^^<http://ex.org/dt?a=1&b='2'> .
            <http://ex.org/a> <http://ex.org/knows> <http://ex.org/b,c> <http://ex.org/g1> .
            <http://ex.org/b,c> <http://ex.org/name> "B\\u00e9\\u4e2d\\U0001F600\\t" <http://ex.org/g2> .
            <http://ex.org/b,c> <http://ex.org/age> "7"^^<http://www.w3.org/2001/XMLSchema#int> <http://ex.org/g2> .
            """;
    private static final List<String> QUERIES = List.of(
            "SELECT * WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o",
            "SELECT ?o ?s WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?o",
            "SELECT ?s (COUNT(*) AS ?n) (SAMPLE(?x) AS ?unbound) WHERE { ?s ?p ?o OPTIONAL { ?s <http://ex.org/none> ?x } }"
                    + " GROUP BY ?s ORDER BY ?s",
            "SELECT * WHERE { ?s <http://ex.org/nothing> ?o }",
            "ASK { ?s <http://ex.org/age> 42 }",
            "ASK { ?s <http://ex.org/age> 43 }",
            "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o",
            "DESCRIBE <http://ex.org/a>");
    private static final List<String> ACCEPTS = List.of("", "*/*", "application/sparql-results+xml",
            "application/sparql-results+json", "application/json", "text/csv", "text/tab-separated-values",
            "application/x-binary-rdf-results-table", "application/x-sparqlstar-results+json", "text/boolean",
            "text/turtle", "application/n-triples", "application/rdf+xml", "application/ld+json",
            "application/sparql-results+xml, application/sparql-results+json;q=0.8, text/csv;q=0.2, */*;q=0.1",
            "text/csv;q=0.5, application/sparql-results+json", "image/png");

    @TempDir
    static Path data;
    LauncherProcess launcher;
    JMXConnector jmx;
    SparqlFastPathMXBean fastPath;
    MBeanServerConnection beans;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    String server;

    @BeforeAll
    void start() throws Exception {
        int jmxPort = LauncherProcess.freePort();
        launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-fast-path.log"), "--no-repository")
                .withLocalJmx("-Xmx384m", jmxPort)
                .start();
        server = launcher.serverUrl();
        createPair("fast", "rdf4j", "application/n-quads", DATA);
        jmx = JMXConnectorFactory.connect(new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"));
        beans = jmx.getMBeanServerConnection();
        fastPath = JMX.newMXBeanProxy(beans, new ObjectName("dev.basalt:type=SparqlFastPath,context=\"/rdf4j-server\""),
                SparqlFastPathMXBean.class);
    }

    @AfterAll
    void stop() throws Exception {
        if (jmx != null) {
            jmx.close();
        }
        if (launcher != null) {
            launcher.close();
        }
    }

    @Test
    void answersEveryFormatAsRdf4jServerDoes() {
        assertTrue(fastPath.isEnabled());
        long answered = fastPath.getAnswered();
        long direct = directRuns();
        int expectedAnswers = 0;
        for (String query : QUERIES) {
            for (String accept : ACCEPTS) {
                Exchange rdf4j = null;
                for (Method method : Method.values()) {
                    Exchange fast = send("fast", method, Map.of("query", query), accept, false);
                    Exchange reference = send("rdf4j", method, Map.of("query", query), accept, false);
                    if (query.startsWith("DESCRIBE") || query.startsWith("CONSTRUCT") && isRdfXml(reference)) {
                        assertSameGraph(reference, fast, method + " " + query + " Accept: " + accept);
                    } else {
                        assertSame(reference, fast, method + " " + query + " Accept: " + accept);
                    }
                    if (fast.status == 200) {
                        expectedAnswers++;
                    }
                    rdf4j = reference;
                }
                assertTrue(rdf4j.status == 200 || rdf4j.status == 406, rdf4j.status + " " + rdf4j.text());
            }
        }
        assertEquals(expectedAnswers, fastPath.getAnswered() - answered, "queries the fast path answered");
        assertTrue(directRuns() - direct > 0, "SELECTs answered by their kept plans without a connection");
    }

    /**
     * Creates a fast-path repository {@code fast} ({@code basalt:BasaltRepository}) and an {@code openrdf:SailRepository}
     * over a Basalt store {@code reference}, and loads {@code data} into both.
     */
    private void createPair(String fast, String reference, String contentType, String data) throws Exception {
        new RepositoryBootstrap(server).ensureBasaltRepository(fast);
        Rest rest = new Rest(server);
        Rest.Response created = rest.createRepository(reference, ServerRestApiTest.config(reference, ""));
        assertEquals(204, created.status(), created.body());
        for (String id : List.of(fast, reference)) {
            Rest.Response added = rest.add(id, contentType, data);
            assertEquals(204, added.status(), added.body());
        }
    }

    private static boolean isRdfXml(Exchange exchange) {
        return exchange.headers.getOrDefault("content-type", "").startsWith("application/rdf+xml");
    }

    /**
     * CONSTRUCT and DESCRIBE answers in RDF/XML, which the fast path writes itself: the same graphs as RDF4J Server's
     * for data with predicates of several namespaces (some declared in the query, some not, {@code rdf:type}), blank
     * nodes as subjects and objects, literals with language tags and datatypes, and text and IRIs that XML escapes. A
     * DESCRIBE's RDF/XML is the same bytes whether written from its statements (its shape's first query) or from its
     * kept plan's term ids (the later ones).
     */
    @Test
    void answersGraphsInRdfXmlAsRdf4jServerDoes() throws Exception {
        createPair("graphs-fast", "graphs-rdf4j", "text/turtle", GRAPH_DATA);
        String prefixes = """
                PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
                PREFIX rev: <http://purl.org/stuff/rev#>
                PREFIX bsbm: <http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/>
                PREFIX bsbm-export: <http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/export/>
                PREFIX dc: <http://purl.org/dc/elements/1.1/>
                """;
        List<String> queries = List.of(
                "PREFIX rev: <http://purl.org/stuff/rev#> DESCRIBE ?x WHERE { <http://ex.org/review1> rev:reviewer ?x }",
                "DESCRIBE <http://ex.org/review1>",
                "DESCRIBE ?b WHERE { ?b <http://ex.org/in> ?any }",
                prefixes + "CONSTRUCT { <http://ex.org/export/o1> bsbm-export:product ?p ; bsbm-export:price ?price ;"
                        + " bsbm-export:vendor ?v ; bsbm-export:title ?t ; rdf:type bsbm:Offer . }"
                        + " WHERE { ?o bsbm:product ?p ; bsbm:price ?price ; bsbm:vendor ?v . ?r dc:title ?t }",
                "CONSTRUCT { _:made <http://ex.org/of> ?s ; <http://ex.org/v> ?o } WHERE { ?s <http://xmlns.com/foaf/0.1/name> ?o }",
                "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }");
        long answered = fastPath.getAnswered();
        long direct = directRuns();
        int requests = 0;
        Map<String, String> firstDescription = new HashMap<>();
        for (String query : queries) {
            for (String accept : List.of("application/rdf+xml", "", "*/*")) {
                for (Method method : Method.values()) {
                    Exchange reference = send("graphs-rdf4j", method, Map.of("query", query), accept, false);
                    Exchange fast = send("graphs-fast", method, Map.of("query", query), accept, false);
                    assertEquals(200, fast.status, fast.text());
                    assertSameGraph(reference, fast, method + " " + query + " Accept: " + accept);
                    if (query.contains("DESCRIBE") && isRdfXml(fast)) {
                        // the first is written from its statements, the later ones (kept plan) from term ids
                        String first = firstDescription.putIfAbsent(query, fast.text());
                        assertEquals(first == null ? fast.text() : first, fast.text(), "RDF/XML of " + query);
                    }
                    requests++;
                }
            }
        }
        assertEquals(requests, fastPath.getAnswered() - answered, "graph queries the fast path answered");
        assertTrue(directRuns() - direct > 0, "graph queries answered by their kept plans without a connection");
    }

    private static final String GRAPH_DATA = """
            @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
            @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
            @prefix foaf: <http://xmlns.com/foaf/0.1/> .
            @prefix rev: <http://purl.org/stuff/rev#> .
            @prefix dc: <http://purl.org/dc/elements/1.1/> .
            @prefix bsbm: <http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/> .
            <http://ex.org/review1> a bsbm:Review ; rev:reviewer <http://ex.org/person1> ;
                dc:title "A <b>bold</b> & 'quoted' \\"title\\"\\r\\n\\tend"@en ;
                rev:text "Ein Text \\u00fcber \\u4e2d\\U0001F600"@de-AT ;
                bsbm:rating1 "7"^^xsd:integer ; dc:date "2008-06-20"^^xsd:date .
            <http://ex.org/person1> a foaf:Person ; foaf:name "Person & <One>" ;
                foaf:mbox_sha1sum "2c4b7b0e0f8f4a3b" ; bsbm:country <http://downlode.org/rdf/iso-3166/countries#DE> ;
                dc:publisher <http://ex.org/site?a=1&b='2'> ; dc:date "2008-07-01"^^xsd:date ;
                <http://ex.org/knows> [ foaf:name "anonymous" ; <http://ex.org/in> <http://ex.org/person1> ] .
            <http://ex.org/offer1> bsbm:product <http://ex.org/product1> ; bsbm:price "123.45"^^xsd:decimal ;
                bsbm:vendor <http://ex.org/vendor1> ; bsbm:validTo "2008-08-01T00:00:00"^^xsd:dateTime ;
                bsbm:odd "x"^^<http://ex.org/dt?a=1&b='2'> .
            """;

    /** Queries the query front doors of the server's Basalt repositories answered by kept plans directly. */
    private long directRuns() {
        try {
            long sum = 0;
            for (ObjectName name : beans.queryNames(new ObjectName("dev.basalt:type=QueryFront,*"), null)) {
                sum += (Long) beans.getAttribute(name, "DirectRuns");
            }
            return sum;
        } catch (Exception e) {
            throw new AssertionError("reading the QueryFront MBeans", e);
        }
    }

    @Test
    void takesTheProtocolsParameters() {
        List<Map<String, String>> cases = new ArrayList<>();
        String select = "SELECT ?s ?o WHERE { ?s <http://ex.org/name> ?o } ORDER BY ?o";
        cases.add(params("query", select, "default-graph-uri", "http://ex.org/g2"));
        cases.add(params("query", select, "default-graph-uri", "null"));
        cases.add(params("query", "SELECT * WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g ?s ?p", "named-graph-uri",
                "http://ex.org/g1"));
        cases.add(params("query", select, "infer", "false", "timeout", "20"));
        cases.add(params("query", "SELECT ?o WHERE { ?s <http://ex.org/name> ?o }", "$s", "<http://ex.org/a>"));
        cases.add(params("query", "ASK { ?s ?p ?o }", "$o", "\"chat\"@fr"));
        long answered = fastPath.getAnswered();
        for (Map<String, String> p : cases) {
            for (Method method : Method.values()) {
                Exchange fast = send("fast", method, p, "application/sparql-results+json", false);
                assertEquals(200, fast.status, p + " " + fast.text());
                assertSame(send("rdf4j", method, p, "application/sparql-results+json", false), fast, method + " " + p);
            }
        }
        assertEquals(cases.size() * Method.values().length, fastPath.getAnswered() - answered);
    }

    /**
     * Answers to requests with an {@code Accept-Language} (several languages, a script, an extension, an unknown tag,
     * a wildcard) carry RDF4J Server's {@code Content-Language} and {@code Content-Type}, in formats with a charset
     * and without one (binary results), for a SELECT and a DESCRIBE answered by their kept plans; and GET query strings
     * the fast path decodes itself ({@code +} for space, upper and lower case escapes, UTF-8, a repeated
     * {@code query}, an empty parameter) are read as RDF4J Server reads them.
     */
    @Test
    void readsLanguagesAndQueryStringsAsRdf4jServerDoes() {
        String select = "SELECT ?s ?o WHERE { ?s <http://ex.org/name> ?o } ORDER BY ?o";
        String describe = "DESCRIBE ?x WHERE { ?x <http://ex.org/label> \"chat\"@fr }";
        List<String> languages = List.of("fr-CH, fr;q=0.9, en;q=0.8", "de", "zh-Hant-TW", "ja-JP-u-ca-japanese",
                "xx-unknown", "*");
        long answered = fastPath.getAnswered();
        int requests = 0;
        for (String language : languages) {
            for (String accept : List.of("application/sparql-results+xml", "application/x-binary-rdf-results-table")) {
                String q = "query=" + Rest.encode(select);
                assertSame(get("rdf4j", q, accept, language), get("fast", q, accept, language), language + " " + accept);
                requests++;
            }
            for (String accept : List.of("application/rdf+xml", "application/x-binary-rdf", "text/turtle")) {
                String q = "query=" + Rest.encode(describe);
                assertSameGraph(get("rdf4j", q, accept, language), get("fast", q, accept, language),
                        language + " " + accept);
                requests++;
            }
        }
        List<String> queryStrings = List.of(
                "query=SELECT+%3fs+%3Fo+WHERE+%7b+%3Fs+%3chttp%3A%2F%2Fex.org%2Fname%3E+%3Fo+%7D+ORDER+BY+%3Fo",
                "query=SELECT+*+WHERE+%7B+%3Fs+%3Fp+%22B%C3%A9%E4%B8%AD%F0%9F%98%80%5Ct%22+%7D",
                "query=" + Rest.encode(select) + "&query=" + Rest.encode("ASK {}"),
                "&query=" + Rest.encode(select) + "&&infer=true",
                "infer&query=" + Rest.encode(select));
        for (String q : queryStrings) {
            Exchange fast = get("fast", q, "application/sparql-results+json", null);
            assertEquals(200, fast.status, q + " " + fast.text());
            assertSame(get("rdf4j", q, "application/sparql-results+json", null), fast, q);
            requests++;
        }
        assertEquals(requests, fastPath.getAnswered() - answered, "requests the fast path answered");
    }

    @Test
    void leavesErrorsAndOtherRequestsToRdf4jServer() {
        List<Map<String, String>> cases = new ArrayList<>();
        cases.add(params("query", "SELECT * WHERE { ?s ?p "));
        cases.add(params("query", "INSERT DATA { <http://ex.org/x> <http://ex.org/y> 1 }"));
        cases.add(params("query", "SELECT * WHERE { ?s ?p ?o }", "timeout", "soon"));
        cases.add(params("query", "SELECT * WHERE { ?s ?p ?o }", "$s", "<<not a value"));
        cases.add(params("query", "SELECT * WHERE { ?s ?p ?o }", "default-graph-uri", "not an iri"));
        cases.add(params("query", "SELECT * WHERE { ?s ?p ?o }", "queryLn", "nonsense"));
        cases.add(params("query", "SELECT * WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o", "limit", "2", "offset", "1"));
        cases.add(params("query", "SELECT * WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o", "Accept", "text/csv"));
        cases.add(params("query", "SELECT * WHERE { ?s ?p ?o }", "Accept", "image/png"));
        cases.add(params("nothing", "here"));
        long answered = fastPath.getAnswered();
        for (Map<String, String> p : cases) {
            for (Method method : List.of(Method.GET, Method.FORM)) {
                assertSame(send("rdf4j", method, p, "application/sparql-results+xml", false),
                        send("fast", method, p, "application/sparql-results+xml", false), method + " " + p);
            }
        }
        Exchange unknown = send("missing", Method.GET, params("query", "ASK {}"), "", false);
        assertEquals(404, unknown.status, unknown.text());
        assertEquals(0, fastPath.getAnswered() - answered, "the fast path answered none of them");
    }

    /**
     * A form the container does not read (over the server's form limit) is passed on, and answered as RDF4J Server
     * answers it (a 4xx: no query parameter), through {@link ClientErrorMapping}.
     */
    @Test
    void aFormOverTheLimitIsRdf4jServersAnswer() {
        String huge = "SELECT * WHERE { ?s ?p ?o } #" + "x".repeat(ClientErrorMapping.MAX_FORM_BYTES + 1024);
        long answered = fastPath.getAnswered();
        Exchange fast = send("fast", Method.FORM, params("query", huge), "application/sparql-results+xml", false);
        Exchange reference = send("rdf4j", Method.FORM, params("query", huge), "application/sparql-results+xml", false);
        assertEquals(reference.status + " " + reference.text(), fast.status + " " + fast.text());
        assertTrue(fast.status >= 400 && fast.status < 500, fast.status + " " + fast.text());
        assertEquals(0, fastPath.getAnswered() - answered);
    }

    @Test
    void compressesAsRdf4jServerDoes() {
        String query = "SELECT * WHERE { ?s ?p ?o . ?a ?b ?c . ?d ?e ?f } ORDER BY ?s ?p ?o ?a ?b ?c ?d ?e ?f";
        for (String accept : List.of("application/sparql-results+xml", "application/sparql-results+json", "text/csv")) {
            Exchange fast = send("fast", Method.GET, params("query", query), accept, true);
            assertSame(send("rdf4j", Method.GET, params("query", query), accept, true), fast, "gzip " + accept);
            assertTrue(fast.body.length > 4096, "a result large enough to be compressed: " + fast.body.length);
        }
    }

    private enum Method {
        GET, FORM, SPARQL_QUERY
    }

    private record Exchange(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static void assertSame(Exchange expected, Exchange actual, String what) {
        assertEquals(expected.status, actual.status, what + ": status; " + actual.text());
        assertEquals(expected.headers, actual.headers, what + ": headers");
        assertArrayEquals(expected.body, actual.body, () -> what + ": body\n--- RDF4J Server:\n" + expected.text()
                + "\n--- fast path:\n" + actual.text());
    }

    /**
     * A DESCRIBE answer's statements have no order (the two stores may number terms differently, so
     * index order differs): status and headers must match, the bodies must hold the same statements.
     */
    private static void assertSameGraph(Exchange expected, Exchange actual, String what) {
        assertEquals(expected.status, actual.status, what + ": status; " + actual.text());
        assertEquals(expected.headers, actual.headers, what + ": headers");
        if (expected.status != 200) {
            assertArrayEquals(expected.body, actual.body, what + ": body");
            return;
        }
        String type = expected.headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .map(e -> e.getValue().split(";")[0].trim()).findFirst().orElseThrow(() -> new AssertionError(what + ": no content type"));
        org.eclipse.rdf4j.rio.RDFFormat format = org.eclipse.rdf4j.rio.Rio.getParserFormatForMIMEType(type)
                .orElseThrow(() -> new AssertionError(what + ": not an RDF format: " + type));
        try {
            org.eclipse.rdf4j.model.Model want = org.eclipse.rdf4j.rio.Rio.parse(new ByteArrayInputStream(expected.body),
                    "", format);
            org.eclipse.rdf4j.model.Model got = org.eclipse.rdf4j.rio.Rio.parse(new ByteArrayInputStream(actual.body), "",
                    format);
            assertTrue(!want.isEmpty() && org.eclipse.rdf4j.model.util.Models.isomorphic(want, got),
                    () -> what + ": statements\n--- RDF4J Server:\n" + expected.text() + "\n--- fast path:\n" + actual.text());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> params(String... keysAndValues) {
        Map<String, String> p = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            p.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return p;
    }

    private Exchange send(String repository, Method method, Map<String, String> params, String accept, boolean gzip) {
        String url = server + "/repositories/" + repository;
        StringBuilder form = new StringBuilder();
        params.forEach((k, v) -> {
            if (!(method == Method.SPARQL_QUERY && k.equals("query"))) {
                form.append(form.isEmpty() ? "" : "&").append(Rest.encode(k)).append('=').append(Rest.encode(v));
            }
        });
        HttpRequest.Builder request = switch (method) {
            case GET -> HttpRequest.newBuilder(URI.create(url + "?" + form)).GET();
            case FORM -> HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form.toString()));
            case SPARQL_QUERY -> HttpRequest.newBuilder(URI.create(url + (form.isEmpty() ? "" : "?" + form)))
                    .header("Content-Type", "application/sparql-query; charset=UTF-8")
                    .POST(HttpRequest.BodyPublishers.ofString(params.getOrDefault("query", ""), StandardCharsets.UTF_8));
        };
        if (!accept.isEmpty()) {
            request.header("Accept", accept);
        }
        if (gzip) {
            request.header("Accept-Encoding", "gzip");
        }
        return exchange(request);
    }

    /** A GET of {@code repository} with the query string as it is, and the {@code Accept}/{@code Accept-Language} headers. */
    private Exchange get(String repository, String queryString, String accept, String language) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server + "/repositories/" + repository + "?"
                + queryString)).GET().header("Accept", accept);
        if (language != null) {
            request.header("Accept-Language", language);
        }
        return exchange(request);
    }

    private Exchange exchange(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> r = http.send(request.timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            Map<String, String> headers = new LinkedHashMap<>();
            for (String h : HEADERS) {
                r.headers().firstValue(h).ifPresent(v -> headers.put(h, v));
            }
            byte[] body = r.body();
            if ("gzip".equals(headers.get("content-encoding"))) {
                try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
                    body = in.readAllBytes();
                }
            }
            return new Exchange(r.statusCode(), headers, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
