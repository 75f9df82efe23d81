package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.common.transaction.TransactionSetting;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ModelFactory;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModelFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.EvaluationStrategy;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategy;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.base.SailDataset;
import org.eclipse.rdf4j.sail.base.SailDatasetTripleSource;
import org.eclipse.rdf4j.sail.base.SailSink;
import org.eclipse.rdf4j.sail.base.SailSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.optimizer.rdf4j.QueryFallbacks;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.journal.JournalMode;

/**
 * Checks each dependency on RDF4J internals listed in {@link Rdf4jInternals}, by number, so that an
 * RDF4J upgrade that changes one of them fails here.
 */
class Rdf4jInternalsTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI A = VF.createIRI("http://example.org/a");
    private static final String PREFIX = "PREFIX ex: <http://example.org/> ";

    @TempDir
    File dir;

    /** A proxy of {@code type} that records "name[:level]@thread" of each call, then delegates. */
    @SuppressWarnings("unchecked")
    private static <T> T recording(Class<T> type, T delegate, List<String> calls) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
            String level = args != null && args.length == 1 && args[0] != null
                    && method.getParameterTypes()[0].getSimpleName().equals("IsolationLevel") ? ":" + args[0] : "";
            calls.add(method.getName() + level + "@" + Thread.currentThread().getName());
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    @Test
    void dependency1TheBranchConstructorIsThereWithItsParameterTypes() {
        Constructor<?> c = Rdf4jInternals.branchConstructor();
        assertEquals(Rdf4jInternals.BRANCH_CLASS, c.getDeclaringClass().getName());
        assertEquals(List.of(SailSource.class, ModelFactory.class, boolean.class), Arrays.asList(c.getParameterTypes()));
        assertTrue(SailSource.class.isAssignableFrom(c.getDeclaringClass()));
        assertFalse(Modifier.isPublic(c.getDeclaringClass().getModifiers()),
                "SailSourceBranch became public: call its constructor directly and drop the reflection");
    }

    @Test
    void dependency2ASerializableDatasetAsksForASinkThenADatasetInTheSameThread() {
        BasaltSailStore backing = BasaltSailStore.open(dir.toPath().resolve(BasaltStore.JOURNAL_FILE),
                TestRepos.fastConfig());
        try {
            List<String> calls = new CopyOnWriteArrayList<>();
            SailSource branch = Rdf4jInternals.fork(
                    recording(SailSource.class, backing.getExplicitSailSource(), calls), new LinkedHashModelFactory());
            String thread = Thread.currentThread().getName();
            try (SailDataset ds = branch.dataset(IsolationLevels.SERIALIZABLE)) {
                assertEquals(List.of("sink:" + IsolationLevels.SERIALIZABLE + "@" + thread,
                        "dataset:" + IsolationLevels.SERIALIZABLE + "@" + thread), calls);
            }
            branch.close();
        } finally {
            backing.close();
        }
    }

    @Test
    void dependency3QueriesReachTheNativeEngine() {
        SailRepository repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(A, A, A);
            long before = ((BasaltStore) repo.getSail()).getNativeQueryStats().plansCompiled();
            assertEquals(1, c.prepareTupleQuery("SELECT * WHERE { ?s ?p ?o }").evaluate().stream().count());
            assertTrue(((BasaltStore) repo.getSail()).getNativeQueryStats().plansCompiled() > before,
                    "RDF4J no longer asks for the evaluation strategy inside evaluateInternal");
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void dependency4ExplainRunsThroughEvaluateInternal() {
        SailRepository repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(A, A, A);
            String explained = c.prepareTupleQuery(PREFIX
                    + "SELECT * WHERE { ?s ?p ?o { SELECT ?s WHERE { ?s ?q ?x } ORDER BY ?x LIMIT 3 } }")
                    .explain(Explanation.Level.Optimized).toString();
            assertTrue(explained.lines().anyMatch(l -> l.contains(QueryFallbacks.NODE_MARK)
                    && l.contains("ORDER BY in a subquery")), explained);
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void dependency5GetConnectionOpensTheConnectionInTheCallingThread() {
        BasaltStoreConfig worm = TestRepos.fastConfig();
        worm.setJournalMode(JournalMode.WORM);
        SailRepository repo = TestRepos.open(dir, worm);
        try {
            long first;
            try (RepositoryConnection c = repo.getConnection()) {
                c.add(A, A, A);
                first = ReadAsOfTest.newest((BasaltStore) repo.getSail());
                c.add(A, A, VF.createLiteral(2));
            }
            try (SailConnection past = ((BasaltStore) repo.getSail()).getConnectionAsOf(first)) {
                assertEquals(1, past.size(), "the connection as of the first commit point reads the newest one");
            }
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void dependency6ChangeSetModelsAreCreatedInTheWritingThread() throws Exception {
        BasaltSailStore backing = BasaltSailStore.open(dir.toPath().resolve(BasaltStore.JOURNAL_FILE),
                TestRepos.fastConfig());
        try {
            List<String> calls = new CopyOnWriteArrayList<>();
            ModelFactory models = recording(ModelFactory.class, new LinkedHashModelFactory(), calls);
            SailSource branch = Rdf4jInternals.fork(backing.getExplicitSailSource(), models);
            String writer = CompletableFuture.supplyAsync(() -> {
                try (SailSink sink = branch.sink(IsolationLevels.SNAPSHOT)) {
                    assertTrue(calls.isEmpty(), calls.toString());
                    sink.approve(A, A, A, null);
                    return Thread.currentThread().getName();
                }
            }).get();
            assertFalse(calls.isEmpty(), "approving a statement created no change-set model");
            assertTrue(calls.stream().allMatch(call -> call.equals("createEmptyModel@" + writer)), calls.toString());
            branch.close();
        } finally {
            backing.close();
        }
    }

    @Test
    void dependency9TheConnectionsEvaluationModeIsRdf4js() {
        SailRepository repo = TestRepos.open(dir);
        try (SailConnection c = repo.getSail().getConnection()) {
            BasaltStoreConnection basalt = (BasaltStoreConnection) c;
            // any triple source: only the strategy's evaluation mode is read, never a statement
            TripleSource empty = new SailDatasetTripleSource(VF, null);
            for (TransactionSetting[] settings : List.of(new TransactionSetting[0],
                    new TransactionSetting[] { QueryEvaluationMode.STRICT },
                    new TransactionSetting[] { IsolationLevels.SNAPSHOT },
                    new TransactionSetting[] { QueryEvaluationMode.STANDARD, IsolationLevels.NONE },
                    new TransactionSetting[] { IsolationLevels.NONE, QueryEvaluationMode.STRICT })) {
                if (settings.length > 0) {
                    c.setTransactionSettings(settings);
                }
                assertSameMode(basalt, empty, Arrays.toString(settings));
            }
            for (boolean commit : new boolean[] { true, false }) {
                c.setTransactionSettings(QueryEvaluationMode.STANDARD);
                c.begin();
                assertSameMode(basalt, empty, "in a transaction");
                if (commit) {
                    c.commit();
                } else {
                    c.rollback();
                }
                assertSameMode(basalt, empty, commit ? "after commit" : "after rollback");
            }
        } finally {
            repo.shutDown();
        }
    }

    private static void assertSameMode(BasaltStoreConnection basalt, TripleSource source, String when) {
        EvaluationStrategy rdf4j = basalt.getEvaluationStrategy(null, source);
        assertEquals(((DefaultEvaluationStrategy) rdf4j).getQueryEvaluationMode(), basalt.evaluationMode(), when);
    }
}
