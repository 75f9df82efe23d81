package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.rdf4j.repository.RepositoryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreCompactor;
import dev.basalt.store.btree.BTreeStats;

/**
 * A store written by the Basalt release before B+tree page format 2 and dictionary format 2 (test
 * resource {@code format1/basalt.jnl.gz}: {@code basalt load} of {@code format1/data.nq}, 103 quads
 * in three graphs, front-coded statement leaves, version-1 checkpoints, dictionary format 1). The
 * storage layer still reads its pages: every tree verifies and each statement tree holds the 103
 * quads; compaction rewrites it with id-tuple statement leaves. The repository refuses it as a
 * whole, because its dictionary is of format 1, with a message that names the journal and the
 * export/load migration path.
 */
class FormatOneStoreTest {
    @TempDir
    File dir;

    @Test
    void formatOnePagesReadAndTheRepositoryRefusesTheOldDictionary() throws IOException {
        copyFixture();
        assertEquals(0, idTupleLeaves(dir.toPath()), "the fixture has only front-coded leaves");
        assertRefused();
    }

    /**
     * Compaction (storage layer) rewrites every tree, so a compacted format-1 store has only
     * id-tuple statement leaves; its dictionary stays of format 1, so the repository still refuses it.
     */
    @Test
    void compactionRewritesStatementLeavesButNotTheDictionary() throws IOException {
        copyFixture();
        StoreCompactor.compact(SailLayout.journal(dir.toPath()), TestRepos.fastConfig().toStoreConfig());
        assertEquals(4, idTupleLeaves(dir.toPath()), "one id-tuple leaf in each of the four statement trees");
        assertRefused();
    }

    private void copyFixture() throws IOException {
        try (InputStream in = new java.util.zip.GZIPInputStream(getClass().getResourceAsStream("/format1/basalt.jnl.gz"))) {
            Files.copy(in, SailLayout.journal(dir.toPath()));
        }
    }

    /** Verifies every tree, checks the statement trees hold the fixture's 103 quads, counts id-tuple leaves. */
    private static long idTupleLeaves(Path dir) {
        try (Store store = Store.open(SailLayout.journal(dir), TestRepos.fastConfig().toStoreConfig());
             Snapshot snapshot = store.snapshot()) {
            long n = 0;
            for (String name : snapshot.treeNames()) {
                BTreeStats stats = snapshot.tree(name).verify();
                n += stats.idTupleLeafPages();
                if (name.startsWith("q.e.")) {
                    assertEquals(103, stats.entries(), name);
                }
            }
            return n;
        }
    }

    private void assertRefused() {
        RepositoryException e = assertThrows(RepositoryException.class, () -> TestRepos.open(dir));
        String message = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
        Path journal = SailLayout.journal(dir.toPath());
        assertTrue(message.contains(journal.toString()), message);
        assertTrue(message.contains("format 1") && message.contains("basalt load"), message);
    }
}
