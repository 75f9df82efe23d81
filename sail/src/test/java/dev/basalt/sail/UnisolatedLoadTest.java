package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.repository.RepositoryResult;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.sail.SailException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.basalt.sail.write.UnisolatedSink;
import dev.basalt.sail.write.WriteBatch;

/**
 * Updates at isolation NONE write through to the store in batches ({@link UnisolatedSink}): the
 * result equals an isolated load, a failed operation leaves nothing behind (also after reopening),
 * readers keep their commit point, other writers wait, and removals keep their place among
 * additions. The loads are larger than {@link WriteBatch#SIZE}, so the operation is written
 * in several batches inside one open store transaction.
 */
class UnisolatedLoadTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final int N = 250_000;

    @TempDir
    File dir;

    private static IRI iri(String local) {
        return VF.createIRI(EX + local);
    }

    /** N-Quads line {@code i}: 20,000 subjects, 11 predicates, IRI and literal objects, 4 named graphs and the default graph; every 10th line repeats an earlier one. */
    private static String line(int i) {
        int k = i % 10 == 9 ? i / 2 : i;
        String object = k % 3 == 0 ? "<" + EX + "o/" + (k % 5000) + ">" : "\"value " + k + "\"";
        String graph = k % 5 == 0 ? "" : " <" + EX + "g/" + (k % 5) + ">";
        return "<" + EX + "s/" + (k % 20_000) + "> <" + EX + "p/" + (k % 11) + "> " + object + graph + " .\n";
    }

    private File generate(String name, int lines, boolean malformedAtEnd) throws IOException {
        File f = new File(dir, name);
        try (Writer w = Files.newBufferedWriter(f.toPath(), StandardCharsets.UTF_8)) {
            for (int i = 0; i < lines; i++) {
                w.write(line(i));
            }
            if (malformedAtEnd) {
                w.write("<" + EX + "broken> this is not N-Quads\n");
            }
        }
        return f;
    }

    /** Some explicit and inferred statements, partly overlapping the generated file. */
    private static void seed(SailRepository repo) {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(iri("seed"), iri("p/1"), VF.createLiteral("kept"));
            c.add(iri("s/3"), iri("p/3"), iri("o/3"));
            c.setNamespace("ex", EX);
        }
        try (BasaltStoreConnection c = (BasaltStoreConnection) repo.getSail().getConnection()) {
            c.begin();
            c.addInferredStatement(iri("s/6"), iri("p/6"), iri("o/6"));
            c.addInferredStatement(iri("inferred-only"), iri("p/1"), VF.createLiteral("x"));
            c.commit();
        }
    }

    private static Set<Statement> all(SailRepository repo, boolean includeInferred) {
        try (RepositoryConnection c = repo.getConnection()) {
            return new HashSet<>(c.getStatements(null, null, null, includeInferred).stream().toList());
        }
    }

    private static void load(SailRepository repo, File file, IsolationLevel level) throws IOException {
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin(level);
            c.add(file, RDFFormat.NQUADS);
            c.commit();
        }
    }

    @Test
    void loadAtNoneEqualsLoadAtSnapshotRead() throws IOException {
        File data = generate("data.nq", N, false);
        SailRepository none = TestRepos.open(new File(dir, "none"));
        SailRepository isolated = TestRepos.open(new File(dir, "isolated"));
        try {
            seed(none);
            seed(isolated);
            load(none, data, IsolationLevels.NONE);
            load(isolated, data, IsolationLevels.SNAPSHOT_READ);

            Set<Statement> explicit = all(isolated, false);
            assertTrue(explicit.size() > N / 2, "the file was loaded: " + explicit.size());
            assertEquals(explicit, all(none, false));
            assertEquals(all(isolated, true), all(none, true));
            try (RepositoryConnection a = none.getConnection(); RepositoryConnection b = isolated.getConnection()) {
                assertEquals(b.size(), a.size());
                assertEquals(explicit.size(), a.size());
                for (int g = 1; g < 5; g++) {
                    assertEquals(b.size(iri("g/" + g)), a.size(iri("g/" + g)));
                }
                assertEquals(b.size((IRI) null), a.size((IRI) null));
                // the inferred copy of a loaded statement became explicit; the other stays inferred
                assertTrue(a.hasStatement(iri("s/6"), iri("p/6"), iri("o/6"), false));
                assertTrue(a.hasStatement(iri("inferred-only"), null, null, true));
                assertFalse(a.hasStatement(iri("inferred-only"), null, null, false));
                assertEquals(b.getContextIDs().stream().toList().size(), a.getContextIDs().stream().toList().size());
            }
            assertEquals(((BasaltStore) isolated.getSail()).getTermCounts(), ((BasaltStore) none.getSail()).getTermCounts());
        } finally {
            none.shutDown();
            isolated.shutDown();
        }
    }

    @Test
    void malformedFileAtNoneLeavesTheStoreAsBefore() throws IOException {
        File bad = generate("bad.nq", 300_000, true);
        File store = new File(dir, "store");
        SailRepository repo = TestRepos.open(store);
        Set<Statement> before;
        Object termsBefore;
        long journalAfterFirst;
        try {
            seed(repo);
            before = all(repo, true);
            termsBefore = ((BasaltStore) repo.getSail()).getTermCounts();

            // rolled back explicitly
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin(IsolationLevels.NONE);
                assertThrows(RDFParseException.class, () -> c.add(bad, RDFFormat.NQUADS));
                c.rollback();
            }
            assertEquals(before, all(repo, true));
            assertEquals(termsBefore, ((BasaltStore) repo.getSail()).getTermCounts());
            journalAfterFirst = journalBytes(store);

            // left to the connection's close
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin(IsolationLevels.NONE);
                assertThrows(RDFParseException.class, () -> c.add(bad, RDFFormat.NQUADS));
            }
            assertEquals(before, all(repo, true));
            // the aborted transaction's space is free again: the second failed load reused it
            long journalAfterSecond = journalBytes(store);
            assertTrue(journalAfterSecond <= journalAfterFirst + journalAfterFirst / 10,
                    "journal grew from " + journalAfterFirst + " to " + journalAfterSecond);

            // the writer is free: a later operation commits
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin(IsolationLevels.NONE);
                c.add(iri("after"), iri("p/1"), VF.createLiteral("ok"));
                c.commit();
            }
            before.add(VF.createStatement(iri("after"), iri("p/1"), VF.createLiteral("ok")));
            assertEquals(before, all(repo, true));
        } finally {
            repo.shutDown();
        }
        SailRepository reopened = TestRepos.open(store);
        try {
            assertEquals(before, all(reopened, true));
            try (RepositoryConnection c = reopened.getConnection()) {
                assertEquals(all(reopened, false).size(), c.size());
                assertEquals(3, c.size());
            }
        } finally {
            reopened.shutDown();
        }
    }

    private static long journalBytes(File store) {
        return new File(store, BasaltStore.JOURNAL_FILE).length();
    }

    @Test
    void readersKeepTheirCommitPointAndWritersWaitDuringALoad() throws Exception {
        SailRepository repo = TestRepos.open(new File(dir, "store"));
        try {
            try (RepositoryConnection c = repo.getConnection()) {
                for (int i = 0; i < 1000; i++) {
                    c.add(iri("old/" + i), iri("p/1"), VF.createLiteral(i));
                }
            }
            try (RepositoryConnection reader = repo.getConnection();
                    RepositoryConnection loader = repo.getConnection();
                    RepositoryConnection sameThread = repo.getConnection()) {
                List<Statement> seen = new ArrayList<>();
                try (RepositoryResult<Statement> it = reader.getStatements(null, null, null, false)) {
                    for (int i = 0; i < 10; i++) {
                        seen.add(it.next());
                    }
                    loader.begin(IsolationLevels.NONE);
                    for (int i = 0; i < 2 * WriteBatch.SIZE; i++) {
                        loader.add(iri("new/" + i), iri("p/2"), VF.createLiteral(i));
                    }
                    // half-written: batches are in the store's open transaction, not visible
                    while (it.hasNext()) {
                        seen.add(it.next());
                    }
                    assertEquals(1000, seen.size());
                    try (RepositoryConnection fresh = repo.getConnection()) {
                        assertEquals(1000, fresh.size());
                        assertFalse(fresh.hasStatement(iri("new/0"), null, null, false));
                    }

                    // another thread's commit waits for the load
                    CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                        try (RepositoryConnection c = repo.getConnection()) {
                            c.begin(IsolationLevels.SNAPSHOT_READ);
                            c.add(iri("other"), iri("p/3"), VF.createLiteral("x"));
                            c.commit();
                        }
                    });
                    Thread.sleep(300);
                    assertFalse(other.isDone(), "a second writer waits while the operation writes through");

                    // a commit of another connection in the loading thread would wait for itself: refused
                    sameThread.begin(IsolationLevels.SNAPSHOT_READ);
                    sameThread.add(iri("same"), iri("p/3"), VF.createLiteral("y"));
                    RepositoryException refused = assertThrows(RepositoryException.class, sameThread::commit);
                    assertTrue(refused.getCause() instanceof SailException || refused instanceof RepositoryException);
                    sameThread.rollback();

                    loader.commit();
                    other.get(30, TimeUnit.SECONDS);
                }
                try (RepositoryConnection fresh = repo.getConnection()) {
                    assertEquals(1000 + 2 * WriteBatch.SIZE + 1, fresh.size());
                    assertFalse(fresh.hasStatement(iri("same"), null, null, false));
                }
            }
        } finally {
            repo.shutDown();
        }
    }

    /**
     * Removals, clears and re-additions in one operation (SPARQL updates and API calls at NONE)
     * apply in their order; the same updates at SNAPSHOT_READ give the same store.
     */
    @Test
    void removalsKeepTheirPlaceAmongAdditions() {
        SailRepository none = TestRepos.open(new File(dir, "none"));
        SailRepository isolated = TestRepos.open(new File(dir, "isolated"));
        try {
            for (SailRepository repo : List.of(none, isolated)) {
                IsolationLevel level = repo == none ? IsolationLevels.NONE : IsolationLevels.SNAPSHOT_READ;
                try (RepositoryConnection c = repo.getConnection()) {
                    c.begin(level);
                    for (int i = 0; i < 150_000; i++) {
                        c.add(iri("s/" + i), iri("p"), VF.createLiteral(i));
                        c.add(iri("s/" + i), iri("tag"), VF.createLiteral(i % 2 == 0 ? "a" : "b"));
                        if (i % 3 == 0) {
                            c.add(iri("s/" + i), iri("tag"), VF.createLiteral("b"));
                        }
                    }
                    c.commit();

                    // one operation of 150,000 bindings: per binding a removal, then additions
                    c.begin(level);
                    c.prepareUpdate("PREFIX ex: <" + EX + ">\n"
                            + "DELETE { ?s ex:tag ?t } INSERT { ?s ex:tag \"b\" . ?s ex:seen ?v } "
                            + "WHERE { ?s ex:p ?v . ?s ex:tag ?t }").execute();
                    c.commit();

                    c.begin(level);
                    c.prepareUpdate("PREFIX ex: <" + EX + ">\n"
                            + "INSERT DATA { ex:a ex:p 1 } ; DELETE DATA { ex:a ex:p 1 } ; INSERT DATA { ex:b ex:p 2 } ;"
                            + "INSERT DATA { GRAPH ex:g { ex:c ex:p 3 } } ; CLEAR GRAPH ex:g ; "
                            + "INSERT DATA { GRAPH ex:g { ex:d ex:p 4 } }").execute();
                    c.commit();

                    c.begin(level);
                    c.add(iri("x"), iri("p"), iri("y"));
                    c.remove(iri("x"), iri("p"), iri("y"));
                    c.add(iri("z"), iri("p"), iri("y"), iri("h"));
                    c.clear(iri("h"));
                    c.add(iri("w"), iri("p"), iri("y"), iri("h"));
                    c.commit();
                }
            }
            try (RepositoryConnection c = none.getConnection()) {
                assertEquals(150_000, c.getStatements(null, iri("tag"), null, false).stream().count());
                assertEquals(0, c.getStatements(null, iri("tag"), VF.createLiteral("a"), false).stream().count());
                assertEquals(150_000, c.getStatements(null, iri("seen"), null, false).stream().count());
                assertFalse(c.hasStatement(iri("a"), iri("p"), null, false));
                assertTrue(c.hasStatement(iri("b"), iri("p"), null, false));
                assertFalse(c.hasStatement(iri("c"), iri("p"), null, false));
                assertTrue(c.hasStatement(iri("d"), iri("p"), null, false, iri("g")));
                assertFalse(c.hasStatement(iri("x"), iri("p"), iri("y"), false));
                assertFalse(c.hasStatement(iri("z"), iri("p"), iri("y"), false));
                assertTrue(c.hasStatement(iri("w"), iri("p"), iri("y"), false, iri("h")));
                assertEquals(150_000 * 3 + 3, c.size());
            }
            assertEquals(all(isolated, false), all(none, false));
        } finally {
            none.shutDown();
            isolated.shutDown();
        }
    }
}
