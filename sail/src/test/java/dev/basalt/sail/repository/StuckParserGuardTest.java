package dev.basalt.sail.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * An upload on which RDF4J's parser loops (a {@code .} inside a collection, as a fuzzed TriG upload with
 * one bit flipped had it) is refused as a parse error and leaves the store unchanged, where it used to
 * write statements without end; the densest valid syntax, a long collection, still loads.
 */
class StuckParserGuardTest {
    /** One flipped bit turned the space before {@code 3.0} into {@code (}: a collection that never closes. */
    private static final String LOOPING_TRIG = """
            { <http://example.org/s2> <http://example.org/age> 22 ;
                <http://example.org/score>(3.0 .
              <http://example.org/s3> <http://example.org/age> 23 . }
            """;

    @TempDir
    Path dir;

    private BasaltRepository repository() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        return new BasaltRepository(new BasaltStore(dir.toFile(), config));
    }

    @Test
    void aParserThatLoopsIsStoppedWithAParseError() throws Exception {
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(new ByteArrayInputStream("<http://example.org/a> <http://example.org/b> 1 .".getBytes(StandardCharsets.UTF_8)),
                    "", RDFFormat.TURTLE);
            for (RDFFormat format : new RDFFormat[] { RDFFormat.TRIG, RDFFormat.TURTLE }) {
                String doc = format == RDFFormat.TRIG ? LOOPING_TRIG : "<a:s> <a:p> (1 . <a:x> <a:y> <a:z> .";
                RDFParseException e = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThrows(
                        RDFParseException.class,
                        () -> c.add(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)), "", format)),
                        "RDF4J's " + format.getName() + " parser loops on this input: the add must be stopped");
                assertTrue(e.getMessage().startsWith("malformed " + format.getName() + " upload: the parser reported"),
                        e.getMessage());
                assertEquals(1, c.size(), "the refused upload is rolled back");
            }
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void theDensestValidDocumentStillLoads() throws Exception {
        // a collection of empty collections: two bytes per item, two statements (rdf:first, rdf:rest) per item
        int items = 3 * StuckParserGuard.SLACK;
        String doc = "<http://example.org/s> <http://example.org/list> (" + "()".repeat(items) + ") .";
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)), "", RDFFormat.TURTLE);
            assertEquals(1 + 2L * items, c.size());
        } finally {
            repo.shutDown();
        }
    }
}
