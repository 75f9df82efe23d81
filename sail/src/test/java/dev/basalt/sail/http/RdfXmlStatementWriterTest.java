package dev.basalt.sail.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.RDFStarUtil;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.rdf4j.StatementIds;

/**
 * The fast path's RDF/XML writer: what it writes, read back by RDF4J's RDF/XML parser, is the graph it was given
 * (isomorphic: the same statements, blank nodes up to renaming), for random graphs over several namespaces, some
 * declared in the query's prologue and some not, blank subjects and objects with labels that are and are not XML
 * names, literals with language tags and datatypes, and text and IRIs with XML's special characters, white space
 * and characters outside the BMP; runs of one subject, an empty graph, RDF-star triples (as RDF4J's
 * {@code urn:rdf4j:triple:} IRIs) and a predicate RDF/XML cannot name. RDF4J's own RDF/XML writer's output for the
 * same graph is read back too, as the reference the launcher's answers are compared with.
 */
class RdfXmlStatementWriterTest {
    private static final long SEED = Long.getLong("basalt.seed", 34L);
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final List<String> NAMESPACES = List.of("http://xmlns.com/foaf/0.1/", "http://purl.org/stuff/rev#",
            "http://purl.org/dc/elements/1.1/", "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/",
            "http://ex.org/a?b=1&c='2'#", "http://ex.org/\u00e9t\u00e9/", RDF.NAMESPACE, "urn:x:");
    private static final List<String> LOCAL_NAMES = List.of("name", "type", "p1", "_x", "a-b.c", "\u00e9l\u00e8ve",
            "Caf\u00e9");
    /** Characters XML 1.0 can carry (RDF/XML has no way to write the others). */
    private static final String CHARS = "abcXYZ019 ,;\"'<>&\\/\t\n\r]]>\u0080\u00e9\u2028\u4e2d\ud83d\ude00#?%=";
    private static final List<String> LABELS = List.of("b1", "node17abc", "x-1", "1abc", "a b", "n\u00e9", "a:b",
            "genid-0");

    @Test
    void writesTheGraphItIsGiven() throws IOException {
        System.out.println("RdfXmlStatementWriterTest seed " + SEED + " (-Dbasalt.seed=N to vary)");
        Random random = new Random(SEED);
        for (int round = 0; round < 300; round++) {
            Map<String, String> prologue = new LinkedHashMap<>();
            prologue.put("foaf", NAMESPACES.get(0));
            if (random.nextBoolean()) {
                prologue.put("rev", NAMESPACES.get(1));
                prologue.put("rdf", RDF.NAMESPACE);
                prologue.put("", "http://ex.org/default/");
                prologue.put("xmlish", "http://ex.org/reserved/");
                prologue.put("odd", NAMESPACES.get(4));
                prologue.put("foaf2", NAMESPACES.get(0));
            }
            List<Statement> statements = new ArrayList<>();
            int size = round == 0 ? 0 : random.nextInt(12);
            Resource subject = null;
            for (int i = 0; i < size; i++) {
                if (subject == null || random.nextInt(3) == 0) {
                    subject = random.nextInt(4) == 0 ? VF.createBNode(pick(LABELS, random)) : iri(random);
                }
                IRI predicate = VF.createIRI(pick(NAMESPACES, random) + pick(LOCAL_NAMES, random));
                statements.add(VF.createStatement(subject, predicate, object(random)));
            }
            assertRoundTrip(prologue, statements);
        }
        assertTrue(lossy < 150, lossy + " of 300 graphs compared with RDF4J's reading of its own RDF/XML only");
    }

