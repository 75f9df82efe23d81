package dev.basalt.sail.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
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
import dev.basalt.sail.repository.BasaltRepository;
import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.quads.QuadOrder;

/**
 * A store whose statements are all in the default graph keeps its cspo trees empty (a bulk load
 * writes none), answers graph queries as a store with cspo does, builds cspo in the commit of its
 * first statement in a named graph, and passes the index check before and after.
 */
class ContextOrderOnDemandTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    Path dir;

    @Test
    void cspoIsBuiltWithTheFirstNamedGraph() throws Exception {
        Path data = dir.resolve("d.nt");
        StringBuilder nt = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            nt.append("<urn:s").append(i % 37).append("> <urn:p").append(i % 5).append("> \"v").append(i).append("\" .\n");
        }
        Files.writeString(data, nt);
        Path store = dir.resolve("store");
        BasaltLoader.load(store, List.of(data), LoadOptions.defaults());
        assertCspo(store, true, 0, 300);

        IRI g = VF.createIRI("urn:g");
        BasaltRepository repo = new BasaltRepository(new BasaltStore(store.toFile()));
        repo.init();
        try (RepositoryConnection conn = repo.getConnection()) {
            assertEquals(0, count(conn, "SELECT * { GRAPH ?g { ?s ?p ?o } }"));
            assertEquals(300, count(conn, "SELECT * { ?s ?p ?o }"));
            assertEquals(0, QueryResults.asList(conn.getContextIDs()).size());
            assertEquals(300, conn.size((org.eclipse.rdf4j.model.Resource) null), "the default graph");
            assertEquals(0, conn.size(g));
            conn.add(VF.createIRI("urn:s1"), VF.createIRI("urn:p9"), VF.createLiteral("in g"), g);
            assertEquals(1, count(conn, "SELECT * { GRAPH <urn:g> { ?s ?p ?o } }"), "the transaction's own view");
            conn.add(VF.createIRI("urn:s2"), VF.createIRI("urn:p9"), VF.createLiteral("default"));
        }
        try (RepositoryConnection conn = repo.getConnection()) {
            assertEquals(1, count(conn, "SELECT * { GRAPH ?g { ?s ?p ?o } }"));
            assertEquals(List.of(g), QueryResults.asList(conn.getContextIDs()));
            assertEquals(301, conn.size((org.eclipse.rdf4j.model.Resource) null));
            assertEquals(302, conn.size());
        } finally {
            repo.shutDown();
        }
        assertCspo(store, false, 302, 302);
    }

    private static long count(RepositoryConnection conn, String query) {
        return QueryResults.asList(conn.prepareTupleQuery(query).evaluate()).size();
    }

    private static void assertCspo(Path dir, boolean defaultGraphOnly, long cspo, long spoc) {
        try (Store store = Store.open(SailLayout.journal(dir), StoreConfig.defaults()); Snapshot s = store.snapshot()) {
            List<QuadOrder> orders = SailLayout.indexOrders(s.property(SailLayout.INDEXES_PROPERTY));
            assertEquals(defaultGraphOnly, SailLayout.defaultGraphOnly(s, true));
            var cspoTree = s.tree("q.e.cspo");
            assertEquals(cspo, cspoTree == null ? 0 : cspoTree.size(), "cspo");
            assertNotNull(s.tree("q.e.spoc"));
            assertEquals(spoc, s.tree("q.e.spoc").size(), "spoc");
            assertEquals(List.of(), StatementIndexCheck.check(s, orders));
            if (!defaultGraphOnly) {
                assertNull(s.property("sail.defaultGraphOnly.explicit"));
            }
            assertTrue(orders.contains(QuadOrder.parse("cspo")));
        }
    }
}
