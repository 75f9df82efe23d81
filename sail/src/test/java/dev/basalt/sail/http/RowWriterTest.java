package dev.basalt.sail.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.impl.IteratingTupleQueryResult;
import org.eclipse.rdf4j.query.impl.MapBindingSet;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriter;
import org.eclipse.rdf4j.rio.helpers.BasicWriterSettings;
import org.junit.jupiter.api.Test;

/**
 * The fast path's result writers against RDF4J's own, byte for byte, on random results: every kind of term,
 * strings with markup, quotes, control characters, characters outside the BMP and unpaired surrogates, rows
 * that bind a subset of the variables in any order, no rows and no variables.
 */
class RowWriterTest {
    private static final long SEED = Long.getLong("basalt.seed", 18L);
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final List<IRI> DATATYPES = List.of(XSD.STRING, XSD.INT, XSD.INTEGER, XSD.DECIMAL, XSD.DOUBLE,
            XSD.BOOLEAN, XSD.DATETIME, VF.createIRI("http://ex.org/dt?a=1&b='2'"));
    private static final String CHARS = "abcXYZ019 ,;\"'<>&\\/\t\n\r\u0000\u0001\u001f\u007f\u0080\u00e9\u2028\u4e2d"
            + "\ud83d\ude00\ud800\udc00\ufffe\uffff\ufffd#?%=";

    @Test
    void writesWhatRdf4jWrites() throws IOException {
        System.out.println("RowWriterTest seed " + SEED + " (-Dbasalt.seed=N to vary)");
        Random random = new Random(SEED);
        for (TupleQueryResultFormat format : List.of(TupleQueryResultFormat.SPARQL, TupleQueryResultFormat.JSON,
                TupleQueryResultFormat.CSV)) {
            for (int round = 0; round < 300; round++) {
                List<String> variables = new ArrayList<>();
                int width = round == 0 ? 0 : 1 + random.nextInt(4);
                for (int i = 0; i < width; i++) {
                    variables.add(i == 3 ? "v\u00e9" + i : "v" + i);
                }
                List<BindingSet> rows = new ArrayList<>();
                int height = round < 2 ? 0 : random.nextInt(6);
                for (int r = 0; r < height; r++) {
                    List<String> order = new ArrayList<>(variables);
                    Collections.shuffle(order, random);
                    MapBindingSet row = new MapBindingSet();
                    for (String v : order) {
                        if (random.nextInt(5) > 0) {
                            row.addBinding(v, value(random));
                        }
                    }
                    rows.add(row);
                }
                String expected = rdf4j(format, variables, rows);
                String actual = fast(format, variables, rows);
                if (!expected.equals(actual)) {
                    assertEquals(around(expected, actual), around(actual, expected), format + ", round " + round);
                }
            }
        }
    }

    /**
     * Long texts that rows repeat, which the writer keeps encoded ({@link RowWriter#MEMO_MIN_CHARS} up): around the
     * lengths it keeps and beyond, and one text both as an IRI (element text) and as a datatype (an attribute, which
     * escapes quotes too), so a kept encoding is only reused for the same escaping.
     */
    @Test
    void repeatedLongValuesAsRdf4jWritesThem() throws IOException {
        System.out.println("RowWriterTest seed " + SEED + " (-Dbasalt.seed=N to vary)");
        Random random = new Random(SEED);
        for (TupleQueryResultFormat format : List.of(TupleQueryResultFormat.SPARQL, TupleQueryResultFormat.JSON,
                TupleQueryResultFormat.CSV)) {
            for (int round = 0; round < 40; round++) {
                List<Value> pool = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    int length = List.of(RowWriter.MEMO_MIN_CHARS - 1, RowWriter.MEMO_MIN_CHARS, 100, 1000,
                            RowWriter.MEMO_MAX_CHARS, RowWriter.MEMO_MAX_CHARS + 1, 5000).get(random.nextInt(7));
                    String text = longText(random, length);
                    IRI iri = VF.createIRI("http://ex.org/'" + text.replace(' ', '_'));
                    pool.add(iri);
                    pool.add(VF.createLiteral(text, iri));
                    pool.add(VF.createLiteral(text));
                    pool.add(VF.createLiteral(text, "en"));
                }
                List<String> variables = List.of("a", "b", "c");
                List<BindingSet> rows = new ArrayList<>();
                for (int r = 0; r < 1 + random.nextInt(30); r++) {
                    MapBindingSet row = new MapBindingSet();
                    for (String v : variables) {
                        row.addBinding(v, pool.get(random.nextInt(pool.size())));
                    }
                    rows.add(row);
                }
                String expected = rdf4j(format, variables, rows);
                String actual = fast(format, variables, rows);
                if (!expected.equals(actual)) {
                    assertEquals(around(expected, actual), around(actual, expected), format + ", round " + round);
                }
            }
        }
    }

    private static String longText(Random random, int length) {
        StringBuilder s = new StringBuilder();
        while (s.length() < length) {
            s.append(random.nextInt(8) == 0 ? CHARS.charAt(random.nextInt(CHARS.length())) : (char) ('a' + random.nextInt(26)));
        }
        s.setLength(length);
        return s.toString();
    }

    @Test
    void leavesOtherFormatsToRdf4j() {
        assertNull(RowWriter.forFormat(TupleQueryResultFormat.TSV, new ByteArrayOutputStream()));
        assertNull(RowWriter.forFormat(TupleQueryResultFormat.BINARY, new ByteArrayOutputStream()));
        assertNull(RowWriter.forFormat(TupleQueryResultFormat.JSON_STAR, new ByteArrayOutputStream()));
    }

    /** The text around the first character where {@code a} differs from {@code b}, escaped. */
    private static String around(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        StringBuilder s = new StringBuilder();
        a.substring(Math.max(0, i - 40), Math.min(a.length(), i + 40)).chars()
                .forEach(c -> s.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return s.toString();
    }

    private static Value value(Random random) {
        switch (random.nextInt(7)) {
            case 6:
                return VF.createLiteral(List.of("0012", "-3", "1.50", "+.5", "1e3", "NaN", "12abc").get(random.nextInt(7)),
                        List.of(XSD.INTEGER, XSD.DECIMAL, XSD.DOUBLE, XSD.INT, XSD.FLOAT).get(random.nextInt(5)));
            case 0:
                return VF.createIRI("http://ex.org/" + text(random));
            case 1:
                return VF.createBNode("b" + random.nextInt(1000));
            case 2:
                return VF.createLiteral(text(random), random.nextBoolean() ? "en" : "fr-CA");
            case 3:
                return VF.createLiteral(text(random), DATATYPES.get(random.nextInt(DATATYPES.size())));
            case 4:
                return VF.createTriple(VF.createIRI("http://ex.org/s"), RDF.TYPE, VF.createLiteral(text(random)));
            default:
                return VF.createLiteral(text(random));
        }
    }

    private static String text(Random random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            s.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return s.toString();
    }

    private static String rdf4j(TupleQueryResultFormat format, List<String> variables, List<BindingSet> rows)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TupleQueryResultWriter writer = QueryResultIO.createTupleWriter(format, out);
        writer.getWriterConfig().set(BasicWriterSettings.PRETTY_PRINT, false);
        QueryResults.report(new IteratingTupleQueryResult(variables, rows), writer);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String fast(TupleQueryResultFormat format, List<String> variables, List<BindingSet> rows)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter writer = RowWriter.forFormat(format, out);
        writer.start(variables);
        for (BindingSet row : rows) {
            writer.row(row);
        }
        writer.end();
        writer.drain();
        return out.toString(StandardCharsets.UTF_8);
    }
}
