package dev.basalt.sail.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.SailLayout;
import dev.basalt.sail.load.BasaltLoader;
import dev.basalt.sail.load.LoadOptions;
import dev.basalt.sail.read.StatementSet;
import dev.basalt.sail.repository.BasaltRepository;
import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;

/**
 * The sail layout version (docs/FORMAT.md §5.1): a store whose cspo waits for named graphs
 * records layout 2; a store claiming a later layout is refused by the repository and the loader
 * with a message naming it; a store of layout 1 (no property: every order kept) still opens, and
 * keeps cspo written as before.
 */
class SailLayoutVersionTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    Path dir;

    private Path loadedStore() throws Exception {
        Path data = dir.resolve("d.nt");
        Files.writeString(data, "<urn:s> <urn:p> \"a\" .\n<urn:s> <urn:p> \"b\" .\n");
        Path store = dir.resolve("store");
        BasaltLoader.load(store, List.of(data), LoadOptions.defaults());
        return store;
    }

    private static void setProperty(Path store, String name, byte[] value) {
        try (Store s = Store.open(SailLayout.journal(store), StoreConfig.defaults()); WriteTransaction tx = s.begin()) {
            tx.setProperty(name, value);
            tx.commit();
        }
    }

    @Test
    void aStoreWithWaitingCspoRecordsLayoutTwo() throws Exception {
        Path store = loadedStore();
        try (Store s = Store.open(SailLayout.journal(store), StoreConfig.defaults()); Snapshot snap = s.snapshot()) {
            assertTrue(SailLayout.defaultGraphOnly(snap, true));
            assertArrayEquals(new byte[] { 2 }, snap.property(StatementSet.LAYOUT_PROPERTY));
            assertEquals(2, StatementSet.LAYOUT_VERSION);
        }
    }

    @Test
    void aLaterLayoutIsRefusedByTheRepositoryAndTheLoader() throws Exception {
        Path store = loadedStore();
        setProperty(store, StatementSet.LAYOUT_PROPERTY, new byte[] { 3 });
        BasaltRepository repo = new BasaltRepository(new BasaltStore(store.toFile()));
        Exception e = assertThrows(Exception.class, repo::init);
        String message = messages(e);
        assertTrue(message.contains("sail layout 3"), message);
        assertTrue(message.contains("reads layouts 1 to 2"), message);
        assertTrue(message.contains(store.toString()), message);

        Path more = dir.resolve("more.nt");
        Files.writeString(more, "<urn:s> <urn:p> \"c\" .\n");
        Exception load = assertThrows(Exception.class, () -> BasaltLoader.load(store, List.of(more), LoadOptions.defaults()));
        assertTrue(messages(load).contains("sail layout 3"), messages(load));
    }

    @Test
    void aStoreOfLayoutOneOpensAndKeepsEveryOrder() throws Exception {
        Path store = dir.resolve("old");
        // what a Basalt before layout 2 left: the orders recorded, neither the layout nor a waiting order
        BasaltRepository repo = new BasaltRepository(new BasaltStore(store.toFile()));
        repo.init();
        repo.shutDown();
        setProperty(store, StatementSet.LAYOUT_PROPERTY, null);
        setProperty(store, StatementSet.EXPLICIT.defaultGraphOnlyProperty(), null);
        setProperty(store, StatementSet.INFERRED.defaultGraphOnlyProperty(), null);

        repo = new BasaltRepository(new BasaltStore(store.toFile()));
        repo.init();
        try (RepositoryConnection conn = repo.getConnection()) {
            conn.add(VF.createIRI("urn:s"), VF.createIRI("urn:p"), VF.createLiteral("a"));
            conn.add(VF.createIRI("urn:s"), VF.createIRI("urn:p"), VF.createLiteral("b"));
        }
        try (RepositoryConnection conn = repo.getConnection()) {
            assertEquals(0, QueryResults.asList(conn.prepareTupleQuery("SELECT * { GRAPH ?g { ?s ?p ?o } }")
                    .evaluate()).size());
            assertEquals(2, conn.size((org.eclipse.rdf4j.model.Resource) null));
        } finally {
            repo.shutDown();
        }
        try (Store s = Store.open(SailLayout.journal(store), StoreConfig.defaults()); Snapshot snap = s.snapshot()) {
            assertNull(snap.property(StatementSet.LAYOUT_PROPERTY));
            assertNotNull(snap.tree("q.e.cspo"));
            assertEquals(2, snap.tree("q.e.cspo").size(), "a layout-1 store keeps cspo with the default graph only");
            assertNull(snap.property(StatementSet.EXPLICIT.defaultGraphOnlyProperty()));
            assertEquals(List.of(), StatementIndexCheck.check(snap,
                    SailLayout.indexOrders(snap.property(SailLayout.INDEXES_PROPERTY))));
        }
    }

    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t.getMessage()).append(" | ");
        }
        return b.toString();
    }
}
