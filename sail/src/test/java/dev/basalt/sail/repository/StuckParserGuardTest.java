package dev.basalt.sail.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.GZIPOutputStream;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * An upload on which RDF4J's parser loops (a {@code .} inside a collection, as a fuzzed TriG upload with
 * one bit flipped had it) is refused as a parse error and leaves the store unchanged, where it used to
 * write statements without end, on every way an add takes its data: a stream, a gzip stream, a reader, a
 * file and a URL; the densest valid syntax, a long collection, still loads, also from a gzip stream whose
 * compressed bytes are far fewer than its statements.
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

    /** Every way of adding a document: a stream, a gzip stream, a reader, a file and a file: URL. */
    private enum Way {
        STREAM, GZIP_STREAM, READER, FILE, URL;

        void add(RepositoryConnection c, String doc, RDFFormat format, Path dir) throws IOException {
            byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
            switch (this) {
            case STREAM -> c.add(new ByteArrayInputStream(bytes), "", format);
            case GZIP_STREAM -> c.add(new ByteArrayInputStream(gzip(bytes)), "", format);
            case READER -> c.add(new StringReader(doc), "", format);
            case FILE, URL -> {
                Path file = Files.createTempFile(dir, "upload", "." + format.getDefaultFileExtension());
                Files.write(file, bytes);
                if (this == FILE) {
                    c.add(file.toFile());
                } else {
                    c.add(file.toUri().toURL(), null, format);
                }
            }
            }
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        }
        return out.toByteArray();
    }

    @Test
    void aParserThatLoopsIsStoppedOnEveryWayIn() throws Exception {
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(new ByteArrayInputStream("<http://example.org/a> <http://example.org/b> 1 .".getBytes(StandardCharsets.UTF_8)),
                    "", RDFFormat.TURTLE);
            for (Way way : Way.values()) {
                RDFParseException e = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThrows(
                        RDFParseException.class, () -> way.add(c, LOOPING_TRIG, RDFFormat.TRIG, dir)),
                        "RDF4J's TriG parser loops on this input: the add by " + way + " must be stopped");
                assertTrue(e.getMessage().startsWith("malformed TriG upload: the parser reported"), way + ": " + e.getMessage());
                assertEquals(1, c.size(), way + ": the refused upload is rolled back");
            }
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void rdf4jsParserStillLoopsOnTheInput() throws Exception {
        // the cause the guard exists for: without it, the parser reports statements out of a 150-byte document
        // without end; if an RDF4J upgrade fixes the loop, this fails and the guard can be reconsidered
        RDFParser parser = Rio.createParser(RDFFormat.TRIG);
        long[] statements = { 0 };
        parser.setRDFHandler(new AbstractRDFHandler() {
            @Override
            public void handleStatement(Statement st) {
                if (++statements[0] > 1_000_000) {
                    throw new RDFHandlerException("looping");
                }
            }
        });
        assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> assertThrows(RDFHandlerException.class, () -> parser.parse(new StringReader(LOOPING_TRIG), "")));
        assertTrue(statements[0] > 1_000_000);
    }

    @Test
    void theDensestValidDocumentStillLoads() throws Exception {
        // a collection of empty collections: two bytes per item, two statements (rdf:first, rdf:rest) per item;
        // gzipped, far more statements than 4 per compressed byte: the guard counts the bytes the parser reads
        int items = 3 * StuckParserGuard.SLACK;
        String doc = "<http://example.org/s> <http://example.org/list> (" + "()".repeat(items) + ") .";
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            for (Way way : new Way[] { Way.STREAM, Way.GZIP_STREAM }) {
                c.clear();
                way.add(c, doc, RDFFormat.TURTLE, dir);
                assertEquals(1 + 2L * items, c.size(), way.toString());
            }
        } finally {
            repo.shutDown();
        }
    }
}
