package dev.basalt.sail.spill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Random;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OverflowModel} against {@link LinkedHashModel} as the reference: random additions,
 * removals and pattern queries (null = any, contexts incl. the default graph and unknown terms),
 * before and after spilling, must agree.
 */
class OverflowModelTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    Path dir;

    private static Resource res(Random r) {
        int k = r.nextInt(12);
        return k == 0 ? VF.createBNode("b" + r.nextInt(3)) : VF.createIRI("urn:r" + k);
    }

    private static IRI pred(Random r) {
        return VF.createIRI("urn:p" + r.nextInt(4));
    }

    private static Value obj(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> VF.createLiteral(r.nextInt(5));
            case 1 -> VF.createLiteral("s" + r.nextInt(5), "en");
            case 2 -> VF.createTriple(res(r), pred(r), VF.createLiteral("t"));
            default -> res(r);
        };
    }

    private static Resource ctx(Random r) {
        return r.nextInt(3) == 0 ? null : VF.createIRI("urn:g" + r.nextInt(3));
    }

    private static Statement statement(Random r) {
        return VF.createStatement(res(r), pred(r), obj(r), ctx(r));
    }

    private static <T> T maybe(Random r, T v) {
        return r.nextBoolean() ? null : v;
    }

    private static Resource[] contexts(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> new Resource[0];
            case 1 -> new Resource[] { null };
            case 2 -> new Resource[] { ctx(r), VF.createIRI("urn:never") };
            default -> new Resource[] { ctx(r), ctx(r) };
        };
    }

    @Test
    void agreesWithLinkedHashModelBeforeAndAfterSpilling() {
        for (long seed = 1; seed <= 4; seed++) {
            Random r = new Random(seed);
            OverflowModelFactory f = new OverflowModelFactory(new SpillPolicy(40, 0, dir));
            Model m = f.createEmptyModel();
            Model ref = new LinkedHashModel();
            for (int step = 0; step < 600; step++) {
                int op = r.nextInt(10);
                String where = "seed " + seed + " step " + step;
                if (op < 5) {
                    Statement st = statement(r);
                    assertEquals(ref.add(st), m.add(st), where);
                } else if (op == 5) {
                    Statement st = statement(r);
                    assertEquals(ref.remove(st), m.remove(st), where);
                } else if (op == 6 && r.nextInt(4) == 0) {
                    Resource s = maybe(r, res(r));
                    IRI p = maybe(r, pred(r));
                    Resource[] c = contexts(r);
                    assertEquals(ref.remove(s, p, null, c), m.remove(s, p, null, c), where);
                } else {
                    Resource s = maybe(r, res(r));
                    IRI p = maybe(r, pred(r));
                    Value o = maybe(r, obj(r));
                    Resource[] c = contexts(r);
                    assertEquals(ref.contains(s, p, o, c), m.contains(s, p, o, c), where);
                    assertEquals(new HashSet<>(ref.filter(s, p, o, c)), new HashSet<>(m.filter(s, p, o, c)), where);
                    assertEquals(ref.filter(s, p, o, c).size(), m.filter(s, p, o, c).size(), where);
                }
                assertEquals(ref.size(), m.size(), where);
            }
            assertEquals(new HashSet<>(ref), new HashSet<>(m));
            assertTrue(((OverflowModel) m).isSpilled(), "the model spilled");
            f.close();
        }
    }

    @Test
    void iteratorRemoveAndClearAfterSpilling() {
        OverflowModelFactory f = new OverflowModelFactory(new SpillPolicy(10, 0, dir));
        Model m = f.createEmptyModel();
        for (int i = 0; i < 3000; i++) {
            m.add(VF.createIRI("urn:s" + i % 50), VF.createIRI("urn:p"), VF.createLiteral(i),
                    i % 3 == 0 ? null : VF.createIRI("urn:g" + i % 3));
        }
        int removed = 0;
        for (Iterator<Statement> it = m.filter(null, null, null, (Resource) null).iterator(); it.hasNext();) {
            it.next();
            it.remove();
            removed++;
        }
        assertEquals(1000, removed);
        assertEquals(2000, m.size());
        m.clear(VF.createIRI("urn:g1"));
        assertEquals(1000, m.size());
        Set<Resource> contexts = m.contexts();
        assertEquals(Set.of(VF.createIRI("urn:g2")), contexts);
        m.clear();
        assertTrue(m.isEmpty());
        f.close();
    }

    @Test
    void releaseDeletesTheSpillStoreAndRefusesFurtherUse() throws Exception {
        OverflowModelFactory f = new OverflowModelFactory(new SpillPolicy(5, 0, dir));
        Model m = f.createEmptyModel();
        for (int i = 0; i < 20; i++) {
            m.add(VF.createIRI("urn:s"), VF.createIRI("urn:p"), VF.createLiteral(i));
        }
        assertEquals(1, f.openSpillStores());
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count());
        }
        OverflowModelFactory.release(m);
        assertEquals(0, f.openSpillStores());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
        assertThrows(IllegalStateException.class, m::size);
    }

    @Test
    void anUnreachableSpilledModelIsDeletedByTheCleaner() throws Exception {
        OverflowModelFactory f = new OverflowModelFactory(new SpillPolicy(5, 0, dir));
        Model m = f.createEmptyModel();
        for (int i = 0; i < 20; i++) {
            m.add(VF.createIRI("urn:s"), VF.createIRI("urn:p"), VF.createLiteral(i));
        }
        assertEquals(1, f.openSpillStores());
        m = null;
        for (int i = 0; i < 100 && f.openSpillStores() > 0; i++) {
            System.gc();
            Thread.sleep(50);
        }
        assertEquals(0, f.openSpillStores());
    }
}