    @Test
    void writesRunsOfOneSubjectAndEmptyGraphs() throws IOException {
        IRI s = VF.createIRI("http://ex.org/s");
        IRI p = VF.createIRI("http://ex.org/p");
        List<Statement> run = List.of(VF.createStatement(s, p, VF.createLiteral("1")),
                VF.createStatement(VF.createIRI("http://ex.org/s"), p, VF.createLiteral("2")),
                VF.createStatement(s, RDF.TYPE, VF.createIRI("http://ex.org/C")),
                VF.createStatement(VF.createBNode("b"), p, s), VF.createStatement(VF.createBNode("b"), p, VF.createBNode("b")));
        String written = assertRoundTrip(Map.of(), run);
        assertEquals(2, written.split("<rdf:Description ", -1).length - 1, written);
        assertRoundTrip(Map.of("ex", "http://ex.org/"), List.of());
    }

    /**
     * The exact bytes of a description whose subject, object IRI and literal hold what RDF/XML escapes ({@code & < >},
     * quotes, tab, line feed, carriage return), what it leaves ({@code "}, other control characters), characters of
     * two, three and four UTF-8 bytes and unpaired surrogates (written as {@code ?}), at lengths the writer keeps and
     * does not keep encoded, and longer than the output buffer, so that escapes fall on either side of its hand-overs
     * to the stream. The expected
     * text is made by plain string replacement.
     */
    @Test
    void escapesTermsByteForByte() throws IOException {
        String odd = "a&b<c>d'e\"f\tg\nh\ri\u0001j\u00e9k\u4e2dl\ud83d\ude00m\ud800n\udc00";
        String long1 = "x&'".repeat(7_000) + odd;
        IRI p = VF.createIRI("http://ex.org/p");
        // short, kept in the response's table of long values (64 characters and more), and longer than the buffer
        for (String text : List.of(odd, odd.repeat(3), long1)) {
            IRI s = VF.createIRI("http://ex.org/" + text);
            List<Statement> statements = List.of(VF.createStatement(s, p, VF.createIRI("urn:" + text)),
                    VF.createStatement(s, p, VF.createLiteral(text)));
            String expected = "<?xml version='1.0' encoding='UTF-8'?>\n<rdf:RDF xmlns:rdf='" + RDF.NAMESPACE + "'>\n"
                    + "<rdf:Description rdf:about='http://ex.org/" + attribute(text) + "'>\n"
                    + "\t<p xmlns='http://ex.org/' rdf:resource='urn:" + attribute(text) + "'/>\n"
                    + "\t<p xmlns='http://ex.org/'>" + xmlText(text) + "</p>\n"
                    + "</rdf:Description>\n</rdf:RDF>\n";
            byte[] expectedBytes = expected.replace("\ud800", "?").replace("\udc00", "?").getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            RdfXmlStatementWriter writer = new RdfXmlStatementWriter(out);
            writer.start(Map.of());
            for (Statement st : statements) {
                writer.statement(st);
            }
            writer.end();
            writer.drain();
            assertEquals(new String(expectedBytes, StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8));
            assertArrayEquals(expectedBytes, out.toByteArray());
        }
    }

    private static String xmlText(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#xD;");
    }

    private static String attribute(String text) {
        return xmlText(text).replace("'", "&apos;").replace("\t", "&#x9;").replace("\n", "&#xA;");
    }

    @Test
    void writesRdfStarTriplesAsRdf4jsEncodedIris() throws IOException {
        IRI s = VF.createIRI("http://ex.org/s");
        IRI p = VF.createIRI("http://ex.org/p");
        Value triple = VF.createTriple(s, p, VF.createLiteral("o"));
        List<Statement> star = List.of(VF.createStatement(s, p, triple),
                VF.createStatement(VF.createTriple(s, p, s), p, VF.createLiteral(3)));
        String written = assertRoundTrip(Map.of(), star);
        assertTrue(written.contains(RDFStarUtil.toRDFEncodedValue(triple).stringValue()), written);
    }

