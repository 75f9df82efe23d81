package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.List;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.model.util.Values;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The front's content negotiation and writers, on an in-memory store. */
class ResultWriterTest {
    private static final String CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }";
    private SailRepository repository;
    private RepositoryConnection connection;

    @BeforeEach
    void open() {
        repository = new SailRepository(new MemoryStore());
        connection = repository.getConnection();
        connection.add(Values.iri("http://example.org/a"), Values.iri("http://example.org/p"), Values.literal("x", "en"));
        connection.add(Values.iri("http://example.org/a"), Values.iri("http://example.org/q"), Values.iri("http://example.org/b"));
        org.eclipse.rdf4j.model.BNode node = Values.bnode("n");
        connection.add(Values.iri("http://example.org/a"), Values.iri("http://example.org/r"), node);
        connection.add(node, Values.iri("http://example.org/p"), Values.literal("y"));
    }

    @AfterEach
    void close() {
        connection.close();
        repository.shutDown();
    }

    @Test
    void everyRdfFormatRoundTrips() {
        Model want = QueryResults.asModel(connection.prepareGraphQuery(CONSTRUCT).evaluate());
        for (RDFFormat format : List.of(RDFFormat.NTRIPLES, RDFFormat.TURTLE, RDFFormat.RDFXML, RDFFormat.NQUADS,
                RDFFormat.JSONLD)) {
            ResultWriter.Answer answer = write(CONSTRUCT, format.getDefaultMIMEType());
            assertTrue(answer.contentType().startsWith(format.getDefaultMIMEType()), answer.contentType());
            assertTrue(Models.isomorphic(want, parse(answer, format)), format.getName());
        }
    }

    @Test
    void turtleIsWrittenStatementByStatementWithoutInliningBlankNodes() {
        String turtle = text(write(CONSTRUCT, "text/turtle"));
        assertTrue(turtle.contains("_:"), turtle); // a pretty writer holds statements back to inline the node as [ … ]
        assertTrue(!turtle.contains("["), turtle);
    }

    @Test
    void acceptHeadersAreNegotiatedWithQValues() {
        assertEquals("text/turtle", type(write(CONSTRUCT, " Text/Turtle ")));
        assertEquals("application/n-triples", type(write(CONSTRUCT, null)));
        assertEquals("application/n-triples", type(write(CONSTRUCT, "*/*")));
        assertEquals("application/rdf+xml", type(write(CONSTRUCT, "text/turtle;q=0.5, application/rdf+xml")));
        assertEquals("text/turtle", type(write(CONSTRUCT, "text/*")));
        assertEquals("application/ld+json", type(write(CONSTRUCT, "application/rdf+xml;q=0, application/ld+json;q=0.1")));
        assertEquals("application/sparql-results+xml", type(write("SELECT * { ?s ?p ?o }",
                "application/sparql-results+json;q=0.4, application/sparql-results+xml;q=0.8")));
        assertEquals("text/csv", type(write("SELECT * { ?s ?p ?o }", "text/csv")));
        assertThrows(ResultWriter.NotAcceptable.class, () -> write(CONSTRUCT, "application/rdf+xml;q=0, image/png"));
        assertThrows(ResultWriter.NotAcceptable.class, () -> write("SELECT * { ?s ?p ?o }", "application/rdf+xml"));
    }

    @Test
    void askIsWrittenInEveryResultFormat() {
        String ask = "ASK { ?s <http://example.org/q> ?o }";
        assertEquals("_askResult\r\ntrue\r\n", text(write(ask, "text/csv")));
        assertEquals("_askResult\ntrue\n", text(write(ask, "text/tab-separated-values")));
        assertTrue(text(write(ask, "application/sparql-results+json")).contains("true"));
        assertTrue(text(write(ask, "application/sparql-results+xml")).contains("<boolean>true</boolean>"));
    }

    private ResultWriter.Answer write(String query, String accept) {
        return ResultWriter.evaluate(connection, query, accept, 1 << 20);
    }

    private static String type(ResultWriter.Answer answer) {
        return answer.contentType().replaceFirst(";.*", "");
    }

    private static String text(ResultWriter.Answer answer) {
        return new String(answer.bytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static Model parse(ResultWriter.Answer answer, RDFFormat format) {
        try {
            return Rio.parse(new ByteArrayInputStream(answer.bytes()), "", format);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
