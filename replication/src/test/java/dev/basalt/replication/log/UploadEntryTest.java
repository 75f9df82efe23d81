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
 * Upload entries (docs/FORMAT.md 6.5 and 6.6): every field survives encoding, the upload's bytes come
 * back as they were sent, an entry is its header, the compressed upload and its trailer, a version 1
 * entry (the sizes and the change set in its header) is still read, and a truncated or malformed
 * entry is refused. Run by JUnit's one thread.
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
    void anEntryIsItsHeaderTheUploadAndItsTrailer() throws Exception {
        byte[] text = text();
        long[] raw = new long[1];
        byte[] compressed = UploadEntry.compress(new byte[0], new ByteArrayInputStream(text), raw);
        byte[] after = ChangeSetCodec.encode(new ChangeSet());
        UploadEntry entry = new UploadEntry(7, RDFFormat.NTRIPLES, "http://base/", null, Set.of(), raw[0], compressed,
                after);
        byte[] header = entry.header();
        byte[] trailer = entry.trailer();
        assertEquals(LogEntries.UPLOAD_STREAMED, header[0]);
        // the header holds nothing known only at the end: the same for any length and change set
        assertArrayEquals(header, new UploadEntry(7, RDFFormat.NTRIPLES, "http://base/", null, Set.of(), 0,
                new byte[0], new byte[0]).header());
        java.io.ByteArrayOutputStream joined = new java.io.ByteArrayOutputStream();
        joined.writeBytes(header);
        joined.writeBytes(compressed);
        joined.writeBytes(trailer);
        assertArrayEquals(entry.encode(), joined.toByteArray());
        assertEquals(after.length + 12, trailer.length);
        assertEquals(text.length, java.nio.ByteBuffer.wrap(trailer, trailer.length - 8, 8).getLong());
        assertEquals(entry, UploadEntry.decode(joined.toByteArray(), VF));
    }

    @Test
    void aVersionOneEntryIsStillRead() throws Exception {
        byte[] text = text();
        long[] raw = new long[1];
        byte[] compressed = UploadEntry.compress(new byte[0], new ByteArrayInputStream(text), raw);
        ChangeSet changes = new ChangeSet();
        changes.add(VF.createStatement(VF.createIRI("urn:a"), VF.createIRI("urn:b"), VF.createLiteral("after")));
        byte[] after = ChangeSetCodec.encode(changes);
        // docs/FORMAT.md 6.5, written out here field by field
        java.io.ByteArrayOutputStream v1 = new java.io.ByteArrayOutputStream();
        v1.write(LogEntries.UPLOAD);
        v1.writeBytes(java.nio.ByteBuffer.allocate(16).putLong(0x55L).putLong(raw[0]).array());
        v1.write(2); // N-Quads
        v1.write(5);
        v1.writeBytes("http:".getBytes(StandardCharsets.US_ASCII));
        v1.write(1); // an IRI graph
        v1.write(5);
        v1.writeBytes("urn:g".getBytes(StandardCharsets.US_ASCII));
        byte[] key = BasicParserSettings.VERIFY_LANGUAGE_TAGS.getKey().getBytes(StandardCharsets.UTF_8);
        v1.write(1);
        v1.write(key.length);
        v1.writeBytes(key);
        v1.write(after.length);
        v1.writeBytes(after);
        v1.writeBytes(compressed);
        byte[] bytes = v1.toByteArray();
        assertTrue(UploadEntry.isUpload(bytes));
        UploadEntry back = UploadEntry.decode(bytes, VF);
        assertEquals(new UploadEntry(0x55L, RDFFormat.NQUADS, "http:", VF.createIRI("urn:g"),
                Set.of(BasicParserSettings.VERIFY_LANGUAGE_TAGS.getKey()), text.length, compressed, after), back);
        try (var in = back.open()) {
            assertArrayEquals(text, in.readAllBytes());
        }
        assertEquals(changes.added(), ChangeSetCodec.decode(back.changeSetAfter(), VF).added());
    }

    @Test
    void truncatedOrMalformedEntriesAreRefused() {
        UploadEntry entry = new UploadEntry(1, RDFFormat.NTRIPLES, "http://base/", VF.createIRI("urn:g"), Set.of(), 0,
                new byte[] {1, 2, 3}, new byte[] {1, 0, 0, 0, 0});
        byte[] bytes = entry.encode();
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(Arrays.copyOf(bytes, 5), VF));
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(Arrays.copyOf(bytes, 12), VF));
        // cut within the trailer: its change set length no longer fits
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(Arrays.copyOf(bytes,
                entry.header().length + 6), VF));
        byte[] longChangeSet = bytes.clone();
        longChangeSet[bytes.length - 9] = 100; // the change set's length, 4 bytes before the upload's length
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(longChangeSet, VF));
        byte[] badFormat = bytes.clone();
        badFormat[9] = 9;
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(badFormat, VF));
        assertThrows(IllegalArgumentException.class, () -> UploadEntry.decode(new byte[] {LogEntries.GROUP, 0}, VF));
    }
}
