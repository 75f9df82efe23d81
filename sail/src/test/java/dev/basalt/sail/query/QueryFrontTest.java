package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.SingletonSet;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.config.RepositoryConfigException;
import org.eclipse.rdf4j.sail.helpers.NotifyingSailWrapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.optimizer.rdf4j.PreparedAlgebra;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;
import dev.basalt.sail.repository.config.BasaltRepositoryConfig;

/** The front door's one bound, its MBean, its settings and the hand-over of its stages with the query's tree. */
class QueryFrontTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://ex.org/";
    @TempDir
    Path dir;

    private static String query(int shape, int constant) {
        return "SELECT ?o WHERE { <" + EX + "s" + constant + "> <" + EX + "p" + constant + "> ?o" + " . ?o ?q"
                + shape + " ?z }";
    }

    @Test
    void oneBoundEvictsWholeShapes() {
        QueryFront front = new QueryFront(3, true);
        for (int shape = 0; shape < 6; shape++) {
            front.prepare(QueryLanguage.SPARQL, query(shape, 0), null);
        }
        assertEquals(3, front.getShapes(), "at most the capacity");
        assertEquals(3, front.getEvictions());
        assertEquals(6, front.getParsed());
        // the newest shape stays: its next query is instantiated, not parsed
        front.prepare(QueryLanguage.SPARQL, query(5, 1), null);
        assertEquals(1, front.getInstantiated());
        assertTrue(front.holdsTemplate(query(5, 2), null));
        assertThrows(IllegalArgumentException.class, () -> new QueryFront(0, true));
    }

    @Test
    void countersAreAnMBeanWhileTheRepositoryIsUp() throws Exception {
        BasaltRepository repo = new BasaltRepository(store(dir.resolve("a")), 17);
        repo.init();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("dev.basalt:type=QueryFront,repository="
                + ObjectName.quote(dir.resolve("a").toFile().getAbsolutePath()));
        try {
            assertEquals(17L, server.getAttribute(name, "Capacity"));
            try (RepositoryConnection c = repo.getConnection()) {
                c.prepareTupleQuery(query(0, 0)).evaluate().close();
            }
            assertEquals(1L, server.getAttribute(name, "Shapes"));
            assertEquals(1L, server.getAttribute(name, "Parsed"));
        } finally {
            repo.shutDown();
        }
        assertFalse(server.isRegistered(name), "unregistered at shutdown");
    }

    @Test
    void shapePlansIsARepositorySetting() {
        BasaltRepositoryConfig config = new BasaltRepositoryConfig();
        config.setShapePlans(false);
        Model m = new LinkedHashModel();
        Resource node = config.export(m);
        BasaltRepositoryConfig parsed = new BasaltRepositoryConfig();
        parsed.parse(m, node);
        assertFalse(parsed.getShapePlans());
        assertTrue(new BasaltRepositoryConfig().getShapePlans(), "on by default");
        m.remove(node, BasaltRepositoryConfig.SHAPE_PLANS, null);
        m.add(node, BasaltRepositoryConfig.SHAPE_PLANS, VF.createLiteral("maybe"));
        RepositoryConfigException e = assertThrows(RepositoryConfigException.class,
                () -> new BasaltRepositoryConfig().parse(m, node));
        assertTrue(e.getMessage().contains("shapePlans"), e.getMessage());
    }

    @Test
    void withoutShapePlansEveryQueryIsCompiled() {
        BasaltStore store = store(dir.resolve("b"));
        BasaltRepository repo = new BasaltRepository(store, 100, false);
        try {
            fill(repo);
            NativeQueryStats stats = store.getNativeQueryStats();
            for (int i = 0; i < 5; i++) {
                assertEquals(List.of(EX + "o" + (i % 2)), answer(repo, i % 2));
            }
            assertEquals(0, stats.shapePlansKept());
            assertEquals(0, stats.shapePlansReused());
            assertTrue(repo.front.getOptimizedReused() >= 3, "the optimized stage is still reused");
        } finally {
            repo.shutDown();
        }
    }

    /** A sail between (an inferencer, this pass-through wrapper) passes the query's tree on as it is: the stages travel with it, no thread-local needed. */
    @Test
    void aWrappedStoreGetsTheStagesWithTheTree() {
        BasaltStore store = store(dir.resolve("c"));
        BasaltRepository repo = new BasaltRepository(new NotifyingSailWrapper(store), 100);
        try {
            fill(repo);
            for (int i = 0; i < 5; i++) {
                assertEquals(List.of(EX + "o" + (i % 2)), answer(repo, i % 2));
            }
            assertTrue(repo.front.getOptimizedReused() >= 3,
                    "reused " + repo.front.getOptimizedReused());
            assertTrue(store.getNativeQueryStats().shapePlansReused() >= 2);
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void aShapedTreeIsRecognizedOnlyUntouched() {
        TupleExpr tree = new Projection(new SingletonSet());
        PreparedAlgebra prepared = (root, dataset, bindings, mode, steps) -> root;
        ShapedQuery shaped = new ShapedQuery(tree, prepared);
        assertSame(prepared, ShapedQuery.preparedFor(shaped));
        assertSame(tree, ShapedQuery.tree(shaped));
        assertNull(tree.getParentNode(), "the parsed tree keeps its parent");
        assertNull(ShapedQuery.preparedFor(shaped.clone()), "a sail that rewrote a clone gets no stages");
        assertNull(ShapedQuery.preparedFor(tree));
    }

    static BasaltStore store(Path path) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        return new BasaltStore(path.toFile(), config);
    }

    private static void fill(BasaltRepository repo) {
        fill(repo, 2);
    }

    /** {@code <ex:sI> <ex:p> <ex:oI>} for I below {@code subjects}. */
    static void fill(BasaltRepository repo, int subjects) {
        try (RepositoryConnection c = repo.getConnection()) {
            for (int i = 0; i < subjects; i++) {
                IRI s = VF.createIRI(EX + "s" + i);
                c.add(s, VF.createIRI(EX + "p"), VF.createIRI(EX + "o" + i));
            }
        }
    }

    private static List<String> answer(BasaltRepository repo, int subject) {
        try (RepositoryConnection c = repo.getConnection();
                TupleQueryResult r = c.prepareTupleQuery(
                        "SELECT ?o WHERE { <" + EX + "s" + subject + "> <" + EX + "p> ?o }").evaluate()) {
            return r.stream().map(b -> b.getValue("o").stringValue()).toList();
        }
    }
}
