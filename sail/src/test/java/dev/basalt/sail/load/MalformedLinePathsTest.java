package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.cli.CliAccess;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * Every kind of malformed line ({@link MalformedLine}), at line 2 of a 3-line input and at line
 * {@value MalformedLine#LATE_LINE} of a large one (past the loader's chunks and batches), on each
 * load path: {@code basalt load} into an existing store, and a {@link BasaltRepository}
 * connection's {@code add(File)} and {@code add(InputStream)}. The error names the input and the
 * line and says what was expected there; the store holds exactly the statements it held before.
 */
class MalformedLinePathsTest {
    @TempDir
    Path tmp;

    static Stream<Arguments> kinds() {
        return Stream.of(MalformedLine.values())
                .flatMap(kind -> Stream.of(Arguments.of(kind, false), Arguments.of(kind, true)));
    }

    @ParameterizedTest(name = "{0}, late {1}")
    @MethodSource("kinds")
    void cliNamesTheLineAndLeavesTheStore(MalformedLine kind, boolean late) throws IOException {
        Path store = tmp.resolve("store");
        Path before = Files.write(tmp.resolve("before.nt"), MalformedLine.good(42, false));
        assertEquals(0, CliAccess.run("load", "--store", store.toString(), before.toString()));
        List<String> contents = contents(store);

        Path file = Files.write(tmp.resolve("data.nt"), kind.input(late, false));
        CliAccess.Outcome outcome = CliAccess.runCapturingErrors("load", "--store", store.toString(), file.toString());
        assertEquals(2, outcome.code(), outcome.err());
        assertTrue(outcome.err().startsWith("basalt: " + file + ":"), outcome.err());
        assertTrue(kind.named(outcome.err(), file.toString(), late), outcome.err());
        assertEquals(contents, contents(store));
    }

    @ParameterizedTest(name = "{0}, late {1}")
    @MethodSource("kinds")
    void repositoryAddOfAFileNamesTheLineAndLeavesTheStore(MalformedLine kind, boolean late) throws IOException {
        Path file = Files.write(tmp.resolve("data.nt"), kind.input(late, false));
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            List<String> contents = contents(c);
            RDFParseException e = assertThrows(RDFParseException.class,
                    () -> c.add(file.toFile(), null, RDFFormat.NTRIPLES));
            assertTrue(kind.named(e.getMessage(), file.toString(), late), e.getMessage());
            assertEquals(kind.lineNumber(late), e.getLineNumber(), e.getMessage());
            assertEquals(contents, contents(c));
        } finally {
            repo.shutDown();
        }
    }

    @ParameterizedTest(name = "{0}, late {1}")
    @MethodSource("kinds")
    void repositoryAddOfAStreamNamesTheLineAndLeavesTheStore(MalformedLine kind, boolean late) {
        streamNamesTheLine(kind, late, false);
    }

    @ParameterizedTest(name = "{0}, late {1}")
    @MethodSource("kinds")
    void nQuadsStreamNamesTheLineAndLeavesTheStore(MalformedLine kind, boolean late) {
        streamNamesTheLine(kind, late, true);
    }

    private void streamNamesTheLine(MalformedLine kind, boolean late, boolean quads) {
        byte[] input = kind.input(late, quads);
        BasaltRepository repo = repository();
        try (RepositoryConnection c = repo.getConnection()) {
            List<String> contents = contents(c);
            RDFParseException e = assertThrows(RDFParseException.class, () -> c.add(new ByteArrayInputStream(input), "",
                    quads ? RDFFormat.NQUADS : RDFFormat.NTRIPLES));
            assertTrue(kind.named(e.getMessage(), "input stream", late), e.getMessage());
            assertTrue(e.getMessage().startsWith("input stream:" + kind.lineNumber(late) + ": malformed "
                    + (quads ? "N-Quads" : "N-Triples") + " at column "), e.getMessage());
            assertEquals(contents, contents(c));
        } finally {
            repo.shutDown();
        }
    }

    /** A Basalt repository in {@code tmp} holding a few statements. */
    private BasaltRepository repository() {
        BasaltRepository repo = new BasaltRepository(new BasaltStore(tmp.resolve("repo").toFile(), LoadTestData.config()));
        repo.init();
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(new ByteArrayInputStream(MalformedLine.good(7, true)), "", RDFFormat.NQUADS);
            c.add(new ByteArrayInputStream(MalformedLine.good(8, false)), "", RDFFormat.NTRIPLES);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return repo;
    }

    private static List<String> contents(Path store) {
        var repo = LoadTestData.open(store);
        try (RepositoryConnection c = repo.getConnection()) {
            return contents(c);
        } finally {
            repo.shutDown();
        }
    }

    /** Every statement, with its graph, sorted. */
    private static List<String> contents(RepositoryConnection c) {
        List<String> all = c.getStatements(null, null, null, false).stream()
                .map(st -> st.toString() + " " + st.getContext()).sorted().toList();
        assertTrue(!all.isEmpty(), "the store holds statements before the failed load");
        return all;
    }
}
