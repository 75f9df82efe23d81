package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.List;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.impl.ListBindingSet;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * The front's requests to a member (a stand-in member serving 20 rows in RDF4J's binary results format): an
 * answer up to {@code --max-member-rows} is read whole, a larger one stops at the limit with the error the front
 * answers with 413, naming the member and the option.
 */
class MemberHttpTest {
    private static final int ROWS = 20;
    private static HttpServer member;
    private static MemberConnections client;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        ValueFactory vf = SimpleValueFactory.getInstance();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        TupleQueryResultWriter writer = QueryResultIO.createTupleWriter(TupleQueryResultFormat.BINARY, body);
        writer.startQueryResult(List.of("s", "o"));
        for (int i = 0; i < ROWS; i++) {
            writer.handleSolution(new ListBindingSet(List.of("s", "o"), vf.createIRI("http://example.org/s" + i),
                    vf.createLiteral(i)));
        }
        writer.endQueryResult();
        byte[] answer = body.toByteArray();
        member = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        member.createContext("/repositories/m", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", MemberHttp.BINARY);
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        member.start();
        url = "http://127.0.0.1:" + member.getAddress().getPort() + "/repositories/m";
        client = new MemberConnections(url, new java.util.concurrent.atomic.AtomicLong());
    }

    @AfterAll
    static void stop() throws Exception {
        client.close();
        member.stop(0);
    }

    @Test
    void anAnswerWithinTheRowLimitIsReadWhole() {
        List<BindingSet> rows = new MemberHttp("m", url, client, 10_000, ROWS).select("SELECT * { ?s ?p ?o }", 10_000);
        assertEquals(ROWS, rows.size());
        assertEquals("http://example.org/s19", rows.get(ROWS - 1).getValue("s").stringValue());
    }

    @Test
    void aLargerAnswerStopsAtTheRowLimit() {
        ResultWriter.TooLarge e = assertThrows(ResultWriter.TooLarge.class,
                () -> new MemberHttp("m", url, client, 10_000, ROWS - 1).select("SELECT * { ?s ?p ?o }", 10_000));
        assertTrue(e.getMessage().contains("member m answered a star subquery with more than 19 rows"), e.getMessage());
        assertTrue(e.getMessage().contains("--max-member-rows"), e.getMessage());
    }
}
