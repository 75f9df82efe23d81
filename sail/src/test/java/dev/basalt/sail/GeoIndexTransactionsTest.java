package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.load.ChildProcess;
import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.spatial.SpatialIndex;

/**
 * The spatial index follows the statements: a window query finds a geometry once its statement
 * commits, not after the statement is removed or its transaction rolled back, sees a
 * transaction's own uncommitted geometries, and answers alike after reopen, from a copy of the
 * journal taken while the store is open, after the writing process is killed, and from a store
 * written without the index (built on open).
 */
class GeoIndexTransactionsTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final IRI AS_WKT = VF.createIRI("http://www.opengis.net/ont/geosparql#asWKT");
    private static final IRI WKT = VF.createIRI("http://www.opengis.net/ont/geosparql#wktLiteral");
    private static final String WINDOW = "PREFIX geo: <http://www.opengis.net/ont/geosparql#> "
            + "PREFIX geof: <http://www.opengis.net/def/function/geosparql/> SELECT ?f WHERE { ?f geo:asWKT ?g . "
            + "FILTER(geof:sfWithin(?g, \"POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))\"^^geo:wktLiteral)) }";

    @TempDir
    File dir;

    private static void add(SailRepository repo, String feature, String wkt) {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(VF.createIRI(EX, feature), AS_WKT, VF.createLiteral(wkt, WKT));
        }
    }

    private static List<String> inWindow(RepositoryConnection c) {
        List<String> out = new ArrayList<>();
        for (BindingSet bs : c.prepareTupleQuery(WINDOW).evaluate()) {
            out.add(((IRI) bs.getValue("f")).getLocalName());
        }
        out.sort(null);
        return out;
    }

    private static List<String> inWindow(SailRepository repo) {
        try (RepositoryConnection c = repo.getConnection()) {
            String plan = c.prepareTupleQuery(WINDOW).explain(Explanation.Level.Optimized).toString();
            assertTrue(plan.contains("SpatialScan ?g geo.cells sfWithin"), plan);
            return inWindow(c);
        }
    }

    @Test
    void theIndexFollowsAddsRemovesAndRollbacks() {
        SailRepository repo = TestRepos.open(dir);
        try {
            add(repo, "a", "POINT(5 5)");
            add(repo, "far", "POINT(50 5)");
            add(repo, "line", "LINESTRING(1 1, 2 3)");
            assertEquals(List.of("a", "line"), inWindow(repo));
            try (RepositoryConnection c = repo.getConnection()) {
                c.remove(VF.createIRI(EX, "a"), AS_WKT, null);
            }
            assertEquals(List.of("line"), inWindow(repo));
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin();
                c.add(VF.createIRI(EX, "b"), AS_WKT, VF.createLiteral("POINT(6 6)", WKT));
                c.add(VF.createIRI(EX, "a"), AS_WKT, VF.createLiteral("POINT(5 5)", WKT));
                assertEquals(List.of("a", "b", "line"), inWindow(c), "a transaction sees its own geometries");
                c.rollback();
            }
            assertEquals(List.of("line"), inWindow(repo));
            // a geometry used again by another statement after its first one was removed
            add(repo, "again", "POINT(5 5)");
            assertEquals(List.of("again", "line"), inWindow(repo));
        } finally {
            repo.shutDown();
        }
        SailRepository reopened = TestRepos.open(dir);
        try {
            assertEquals(List.of("again", "line"), inWindow(reopened));
        } finally {
            reopened.shutDown();
        }
    }

    @Test
    void aCopyOfTheOpenJournalHoldsTheIndexOfEveryCommit() throws Exception {
        File data = new File(dir, "store");
        Path copy = dir.toPath().resolve("copy");
        BasaltStoreConfig durable = new BasaltStoreConfig();
        SailRepository repo = TestRepos.open(data, durable);
        List<String> before;
        try {
            for (int i = 0; i < 20; i++) {
                add(repo, "p" + i, "POINT(" + (i % 12) + " 1)");
            }
            before = inWindow(repo);
            // x = 1 ... 9 are inside; 0 and 10 are on the boundary, 11 outside
            assertEquals(16, before.size());
            Files.createDirectories(copy);
            Files.copy(data.toPath().resolve(BasaltStore.JOURNAL_FILE), copy.resolve(BasaltStore.JOURNAL_FILE));
        } finally {
            repo.shutDown();
        }
        SailRepository recovered = TestRepos.open(copy.toFile(), durable);
        try {
            assertEquals(before, inWindow(recovered));
        } finally {
            recovered.shutDown();
        }
    }

    @Test
    @Timeout(180)
    void geometriesOfCommitsAcknowledgedBeforeAKillAreFoundThroughTheIndex() throws Exception {
        Path store = dir.toPath().resolve("killed");
        Process child = ChildProcess.start(GeoCrashChild.class, store.toString());
        int acknowledged = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (acknowledged < 40 && (line = out.readLine()) != null) {
                if (line.startsWith("committed ")) {
                    acknowledged = Integer.parseInt(line.substring("committed ".length()));
                }
            }
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not die");
        } finally {
            child.destroyForcibly();
        }
        assertTrue(acknowledged >= 40, "the child acknowledged only " + acknowledged + " commits");
        SailRepository repo = TestRepos.open(store.toFile());
        try {
            List<String> found = inWindow(repo);
            for (int i = 0; i <= acknowledged; i++) {
                assertTrue(found.contains("s" + i), "acknowledged geometry " + i + " of " + acknowledged + " is not found");
            }
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void aStoreWrittenWithoutTheIndexGetsItOnOpen() {
        SailRepository repo = TestRepos.open(dir);
        try {
            add(repo, "a", "POINT(5 5)");
            add(repo, "b", "POLYGON((1 1, 2 1, 2 2, 1 2, 1 1))");
            add(repo, "c", "POINT(15 5)");
        } finally {
            repo.shutDown();
        }
        Path journal = dir.toPath().resolve(BasaltStore.JOURNAL_FILE);
        try (Store store = Store.open(journal, StoreConfig.defaults())) {
            try (WriteTransaction tx = store.begin()) {
                tx.dropTree(SpatialIndex.TREE);
                tx.setProperty(SpatialIndex.PROPERTY, null);
                tx.commit();
            }
            try (Snapshot s = store.snapshot()) {
                assertNull(s.tree(SpatialIndex.TREE));
            }
        }
        SailRepository reopened = TestRepos.open(dir);
        try {
            assertEquals(List.of("a", "b"), inWindow(reopened));
        } finally {
            reopened.shutDown();
        }
        try (Store store = Store.open(journal, StoreConfig.defaults()); Snapshot s = store.snapshot()) {
            assertNotNull(s.tree(SpatialIndex.TREE));
            assertTrue(SpatialIndex.isCurrent(s.property(SpatialIndex.PROPERTY), s.property(Lexicon.ALLOCATOR_PROPERTY)));
            assertFalse(s.tree(SpatialIndex.TREE).isEmpty());
        }
    }
}
