package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The parallel N-Triples path refuses what the grammar refuses, on the right line, and keeps what it allows. */
class ChunkedParseTest {
    private static final int LINES = 2000;

    @TempDir
    Path tmp;

    private LoadOptions options() {
        return LoadOptions.defaults().withConfig(LoadTestData.config()).withChunkBytes(2048).withParserThreads(3)
                .withProgress((s, b, t, e) -> { });
    }

    @ParameterizedTest
    @ValueSource(strings = { "<relative/iri>", "<http://example.org/a b>", "<http://example.org/{x}>",
            "<http://example.org/\\u0020x>", "<http://example.org/a|b>", "<:nothing>", "<1http://x>" })
    void invalidIrisNameTheirLine(String iri) throws Exception {
        StringBuilder text = new StringBuilder();
        int bad = LINES * 9 / 10;
        for (int i = 0; i < LINES; i++) {
            String s = i == bad ? iri : "<http://example.org/s" + i + ">";
            text.append(s).append(" <http://example.org/p> \"v").append(i).append("\" .\n");
        }
        Path file = Files.writeString(tmp.resolve("bad.nt"), text);
        LoadException e = assertThrows(LoadException.class, () -> BasaltLoader.load(tmp.resolve("s"), List.of(file), options()));
        assertEquals(bad + 1, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith(file + ":" + (bad + 1) + ": "), e.getMessage());
    }

    @Test
    void iriRulesFollowTheGrammar() {
        assertNull(LoadValues.problem("urn:isbn:0451450523"));
        assertNull(LoadValues.problem("http://例え.jp/パス?q=1#frag"));
        assertNull(LoadValues.problem("a+b-c.d:x"));
        assertTrue(LoadValues.problem("no-scheme").contains("not absolute"));
        assertTrue(LoadValues.problem("http://x/\u0001").contains("control"));
        assertTrue(LoadValues.problem("http://x/`").contains("'`'"));
    }

    @Test
    void blankNodeLabelsAreOneNodePerFileAcrossChunks() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            text.append("_:b").append(i % 10).append(" <http://example.org/p> \"v").append(i).append("\" .\n");
        }
        Path a = Files.writeString(tmp.resolve("a.nt"), text);
        Path b = Files.writeString(tmp.resolve("b.nt"), text);
        BasaltLoader.load(tmp.resolve("s"), List.of(a, b), options());
        SailRepository repo = LoadTestData.open(tmp.resolve("s"));
        try (RepositoryConnection c = repo.getConnection()) {
            long subjects;
            try (TupleQueryResult r = c.prepareTupleQuery("SELECT (COUNT(DISTINCT ?s) AS ?n) { ?s ?p ?o }").evaluate()) {
                subjects = Long.parseLong(r.next().getValue("n").stringValue());
            }
            assertEquals(20, subjects, "ten labels in each of two files");
            assertEquals(2L * LINES, c.size());
        } finally {
            repo.shutDown();
        }
    }
}
