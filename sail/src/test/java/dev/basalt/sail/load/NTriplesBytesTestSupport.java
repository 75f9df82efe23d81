package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;
import org.eclipse.rdf4j.rio.helpers.BasicParserSettings;

/** Parses a chunk both ways ({@link NTriplesBytes}, and Rio as {@code StatementReader} does) and compares the batches. */
final class NTriplesBytesTestSupport {
    private NTriplesBytesTestSupport() {
    }

    /** The batch Rio's path makes of {@code text}, as {@code StatementReader} does for a chunk. */
    static TermBatch rio(String text, boolean quads, LoadValues values, Resource target) throws Exception {
        RDFParser parser = Rio.createParser(quads ? RDFFormat.NQUADS : RDFFormat.NTRIPLES, values);
        parser.getParserConfig().set(BasicParserSettings.PRESERVE_BNODE_IDS, true);
        parser.getParserConfig().set(BasicParserSettings.VERIFY_URI_SYNTAX, false);
        TermBatch.Builder b = new TermBatch.Builder(target);
        parser.setRDFHandler(new AbstractRDFHandler() {
            @Override
            public void handleStatement(Statement st) {
                b.add(st);
            }
        });
        parser.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "http://example.org/base");
        return b.build(Map.of());
    }

    static TermBatch bytes(String text, boolean quads, LoadValues values, Resource target) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[utf8.length + 7]; // a chunk's array is longer than its content
        System.arraycopy(utf8, 0, padded, 0, utf8.length);
        return new NTriplesBytes(quads, target, values).parse(padded, utf8.length);
    }

    static void assertSameEncodings(TermBatch expected, TermBatch actual, String text) {
        assertEquals(expected.size(), actual.size(), "statements of\n" + text);
        for (int s = 0; s < expected.size(); s++) {
            for (int k = 0; k < 4; k++) {
                int e = expected.refs()[4 * s + k];
                int a = actual.refs()[4 * s + k];
                String where = "statement " + s + " term " + k + " of\n" + text;
                if (e == TermBatch.DEFAULT_GRAPH || a == TermBatch.DEFAULT_GRAPH) {
                    assertEquals(e, a, where);
                    continue;
                }
                assertEquals(expected.inline()[e], actual.inline()[a], where);
                assertArrayEquals(expected.keys()[e], actual.keys()[a], where);
                assertArrayEquals(expected.largePrefixes()[e], actual.largePrefixes()[a], where);
            }
        }
    }

}
