package dev.basalt.sail.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFWriter;
import org.eclipse.rdf4j.rio.Rio;
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
        return new BasaltRepository(new BasaltStore(dir.toFile(), config));
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
}
