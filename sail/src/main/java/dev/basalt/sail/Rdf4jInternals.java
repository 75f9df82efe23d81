package dev.basalt.sail;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;

import org.eclipse.rdf4j.model.ModelFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.SailSource;
import dev.basalt.sail.query.SessionDataset;
import dev.basalt.sail.read.ObservedReads;
import dev.basalt.sail.write.BasaltSailSource;

/**
 * Every place where Basalt depends on RDF4J behaviour that is not part of RDF4J's documented API,
 * as of rdf4j {@value #VERSION}. {@code Rdf4jInternalsTest} checks the first six and the ninth, so an RDF4J
 * upgrade that changes any of them fails a test instead of silently degrading Basalt; the seventh and eighth say
 * what checks them.
 *
 * <ol>
 * <li><b>Transaction branches by reflection.</b> RDF4J's branch,
 * {@code org.eclipse.rdf4j.sail.base.SailSourceBranch}, is package-private, but its public
 * constructor {@code (SailSource, ModelFactory, boolean autoFlush)} lets Basalt choose the model
 * factory of the pending changes (one that spills) and turn auto-flush off (a connection's changes
 * reach the store only at its commit, inside the writer's commit group). {@link #fork} calls it
 * reflectively; the only public route, {@code BackingSailSource.fork()}, fixes an in-heap factory.</li>
 * <li><b>SERIALIZABLE sink, then dataset, in one thread.</b> A branch asked for a dataset at
 * SERIALIZABLE asks its backing source for a sink and then, in the same call and thread, for a
 * dataset. {@link BasaltSailSource} parks the sink's {@link ObservedReads} in a thread-local
 * between the two calls, so the reads are checked against exactly the commit point the dataset
 * pinned.</li>
 * <li><b>The evaluation strategy is asked for during {@code evaluateInternal}, with its dataset argument.</b>
 * {@code SailSourceConnection.evaluateInternal} passes the dataset it is given to {@code getEvaluationStrategy}
 * and uses it for nothing else. {@link QueryRouter} attaches the query's native session to that
 * argument ({@link SessionDataset}) and {@link BasaltStoreConnection} takes it off again there; if RDF4J used the dataset elsewhere, or asked
 * for the strategy without it, every query would quietly run on RDF4J's evaluator (the native-evaluation tests,
 * which count plans, fail).</li>
 * <li><b>{@code explain} evaluates through {@code evaluateInternal}.</b> An explanation is computed
 * by the connection's {@code evaluateInternal} in the calling thread, so the
 * {@link QueryRouter} parks the explanation's fallback record in a thread-local around
 * {@code explain} and the native session writes its plans into it.</li>
 * <li><b>{@code getConnection} calls {@code getConnectionInternal} in the calling thread.</b>
 * {@link BasaltStore#getConnectionAsOf(long)} parks the past commit point in a thread-local and
 * calls {@code AbstractSail.getConnection()}, whose {@code getConnectionInternal} picks it up.</li>
 * <li><b>Change-set models are created in the thread of the write.</b> A branch's change set
 * creates its models through the branch's model factory lazily, when a statement is first
 * approved or deprecated, in the thread doing it. {@code SpillOwner} (package
 * {@code dev.basalt.sail.spill}) is a thread-local set around each isolated write operation, so a
 * model that later spills to disk knows the transaction that must release its file.</li>
 * <li><b>A repository query evaluates its parsed tree itself.</b> {@code SailTupleQuery}, {@code SailGraphQuery} and
 * {@code SailBooleanQuery}'s {@code evaluate} pass {@code getParsedQuery().getTupleExpr()}, that very object, to
 * {@code SailConnection.evaluate}; {@code BasaltRepository}'s queries put their tree under a {@code ShapedQuery}
 * root (package {@code dev.basalt.sail.query}) for the call, and {@link QueryRouter} takes what the front
 * door prepared from it. Otherwise nothing is reused: {@code OptimizedShapesTest} (module {@code sail}, package
 * {@code query}) counts the reuse and fails.</li>
 * <li><b>{@code SailSourceConnection.evaluateInternal} evaluates what the strategy's {@code optimize} returns</b>, so
 * Basalt's strategy may return a tree instantiated from a shape's optimized template in place of the one it was
 * given. Not checked by a test: if RDF4J evaluated its own tree instead, reused queries would run unoptimized on
 * RDF4J's evaluator, with the same answers.</li>
 * <li><b>A connection's evaluation mode.</b> {@code SailSourceConnection} keeps the mode its strategies get in a
 * private field: the store's default, set by {@code setTransactionSettings} to the mode named there (else the
 * default), and back to the default by {@code commitInternal} and {@code rollbackInternal}. A kept plan run
 * without RDF4J's strategy ({@link QueryRouter}) is looked up by the mode {@link BasaltStoreConnection}
 * keeps the same way; {@code Rdf4jInternalsTest} compares the two after each of these calls.</li>
 * </ol>
 *
 * <p>Thread-safe: stateless; the branch constructor is resolved once when the class is initialized.
 */
final class Rdf4jInternals {
    /** The RDF4J version these dependencies were checked against. */
    static final String VERSION = "5.0.3";
    static final String BRANCH_CLASS = "org.eclipse.rdf4j.sail.base.SailSourceBranch";
    private static final Constructor<?> BRANCH = branchConstructor();

    private Rdf4jInternals() {
    }

    /** Dependency 1: the branch constructor, or an error naming the RDF4J version Basalt needs. */
    static Constructor<?> branchConstructor() {
        try {
            Constructor<?> c = Class.forName(BRANCH_CLASS, true, SailSource.class.getClassLoader())
                    .getConstructor(SailSource.class, ModelFactory.class, boolean.class);
            c.setAccessible(true);
            return c;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("Basalt needs " + BRANCH_CLASS + "(SailSource, ModelFactory, boolean) "
                    + "of rdf4j-sail-base " + VERSION + "; check the RDF4J version on the class path (" + e + ")");
        }
    }

    /**
     * A new RDF4J transaction branch over {@code backing}, without auto-flush, whose change sets are
     * created by {@code models}: it keeps a connection's pending changes, gives it SNAPSHOT and
     * SERIALIZABLE semantics and writes them into {@code backing} only when flushed.
     */
    static SailSource fork(SailSource backing, ModelFactory models) {
        try {
            return (SailSource) BRANCH.newInstance(backing, models, false);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new SailException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new SailException("cannot create a transaction branch: " + e, e);
        }
    }
}
