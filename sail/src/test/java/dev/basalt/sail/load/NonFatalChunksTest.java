package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RioSetting;
import org.eclipse.rdf4j.rio.helpers.BasicParserSettings;
import org.junit.jupiter.api.Test;

/**
 * A stream read with parser checks made non-fatal (as RDF4J Server makes the datatype and language
 * tag checks of every upload) is still parsed by the byte parser chunk by chunk; only a chunk it
 * refuses goes to Rio, which then applies the non-fatal settings.
 */
class NonFatalChunksTest {
    private static final int LINES = 3000;
    /** A subject the grammar allows and the byte parser leaves to Rio: a blank node label with a dot. */
    private static final String ODD_SUBJECT = "_:b.x";
    private static final Set<RioSetting<?>> SERVER = Set.of(BasicParserSettings.VERIFY_DATATYPE_VALUES,
            BasicParserSettings.VERIFY_LANGUAGE_TAGS);

    private static LoadOptions options() {
        return LoadOptions.defaults().withConfig(LoadTestData.config()).withChunkBytes(4096).withParserThreads(2)
                .withProgress((s, b, t, e) -> { });
    }

    private static String text(int oddLine, int badLine) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            String subject = i == oddLine ? ODD_SUBJECT : "<http://example.org/s" + i + ">";
            text.append(i == badLine ? "" : subject).append(" <http://example.org/p> \"v").append(i)
                    .append("\"@en .\n");
        }
        return text.toString();
    }

    /** Statements read and the reader's summary ("R of N ... chunks by Rio"). */
    private static String[] read(String text, Set<RioSetting<?>> nonFatal) {
        try (StatementReader reader = StatementReader.ofStream("input stream",
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), RDFFormat.NTRIPLES, options(),
                SimpleValueFactory.getInstance()).withNonFatalErrors(nonFatal)) {
            reader.start();
            long n = 0;
            for (TermBatch b = reader.next(); b != null; b = reader.next()) {
                n += b.size();
            }
            return new String[] { Long.toString(n), reader.summary() };
        }
    }

    private static long rioChunks(String summary) {
        return Long.parseLong(summary.substring(0, summary.indexOf(' ')));
    }

    @Test
    void chunksGoToTheByteParserWithNonFatalChecks() {
        String[] read = read(text(-1, -1), SERVER);
        assertEquals(Integer.toString(LINES), read[0]);
        assertEquals(0, rioChunks(read[1]), read[1]);
        assertTrue(read[1].matches("0 of \\d+ .*") && !read[1].startsWith("0 of 1 "), read[1]);
    }

    @Test
    void aChunkTheByteParserRefusesIsRiosWithTheNonFatalSettings() {
        String[] read = read(text(LINES / 2, -1), SERVER);
        assertEquals(Integer.toString(LINES), read[0]);
        assertEquals(1, rioChunks(read[1]), read[1]);
        LoadException bad = assertThrows(LoadException.class, () -> read(text(-1, LINES / 3), SERVER));
        assertEquals(LINES / 3 + 1, bad.line(), bad.getMessage());
        assertTrue(bad.getMessage().startsWith("input stream:" + (LINES / 3 + 1) + ": malformed"), bad.getMessage());
    }
}
