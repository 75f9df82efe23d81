package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.basalt.sail.http.SelectPort;

/**
 * A member's select port ({@link SelectPort}) read by the front's member client: SELECT answers equal the
 * repository's own, many requests share one kept-alive connection, an answer of many chunks arrives whole, and
 * what the port does not answer (another method, query form, body type or result format, an unknown repository,
 * a malformed query) is an HTTP error with a message, after which a valid request on a new connection is answered.
 */
class SelectPortTest {
    private static final int PRODUCTS = 1_000;
    private static SailRepository repository;
    private static SelectPort port;
    private static String url;
    private static AtomicLong sent;
    private static MemberConnections connections;
    private static MemberHttp member;

    @BeforeAll
    static void start() throws Exception {
        repository = new SailRepository(new MemoryStore());
        repository.init();
        ValueFactory vf = SimpleValueFactory.getInstance();
        try (RepositoryConnection c = repository.getConnection()) {
            c.begin();
            for (int i = 0; i < PRODUCTS; i++) {
                c.add(vf.createIRI("http://example.org/product" + i), vf.createIRI("http://example.org/label"),
                        vf.createLiteral("product number " + i + " with a label long enough to need several chunks"));
            }
            c.commit();
        }
        port = SelectPort.start("127.0.0.1:0", id -> id.equals("basalt") ? repository : null);
        url = "http://127.0.0.1:" + port.port() + "/repositories/basalt";
        sent = new AtomicLong();
        connections = new MemberConnections(url, sent);
        member = new MemberHttp("shard-0", url, connections, 10_000, 1_000_000);
    }

    @AfterAll
    static void stop() {
        connections.close();
        port.close();
        repository.shutDown();
    }

    @Test
    void selectAnswersAreTheRepositorysOnKeptConnections() {
        long requestsBefore = sent.get();
        long connectionsBefore = port.accepted();
        for (int i = 0; i < 5; i++) {
            String query = "SELECT ?s ?l WHERE { ?s <http://example.org/label> ?l FILTER (STRENDS(STR(?s), \"" + i
                    + "\")) }";
            assertEquals(canonical(own(query)), canonical(member.select(query, 10_000)), query);
        }
        // a large answer: about 100 KB in chunks of 16 KiB
        String all = "SELECT * WHERE { ?s ?p ?o }";
        List<BindingSet> rows = member.select(all, 10_000);
        assertEquals(PRODUCTS, rows.size());
        assertEquals(canonical(own(all)), canonical(rows));
        assertEquals(6, sent.get() - requestsBefore);
        assertTrue(port.accepted() - connectionsBefore <= 1, "requests one after another share one connection");
    }

    @Test
    void whatThePortDoesNotAnswerIsAnErrorWithAMessage() throws Exception {
        String select = "SELECT * WHERE { ?s ?p ?o } LIMIT 1";
        assertTrue(exchange("GET /repositories/basalt?query=x HTTP/1.1\r\nHost: h\r\n\r\n")
                .startsWith("HTTP/1.1 405 "));
        assertTrue(exchange(post("/repositories/basalt", "application/sparql-query", null, "ASK { ?s ?p ?o }"))
                .contains("SELECT queries only"));
        assertTrue(exchange(post("/repositories/other", "application/sparql-query", null, select))
                .startsWith("HTTP/1.1 404 "));
        assertTrue(exchange(post("/repositories/basalt", "application/x-www-form-urlencoded", null, "query=" + select))
                .startsWith("HTTP/1.1 415 "));
        assertTrue(exchange(post("/repositories/basalt", "application/sparql-query", "application/sparql-results+json",
                select)).startsWith("HTTP/1.1 406 "));
        String malformed = exchange(post("/repositories/basalt", "application/sparql-query", null, "SELECT * WHERE {"));
        assertTrue(malformed.startsWith("HTTP/1.1 400 ") && malformed.contains("MALFORMED QUERY"), malformed);
        QueryEvaluationException e = assertThrows(QueryEvaluationException.class,
                () -> member.select("SELECT * WHERE { ?s ?p }", 10_000));
        assertTrue(e.getMessage().contains("member shard-0 answered HTTP 400"), e.getMessage());
        assertEquals(1, member.select(select, 10_000).size());
    }

    private static String post(String target, String type, String accept, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return "POST " + target + " HTTP/1.1\r\nHost: h\r\nContent-Type: " + type + "\r\n"
                + (accept == null ? "" : "Accept: " + accept + "\r\n") + "Content-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n" + body;
    }

    /** Sends {@code request} on a new connection and returns all the port answers until it closes. */
    private static String exchange(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    private static List<BindingSet> own(String query) {
        try (RepositoryConnection c = repository.getConnection()) {
            return QueryResults.asList(c.prepareTupleQuery(QueryLanguage.SPARQL, query).evaluate());
        }
    }

    private static List<String> canonical(List<BindingSet> rows) {
        List<String> lines = new ArrayList<>();
        for (BindingSet row : rows) {
            lines.add(new java.util.TreeMap<>(toMap(row)).toString());
        }
        lines.sort(null);
        return lines;
    }

    private static java.util.Map<String, String> toMap(BindingSet row) {
        java.util.Map<String, String> m = new java.util.HashMap<>();
        row.forEach(b -> m.put(b.getName(), b.getValue().toString()));
        return m;
    }
}
