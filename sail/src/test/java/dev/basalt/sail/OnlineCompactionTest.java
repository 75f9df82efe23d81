package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;


import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.SailException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.cli.CliAccess;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.JournalStats;
import dev.basalt.sail.ops.CompactionPolicy;

/**
 * Online compaction of a repository: started by {@code basalt compact --jmx} against the process
 * that has the store open, and by the {@code compactFreePercent} policy after a commit; the data
 * is unchanged, the file shrinks, and a WORM store is refused with a message.
 */
class OnlineCompactionTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI P = VF.createIRI("http://example.org/tickOf");
    @TempDir
    Path tmp;

    /**
     * 60,000 statements over few terms (1,000 subjects, 60 predicates, integer objects stored in the
     * ids), in 6 commits; then the statements of 48 of the predicates removed: most index pages are
     * freed, the dictionary is small.
     */
    private static void growByDeletes(SailRepository repo) {
        growByDeletes(repo, 6);
    }

    /** Adds {@code batches} × 10,000 statements (10 predicates a batch), then removes those of 4 predicates in 5. */
    private static void growByDeletes(SailRepository repo, int batches) {
        for (int b = 0; b < batches; b++) {
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin();
                for (int i = b * 10_000; i < (b + 1) * 10_000; i++) {
                    c.add(VF.createIRI("http://example.org/s" + i % 1_000), predicate(i / 1_000), VF.createLiteral(i));
                }
                c.commit();
            }
        }
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (int p = 0; p < batches * 10; p++) {
                if (p % 5 != 0) {
                    c.remove((IRI) null, predicate(p), null);
                }
            }
            c.commit();
        }
    }

    private static IRI predicate(int p) {
        return VF.createIRI("http://example.org/p" + p);
    }

    private static Set<Statement> all(SailRepository repo) {
        Set<Statement> out = new HashSet<>();
        try (RepositoryConnection c = repo.getConnection()) {
            c.getStatements(null, null, null, false).forEach(out::add);
        }
        return out;
    }

    @Test
    void compactThroughJmxKeepsTheDataAndShrinksTheFile() throws Exception {
        SailRepository repo = TestRepos.open(tmp.resolve("live").toFile(), TestRepos.fastConfig());
        try {
            growByDeletes(repo);
            BasaltStore sail = (BasaltStore) repo.getSail();
            Set<Statement> before = all(repo);
            long fileBefore = sail.storeStats().journal().fileBytes();
            try (RemoteJmx jmx = new RemoteJmx()) {
                assertEquals(0, CliAccess.run("compact", "--jmx", jmx.address(), "--store",
                        tmp.resolve("live").toString()));
            }
            JournalStats after = sail.storeStats().journal();
            assertTrue(after.fileBytes() < fileBefore / 2, fileBefore + " -> " + after);
            assertEquals(after.fileBytes(), Files.size(tmp.resolve("live").resolve(BasaltStore.JOURNAL_FILE)));
            assertEquals(before, all(repo));
        } finally {
            repo.shutDown();
        }
        SailRepository reopened = TestRepos.open(tmp.resolve("live").toFile(), TestRepos.fastConfig());
        try {
            assertEquals(12_000, all(reopened).size());
        } finally {
            reopened.shutDown();
        }
    }

    @Test
    void thePolicyCompactsAfterACommitWhenEnoughOfTheFileIsFree() throws Exception {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setCompactFreePercent(60);
        SailRepository repo = TestRepos.open(tmp.resolve("auto").toFile(), config);
        try {
            // compressed statement pages (docs/FORMAT.md section 3) keep 60,000 such statements under
            // the policy's smallest file (CompactionPolicy.MIN_FILE_BYTES)
            growByDeletes(repo, 24);
            BasaltStore sail = (BasaltStore) repo.getSail();
            long deadline = System.nanoTime() + 60_000_000_000L;
            JournalStats j = sail.storeStats().journal();
            assertTrue(CompactionPolicy.due(j, 60), "the setup left too little free: " + j);
            while (CompactionPolicy.due(j, 60) && System.nanoTime() < deadline) {
                try (RepositoryConnection c = repo.getConnection()) {
                    c.add(VF.createIRI("http://example.org/tick"), P, VF.createLiteral(System.nanoTime()));
                }
                Thread.sleep(200);
                j = sail.storeStats().journal();
            }
            assertTrue(!CompactionPolicy.due(j, 60), "the policy did not compact: " + j);
            assertTrue(all(repo).size() > 12_000);
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void aWormStoreIsRefused() {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setJournalMode(JournalMode.WORM);
        SailRepository repo = TestRepos.open(tmp.resolve("worm").toFile(), config);
        try {
            SailException e = assertThrows(SailException.class, () -> ((BasaltStore) repo.getSail()).compact());
            assertTrue(e.getMessage().contains("WORM"), e.getMessage());
        } finally {
            repo.shutDown();
        }
    }
}