    @Test
    void refusesAPredicateWithoutAnXmlLocalName() {
        Statement bad = VF.createStatement(VF.createIRI("http://ex.org/s"), VF.createIRI("http://ex.org/1"),
                VF.createLiteral("x"));
        RDFHandlerException e = assertThrows(RDFHandlerException.class, () -> write(Map.of(), List.of(bad)));
        assertTrue(e.getMessage().contains("http://ex.org/1"), e.getMessage());
        assertEquals(-1, RdfXmlStatementWriter.localNameStart("http://ex.org/a/"));
        assertEquals("http://ex.org/".length() + 1, RdfXmlStatementWriter.localNameStart("http://ex.org/1a"));
    }

    /**
     * A kept DESCRIBE's answer written from its ids ({@link KeptGraphWriter#document(Map, StatementIds)}) is byte
     * for byte what the statement path writes for the same statements: for the random graphs of
     * {@link #writesTheGraphItIsGiven} (blank nodes with labels that are and are not XML names, literals
     * with language tags and datatypes, XML's special characters, white space and characters outside the BMP,
     * namespaces with and without a declared prefix, RDF-star triples), handed over a few statements at a time,
     * with encoded terms kept across answers (written twice: made, then taken) and with a bound so small that most
     * are evicted at once.
     */
    @Test
    void writesTheSameBytesFromIdsAsFromStatements() throws IOException {
        Random random = new Random(SEED + 1);
        Map<Value, Long> ids = new HashMap<>();
        TermFragments kept = new TermFragments(1L << 20);
        TermFragments evicting = new TermFragments(256);
        for (int round = 0; round < 300; round++) {
            Map<String, String> prologue = new LinkedHashMap<>();
            if (random.nextBoolean()) {
                prologue.put("foaf", NAMESPACES.get(0));
                prologue.put("odd", NAMESPACES.get(4));
                prologue.put("rdf", RDF.NAMESPACE);
            }
            List<Statement> statements = new ArrayList<>();
            int size = round == 0 ? 0 : random.nextInt(40);
            Resource subject = null;
            for (int i = 0; i < size; i++) {
                if (subject == null || random.nextInt(3) == 0) {
                    subject = switch (random.nextInt(6)) {
                        case 0 -> VF.createBNode(pick(LABELS, random));
                        case 1 -> VF.createTriple(iri(random), RDF.TYPE, object(random));
                        default -> iri(random);
                    };
                }
                IRI predicate = VF.createIRI(pick(NAMESPACES, random) + pick(LOCAL_NAMES, random));
                statements.add(VF.createStatement(subject, predicate, object(random)));
            }
            String expected = write(prologue, statements);
            for (TermFragments fragments : List.of(kept, kept, evicting)) {
                assertEquals(expected, writeIds(prologue, statements, ids, fragments, random), statements::toString);
            }
        }
    }

    @Test
    void refusesAPredicateWithoutAnXmlLocalNameFromIdsToo() {
        Statement bad = VF.createStatement(VF.createIRI("http://ex.org/s"), VF.createIRI("http://ex.org/1"),
                VF.createLiteral("x"));
        RDFHandlerException e = assertThrows(RDFHandlerException.class, () -> writeIds(Map.of(), List.of(bad),
                new HashMap<>(), new TermFragments(1 << 16), new Random(SEED)));
        assertTrue(e.getMessage().contains("http://ex.org/1"), e.getMessage());
    }

