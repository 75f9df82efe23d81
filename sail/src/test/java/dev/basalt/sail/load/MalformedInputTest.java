package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A malformed line at the start, middle or end of an N-Triples or Turtle file stops the load with
 * an error naming the file and line, and leaves the (non-empty) store exactly as before: same
 * size, same checksum of all statements, same commit point. Small batches and sort buffers make
 * the failure come after terms were added and runs were spilled.
 */
class MalformedInputTest {
    private static final int LINES = 3000;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @CsvSource({ "nt,start", "nt,middle", "nt,ninety", "nt,end", "ttl,start", "ttl,middle", "ttl,end" })
    void malformedLineLeavesTheStoreUnchanged(String ext, String position) throws Exception {
        Path store = tmp.resolve("store");
        Path good = Files.writeString(tmp.resolve("good." + ext), text(ext, -1));
        LoadOptions options = LoadOptions.defaults().withConfig(LoadTestData.config()).withBatchStatements(200)
                .withSortBufferQuads(500).withChunkBytes(4096).withParserThreads(3).withProgress((s, b, t, e) -> { });
        BasaltLoader.load(store, List.of(good), options);
        long size;
        long checksum;
        long commit;
        SailRepository repo = LoadTestData.open(store);
        try (RepositoryConnection c = repo.getConnection()) {
            size = c.size();
            checksum = LoadTestData.checksum(repo);
            commit = ((dev.basalt.sail.BasaltStore) repo.getSail()).getRetainedCommits().get(0).counter();
        } finally {
            repo.shutDown();
        }

        int badIndex = switch (position) {
            case "start" -> 0;
            case "middle" -> LINES / 2;
            case "ninety" -> LINES * 9 / 10;
            default -> LINES - 1;
        };
        String bad = text(ext, badIndex);
        Path file = Files.writeString(tmp.resolve("bad-" + position + "." + ext), bad);
        long badLine = lineOf(bad, "MALFORMED");
        LoadException e = assertThrows(LoadException.class, () -> BasaltLoader.load(store, List.of(file),
                options.withProgress((s, b, t, el) -> { })));
        assertEquals(file, e.file(), e.getMessage());
        assertEquals(badLine, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith(file + ":" + badLine + ": "), e.getMessage());

        repo = LoadTestData.open(store);
        try (RepositoryConnection c = repo.getConnection()) {
            assertEquals(size, c.size());
            assertEquals(checksum, LoadTestData.checksum(repo));
            List<Long> commits = new ArrayList<>();
            ((dev.basalt.sail.BasaltStore) repo.getSail()).getRetainedCommits().forEach(p -> commits.add(p.counter()));
            assertEquals(List.of(commit), commits, "no commit point was added");
        } finally {
            repo.shutDown();
        }
        try (var s = dev.basalt.store.Store.open(dev.basalt.sail.SailLayout.journal(store),
                LoadTestData.config().toStoreConfig())) {
            s.verify();
        }
    }

    /** {@value #LINES} statements, one per line, distinct from the good file's; a malformed one at {@code badIndex}. */
    private static String text(String ext, int badIndex) {
        StringBuilder b = new StringBuilder();
        boolean turtle = ext.equals("ttl");
        if (turtle) {
            b.append("@prefix ex: <http://example.org/> .\n");
        }
        String tag = badIndex < 0 ? "good" : "bad";
        for (int i = 0; i < LINES; i++) {
            if (i == badIndex) {
                b.append(turtle ? "ex:MALFORMED ex:p ;; .\n" : "<http://example.org/MALFORMED> <http://example.org/p> .\n");
                continue;
            }
            String s = turtle ? "ex:s" + (i % 100) : "<http://example.org/s" + (i % 100) + ">";
            String p = turtle ? "ex:" + tag + (i % 7) : "<http://example.org/" + tag + (i % 7) + ">";
            b.append(s).append(' ').append(p).append(" \"literal ").append(tag).append(' ').append(i).append("\" .\n");
        }
        return b.toString();
    }

    private static long lineOf(String text, String marker) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(marker)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(marker);
    }
}
