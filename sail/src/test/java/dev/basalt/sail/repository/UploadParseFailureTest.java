package dev.basalt.sail.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFWriter;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.binary.BinaryRDFWriterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * A {@code BasaltRepository} connection reports a parser's failure on an uploaded stream as an
 * {@link RDFParseException} (RDF4J Server answers that with 400), where RDF4J 5.0.3's parsers throw an
 * {@code EOFException} or an unchecked exception; a failure of the store during the add passes as it is.
 */
class UploadParseFailureTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    Path dir;

    private static byte[] binaryRdf() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RDFWriter w = Rio.createWriter(RDFFormat.BINARY, out);
        w.startRDF();
        for (int i = 0; i < 20; i++) {
            w.handleStatement(VF.createStatement(VF.createIRI("http://example.org/s" + i), VF.createIRI("http://example.org/p"),
                    VF.createLiteral("value " + i)));
        }
        w.endRDF();
        return out.toByteArray();
    }

    private BasaltRepository repository() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        try {
            // a store of its own per call: a test may load one store and then expect another to refuse an upload
            return new BasaltRepository(new BasaltStore(java.nio.file.Files.createTempDirectory(dir, "store").toFile(), config));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void binaryRdfCutShortIsAParseError() {
        byte[] whole = binaryRdf();
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            RDFParseException e = assertThrows(RDFParseException.class, () -> c.add(
                    new ByteArrayInputStream(Arrays.copyOf(whole, whole.length / 2)), "", RDFFormat.BINARY));
            assertInstanceOf(EOFException.class, e.getCause(), "RDF4J's parser fails on this input with an EOFException");
            assertTrue(e.getMessage().contains("BinaryRDF"), e.getMessage());
            assertEquals(0, c.size());
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void binaryRdfWithAnUnknownCharsetIsAParseError() {
        byte[] corrupt = binaryRdf();
        // the header names the charset after magic and version: make it one that does not exist
        String text = new String(corrupt, java.nio.charset.StandardCharsets.ISO_8859_1);
        int at = text.indexOf("UTF-8");
        corrupt[at + 4] = 'x';
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            RDFParseException e = assertThrows(RDFParseException.class,
                    () -> c.add(new ByteArrayInputStream(corrupt), "", RDFFormat.BINARY));
            assertInstanceOf(RuntimeException.class, e.getCause(), e.toString());
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void aStoreFailureDuringTheAddStaysARepositoryError() {
        BasaltRepository repo = repository();
        RepositoryConnection c = repo.getConnection();
        repo.shutDown();
        // RDF4J's connection refuses to begin on a repository that is shut down (IllegalStateException): the
        // store's failure passes as it is, not taken for the input's
        Exception e = assertThrows(Exception.class, () -> c.add(new ByteArrayInputStream(binaryRdf()), "", RDFFormat.BINARY));
        assertFalse(e instanceof RDFParseException, e.toString());
    }

    /** A binary RDF document (format version 1 or 2) with one statement whose object is {@code label}. */
    private static byte[] binaryRdf(long version, String label) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RDFWriter w = Rio.createWriter(RDFFormat.BINARY, out);
        w.getWriterConfig().set(BinaryRDFWriterSettings.VERSION, version);
        w.startRDF();
        w.handleStatement(VF.createStatement(VF.createIRI("http://example.org/s"), VF.createIRI("http://example.org/p"),
                VF.createLiteral(label)));
        w.endRDF();
        return out.toByteArray();
    }

    /** Where {@code label} starts in a version-1 (UTF-16) or version-2 (UTF-8) document. */
    private static int offsetOf(byte[] document, long version, String label) {
        byte[] needle = label.getBytes(version == 1 ? StandardCharsets.UTF_16BE : StandardCharsets.UTF_8);
        for (int i = 0; i + needle.length <= document.length; i++) {
            if (Arrays.equals(document, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError("label not found");
    }

    /** {@code document} with {@code cut} bytes before {@code at} replaced by {@code length}. */
    private static byte[] spliced(byte[] document, int at, int cut, byte[] length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(document, 0, at - cut);
        out.writeBytes(length);
        out.write(document, at, document.length - at);
        return out.toByteArray();
    }

    private RDFParseException refused(byte[] upload) {
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            RDFParseException e = assertThrows(RDFParseException.class,
                    () -> c.add(new ByteArrayInputStream(upload), "", RDFFormat.BINARY));
            assertEquals(0, c.size());
            return e;
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void aHugeDeclaredStringLengthIsRefusedWithoutAllocatingIt() {
        // version 2: a varint byte count; 0x80 0x80 0x80 0x80 0x04 is 2^30 (RDF4J's parser allocates 2^31 for it)
        byte[] v2 = binaryRdf(2, "marker-label");
        byte[] upload = spliced(v2, offsetOf(v2, 2, "marker-label"), 1,
                new byte[] { (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x04 });
        RDFParseException e = refused(upload);
        assertTrue(e.getMessage().contains("declares 1,073,741,824 bytes"), e.getMessage());

        // version 1: a 4-byte count of UTF-16 units; 2^28 units are 2^29 bytes
        byte[] v1 = binaryRdf(1, "marker-label");
        upload = spliced(v1, offsetOf(v1, 1, "marker-label"), 4, new byte[] { 0x10, 0, 0, 0 });
        e = refused(upload);
        assertTrue(e.getMessage().contains("declares 536,870,912 bytes"), e.getMessage());
    }

    @Test
    void anOverflowedStringLengthIsRefused() {
        // version 1: 2^30 UTF-16 units are 2^31 bytes, a negative int
        byte[] v1 = binaryRdf(1, "marker-label");
        RDFParseException e = refused(spliced(v1, offsetOf(v1, 1, "marker-label"), 4, new byte[] { 0x40, 0, 0, 0 }));
        assertTrue(e.getMessage().contains("negative length"), e.getMessage());
    }

    @Test
    void longStringsLoadAndALongStringCutShortIsRefused() throws Exception {
        String label = "x".repeat(300_000) + "-end";
        for (long version : new long[] { 1, 2 }) {
            byte[] whole = binaryRdf(version, label);
            BasaltRepository repo = repository();
            try (RepositoryConnection c = repo.getConnection()) {
                c.add(new ByteArrayInputStream(whole), "", RDFFormat.BINARY);
                assertEquals(label, c.getStatements(null, null, null).next().getObject().stringValue());
            } finally {
                repo.shutDown();
            }
            byte[] cut = Arrays.copyOf(whole, offsetOf(whole, version, label) + label.length() / 2);
            RDFParseException e = refused(cut);
            assertTrue(e.getMessage().contains("declares"), version + ": " + e.getMessage());
        }
    }
}