    /**
     * {@code statements} written from ids (one per distinct term, kept in {@code ids} across calls, as a store's
     * lexicon gives them), handed to the writer one to five statements at a time.
     */
    private static String writeIds(Map<String, String> prologue, List<Statement> statements, Map<Value, Long> ids,
            TermFragments fragments, Random random) throws IOException {
        long[] spo = new long[3 * statements.size()];
        Map<Long, Value> terms = new HashMap<>();
        for (int i = 0; i < statements.size(); i++) {
            Statement st = statements.get(i);
            Value[] parts = { st.getSubject(), st.getPredicate(), st.getObject() };
            for (int j = 0; j < 3; j++) {
                long id = ids.computeIfAbsent(parts[j], v -> (long) ids.size() + 2);
                spo[3 * i + j] = id;
                terms.put(id, parts[j]);
            }
        }
        StatementIds answer = new StatementIds() {
            private int next;

            @Override
            public int nextIds(long[] into) {
                int n = Math.min(Math.min(1 + random.nextInt(5), into.length / 3), statements.size() - next);
                System.arraycopy(spo, 3 * next, into, 0, 3 * n);
                next += n;
                return n;
            }

            @Override
            public Value[] terms(long[] wanted) {
                Value[] values = new Value[wanted.length];
                for (int i = 0; i < wanted.length; i++) {
                    values[i] = terms.get(wanted[i]);
                }
                return values;
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RdfXmlStatementWriter writer = new RdfXmlStatementWriter(out);
        new KeptGraphWriter(writer, fragments).document(prologue, answer);
        writer.drain();
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * Writes, reads back with RDF4J's parser and compares with what RDF4J's own RDF/XML writer's document for the same
     * statements reads back as, and, where that is the statements given (RDF4J's parser reads a literal of white
     * space only as empty, and drops carriage returns), with the statements given.
     */
    private static String assertRoundTrip(Map<String, String> prologue, List<Statement> statements) throws IOException {
        String written = write(prologue, statements);
        Model expected = new LinkedHashModel(statements);
        Model got = read(written);
        ByteArrayOutputStream rdf4j = new ByteArrayOutputStream();
        org.eclipse.rdf4j.rio.RDFWriter writer = Rio.createWriter(RDFFormat.RDFXML, rdf4j);
        writer.startRDF();
        prologue.forEach(writer::handleNamespace);
        statements.forEach(writer::handleStatement);
        writer.endRDF();
        Model reference = read(rdf4j.toString(StandardCharsets.UTF_8));
        assertTrue(Models.isomorphic(reference, got), () -> "written:\n" + written + "\nRDF4J's:\n" + rdf4j
                + "\nread back: " + got + "\nRDF4J's read back: " + reference);
        if (Models.isomorphic(expected, reference)) {
            assertTrue(Models.isomorphic(expected, got), () -> "written:\n" + written + "\nread back: " + got
                    + "\nexpected: " + expected);
        } else {
            lossy++;
        }
        return written;
    }

    /** Graphs whose RDF/XML, written by RDF4J, does not read back as they are (counted, and bounded, in the test). */
    private static int lossy;

    private static String write(Map<String, String> prologue, List<Statement> statements) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RdfXmlStatementWriter writer = new RdfXmlStatementWriter(out);
        writer.start(prologue);
        for (Statement s : statements) {
            writer.statement(s);
        }
        writer.end();
        writer.drain();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Model read(String rdfXml) throws IOException {
        return Rio.parse(new ByteArrayInputStream(rdfXml.getBytes(StandardCharsets.UTF_8)), "", RDFFormat.RDFXML);
    }

    private static IRI iri(Random random) {
        return VF.createIRI("http://ex.org/r/" + text(random).replaceAll("[^A-Za-z0-9&'=,;\u00e9\u4e2d]", "_"));
    }

    private static Value object(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> iri(random);
            case 1 -> VF.createBNode(pick(LABELS, random));
            case 2 -> VF.createLiteral(text(random), random.nextBoolean() ? "en" : "fr-BE");
            case 3 -> VF.createLiteral(text(random), random.nextBoolean() ? XSD.INT : VF.createIRI("http://ex.org/dt?a=1&b='2'"));
            case 4 -> VF.createLiteral("");
            default -> VF.createLiteral(text(random));
        };
    }

    private static String text(Random random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(8);
        for (int i = 0; i < length; i++) {
            int at = random.nextInt(CHARS.length());
            char c = CHARS.charAt(at);
            if (Character.isHighSurrogate(c)) {
                s.append(c).append(CHARS.charAt(at + 1));
            } else if (!Character.isLowSurrogate(c)) {
                s.append(c);
            }
        }
        return s.toString();
    }

    private static <T> T pick(List<T> list, Random random) {
        return list.get(random.nextInt(list.size()));
    }
}
