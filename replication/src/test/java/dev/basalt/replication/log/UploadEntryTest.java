package dev.basalt.replication.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.helpers.BasicParserSettings;
import org.junit.jupiter.api.Test;

/**
 * Upload entries (docs/FORMAT.md 6.5): every field survives encoding, the upload's bytes come back
 * as they were sent, and a truncated or malformed entry is refused. Run by JUnit's one thread.
 */
class UploadEntryTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private static byte[] text() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            sb.append("<http://example.org/s").append(i).append("> <http://example.org/p> \"v ").append(i)
                    .append(" \u00e9\" .\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyFieldAndTheUploadSurviveEncoding() throws Exception {
        byte[] text = text();
        long[] raw = new long[1];
        byte[] compressed = UploadEntry.compress(Arrays.copyOf(text, 1000),
                new ByteArrayInputStream(text, 1000, text.length - 1000), raw);
        assertEquals(text.length, raw[0]);
        assertTrue(compressed.length < text.length / 4, "compressed to " + compressed.length);
        ChangeSet after = new ChangeSet();
        after.add(VF.createStatement(VF.createIRI("urn:a"), VF.createIRI("urn:b"), VF.createLiteral("after")));
        Set<String> keys = UploadEntry.keys(Set.of(BasicParserSettings.VERIFY_DATATYPE_VALUES,
                BasicParserSettings.VERIFY_LANGUAGE_TAGS));
        assertEquals(2, keys.size());
        for (var context : new org.eclipse.rdf4j.model.Resource[] {null, VF.createIRI("urn:g"), VF.createBNode("g1")}) {
            UploadEntry entry = new UploadEntry(0x0123456789abcdefL, RDFFormat.NQUADS, context == null ? null : "http://base/",
                    context, keys, raw[0], compressed, ChangeSetCodec.encode(after));
            byte[] bytes = entry.encode();
            assertTrue(UploadEntry.isUpload(bytes));
            UploadEntry back = UploadEntry.decode(bytes, VF);
            assertEquals(entry, back);
            assertEquals(context, back.context());
            assertEquals(Set.of(BasicParserSettings.VERIFY_DATATYPE_VALUES, BasicParserSettings.VERIFY_LANGUAGE_TAGS),
                    back.nonFatalSettings());
            assertEquals("u123456789abcdef", back.blankNodeScope());
            try (var in = back.open()) {
                assertArrayEquals(text, in.readAllBytes());
            }
            assertEquals(after.added(), ChangeSetCodec.decode(back.changeSetAfter(), VF).added());
        }
        UploadEntry plain = new UploadEntry(1, RDFFormat.NTRIPLES, null, null, Set.of(), raw[0], compressed, new byte[0]);
        UploadEntry back = UploadEntry.decode(plain.encode(), VF);
        assertNull(back.baseIri());
        assertEquals(RDFFormat.NTRIPLES, back.format());
    }

    @Test
    void truncatedOrMalformedEntriesAreRefused() {
        UploadEntry entry = new UploadEntry(1, RDFFormat.NTRIPLES, "http://base/", VF.createIRI("urn:g"), Set.of(), 0,
                new byte[] {1, 2, 3}, new byte[] {1, 0, 0, 0, 0});
        byte[] bytes = entry.encode();
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(Arrays.copyOf(bytes, 10), VF));
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(Arrays.copyOf(bytes, 25), VF));
        byte[] badFormat = bytes.clone();
        badFormat[17] = 9;
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(badFormat, VF));
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(new byte[] {LogEntries.GROUP, 0}, VF));
    }
}
