package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreCompactor;
import dev.basalt.store.btree.BTreeStats;

/**
 * A store written by the Basalt release before B+tree page format 2 (test resource
 * {@code format1/basalt.jnl.gz}: {@code basalt load} of {@code format1/data.nq}, 103 quads in three
 * graphs, with front-coded statement leaves and version-1 checkpoints) opens, reads back exactly
 * its data, takes new statements, whose statement leaves are then written as id-tuple leaves, and
 * verifies; and compacted, it holds only id-tuple statement leaves and the same data.
 */
class FormatOneStoreTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    File dir;

    @Test
    void formatOneStoreReadsAndTakesWrites() throws IOException {
        Set<Statement> expected = copyFixture();
        assertEquals(0, idTupleLeaves(dir.toPath()), "the fixture has only front-coded leaves");

        SailRepository repo = TestRepos.open(dir);
        IRI added = VF.createIRI("http://example.org/added");
        try (RepositoryConnection c = repo.getConnection()) {
            assertEquals(expected, statements(c));
            c.add(added, added, VF.createLiteral(7), added);
            expected.add(VF.createStatement(added, added, VF.createLiteral(7), added));
            assertEquals(expected, statements(c));
        } finally {
            repo.shutDown();
        }
        SailRepository again = TestRepos.open(dir);
        try (RepositoryConnection c = again.getConnection()) {
            assertEquals(expected, statements(c));
        } finally {
            again.shutDown();
        }
        assertTrue(idTupleLeaves(dir.toPath()) >= 4, "the rewritten statement leaves are id-tuple leaves");
    }

    /** Compaction rewrites every tree, so a compacted format-1 store has only id-tuple statement leaves. */
    @Test
    void compactionRewritesStatementLeavesAsIdTuples() throws IOException {
        Set<Statement> expected = copyFixture();
        StoreCompactor.compact(SailLayout.journal(dir.toPath()), TestRepos.fastConfig().toStoreConfig());
        assertEquals(4, idTupleLeaves(dir.toPath()), "one id-tuple leaf in each of the four statement trees");
        SailRepository repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            assertEquals(expected, statements(c));
        } finally {
            repo.shutDown();
        }
    }

    /** Puts the fixture's journal in {@link #dir}; returns the quads it holds. */
    private Set<Statement> copyFixture() throws IOException {
        try (InputStream in = new GZIPInputStream(getClass().getResourceAsStream("/format1/basalt.jnl.gz"))) {
            Files.copy(in, SailLayout.journal(dir.toPath()));
        }
        Set<Statement> expected = new HashSet<>();
        try (InputStream in = getClass().getResourceAsStream("/format1/data.nq")) {
            expected.addAll(Rio.parse(in, "", RDFFormat.NQUADS));
        }
        assertEquals(103, expected.size());
        return expected;
    }

    private static Set<Statement> statements(RepositoryConnection c) {
        Set<Statement> all = new HashSet<>();
        c.getStatements(null, null, null, false).forEach(all::add);
        return all;
    }

    /** Verifies the whole store and counts its id-tuple leaves. */
    private static long idTupleLeaves(Path dir) {
        try (Store store = Store.open(SailLayout.journal(dir), TestRepos.fastConfig().toStoreConfig());
             Snapshot snapshot = store.snapshot()) {
            long n = 0;
            for (String name : snapshot.treeNames()) {
                BTreeStats stats = snapshot.tree(name).verify();
                n += stats.idTupleLeafPages();
            }
            return n;
        }
    }
}
