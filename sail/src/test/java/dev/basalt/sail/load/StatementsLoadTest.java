package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.sail.SailConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.BasaltStoreConnection;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * {@link StatementsLoad} stores statements given as values exactly as adding them one by one does:
 * IRIs with spaces, control and non-ASCII characters, language tags, datatypes, literals of a
 * hundred thousand characters, blank nodes with their labels, triple terms, named graphs, and
 * statements already in the store; and a write whose encoding thread dies fails rather than hangs.
 */
class StatementsLoadTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    Path dir;

    @Test
    void statementsGivenAsValuesAreStoredAsAddingThemOneByOne() {
        List<Statement> data = awkwardStatements(5_000);
        BasaltStore bulk = open(new File(dir.toFile(), "bulk"));
        BasaltStore oneByOne = open(new File(dir.toFile(), "one-by-one"));
        try {
            List<Statement> first = data.subList(0, 100);
            add(oneByOne, first);
            add(bulk, first); // statements already in the store are not new
            try (SailConnection c = bulk.getConnection()) {
                c.begin(IsolationLevels.READ_COMMITTED);
                assertTrue(((BasaltStoreConnection) c).addBulk(new StatementsLoad("test", data, dir)),
                        "the bulk path was not taken");
                c.commit();
            }
            add(oneByOne, data);
            Set<Statement> expected = statements(oneByOne);
            assertEquals(new HashSet<>(data), expected);
            assertEquals(expected, statements(bulk));
            try (SailConnection c = bulk.getConnection()) {
                for (Statement st : data.subList(0, 40)) {
                    assertTrue(c.hasStatement(st.getSubject(), st.getPredicate(), st.getObject(), false,
                            st.getContext()), st.toString());
                }
            }
        } finally {
            bulk.shutDown();
            oneByOne.shutDown();
        }
    }

    /**
     * A write whose encoding thread dies without handing its failure over (here an error whose
     * message cannot be built; in a replica, an out-of-memory error while it builds the exception)
     * fails with a {@link LoadException} instead of waiting for a batch forever, so the replica's
     * applier falls back to adding statement by statement rather than stopping for good.
     */
    @Test
    @Timeout(60)
    void aWriteWhoseEncodingThreadDiesWithoutAWordFailsInsteadOfWaitingForever() {
        List<Statement> data = awkwardStatements(50);
        Collection<Statement> dying = new AbstractCollection<>() {
            @Override
            public Iterator<Statement> iterator() {
                Iterator<Statement> it = data.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return true;
                    }

                    @Override
                    public Statement next() {
                        if (it.hasNext()) {
                            return it.next();
                        }
                        throw new UnspeakableError();
                    }
                };
            }

            @Override
            public int size() {
                return data.size() + 1;
            }
        };
        BasaltStore store = open(new File(dir.toFile(), "dying"));
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> { }); // the dying thread's error is expected
        try (SailConnection c = store.getConnection()) {
            c.begin(IsolationLevels.READ_COMMITTED);
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> ((BasaltStoreConnection) c).addBulk(new StatementsLoad("test", dying, dir)));
            StringBuilder chain = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                chain.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append("; ");
            }
            assertTrue(chain.toString().contains("LoadException: the thread preparing a batch of statements ended"
                    + " without handing it over"), chain.toString());
            c.rollback();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
            store.shutDown();
        }
    }

    /** An error that cannot say what it is: building the message of the exception that reports it fails too. */
    private static final class UnspeakableError extends Error {
        @Override
        public String toString() {
            throw new UnspeakableError();
        }
    }

    /** Statements whose terms text formats carry only with escapes, or not at all. */
    static List<Statement> awkwardStatements(int n) {
        List<Statement> out = new ArrayList<>();
        IRI p = VF.createIRI("http://example.org/p");
        String longText = "long \u00e9 ".repeat(20_000);
        for (int i = 0; i < n; i++) {
            IRI s = VF.createIRI("http://example.org/with space/\u00e9t\u00e9/\u0001ctl/<" + (i % 97) + ">");
            Resource g = switch (i % 3) {
                case 0 -> null;
                case 1 -> VF.createIRI("http://example.org/g\u4e2d\"" + (i % 5));
                default -> VF.createBNode("graph" + (i % 4));
            };
            out.add(VF.createStatement(s, p, switch (i % 8) {
                case 0 -> VF.createLiteral("chat \"quoted\"\n\t\u0000\u0007 " + i, "fr-CA");
                case 1 -> VF.createLiteral(longText + i);
                case 2 -> VF.createLiteral(i);
                case 3 -> VF.createLiteral("x" + i, VF.createIRI("http://example.org/dt with space\u00ff"));
                case 4 -> VF.createBNode("b" + (i % 13));
                case 5 -> VF.createTriple(s, p, VF.createLiteral("inner \u2603 " + i, "en"));
                case 6 -> VF.createIRI("urn:x-\u0085\u2028" + i);
                default -> VF.createLiteral("\ud83d\ude00 " + i, "zh-Hant-TW");
            }, g));
        }
        return out;
    }

    private static BasaltStore open(File dir) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        BasaltStore store = new BasaltStore(dir, config);
        store.init();
        return store;
    }

    private static void add(BasaltStore store, List<Statement> data) {
        try (SailConnection c = store.getConnection()) {
            c.begin(IsolationLevels.READ_COMMITTED);
            for (Statement st : data) {
                c.addStatement(st.getSubject(), st.getPredicate(), st.getObject(), st.getContext());
            }
            c.commit();
        }
    }

    private static Set<Statement> statements(BasaltStore store) {
        Set<Statement> out = new HashSet<>();
        try (SailConnection c = store.getConnection();
                CloseableIteration<? extends Statement> it = c.getStatements(null, null, null, false)) {
            while (it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }
}
