package dev.basalt.sail;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.rdf4j.PreparedAlgebra;
import dev.basalt.optimizer.rdf4j.QueryFallbacks;
import dev.basalt.optimizer.rdf4j.QueryHints;
import dev.basalt.sail.errors.FailureStatus;
import dev.basalt.sail.query.NativeQueries;
import dev.basalt.sail.query.PendingTree;
import dev.basalt.sail.query.SessionDataset;
import dev.basalt.sail.query.ShapedQuery;

/**
 * Sends each query of one {@link BasaltStoreConnection} to the evaluator that answers it:
 * <ul>
 * <li>a pending root the repository's query front door made ({@link PendingTree}), evaluated without
 * bindings, runs its shape's kept plan over a leased snapshot and nothing else
 * ({@code NativeQueries.Session#runKept}) when the native engine takes the query and has one for this
 * evaluation: no RDF4J branch, dataset, strategy or optimizer is made for it;
 * <li>any other query has its hints ({@link QueryHints}) removed first, whichever evaluator runs it, so a
 * hint never matches data; a bad hint is the client's error (HTTP 400 through RDF4J Server);
 * <li>a {@code commitPoints} hint evaluates the query over the graph of readable commit points
 * ({@link CommitPointGraph});
 * <li>an as-of hint evaluates it on a read-as-of connection of that commit point ({@link TimeTravel}), closed
 * with the result, unless this connection was opened for that very hint ({@link #servesHint}); a read-as-of
 * connection opened through the Java API refuses such a hint;
 * <li>the rest goes through RDF4J's {@code evaluateInternal} on the connection, with the query's native
 * session ({@link NativeQueries}) riding on its dataset argument ({@link SessionDataset}) so that the
 * connection's {@code getEvaluationStrategy} hands RDF4J Basalt's strategy; RDF4J's evaluator alone where the
 * native engine may not run the query.
 * </ul>
 * An explanation other than {@code Unoptimized} takes the same route, with what Basalt's engine left to
 * RDF4J's evaluator recorded and written into it ({@link QueryFallbacks}).
 *
 * <p>Thread rules: one per connection, called by whichever thread uses the connection, as RDF4J's
 * connection is. The fallback record of an EXPLAIN under way is held per thread ({@link Rdf4jInternals}
 * dependency 4), since RDF4J computes the explanation in the calling thread; the served hint is set once,
 * when {@link TimeTravel} opens the connection, before its first query.
 */
final class QueryRouter {
    private final BasaltStoreConnection connection;
    private final BasaltStore basalt;
    private final BasaltSailStore backing;
    /** The past commit point a read-as-of connection reads, or null. */
    private final PastSailStore past;
    /** What the EXPLAIN under way in this thread leaves to RDF4J's evaluator. */
    private final ThreadLocal<QueryFallbacks> explaining = new ThreadLocal<>();
    /** The as-of hint this read-as-of connection was opened for, or null. */
    private volatile QueryHints.AsOf servedHint;

    QueryRouter(BasaltStoreConnection connection, BasaltStore basalt, BasaltSailStore backing, PastSailStore past) {
        this.connection = connection;
        this.basalt = basalt;
        this.backing = backing;
        this.past = past;
    }

    /** Marks a read-as-of connection opened for a query's as-of hint, which it then answers itself. */
    void servesHint(QueryHints.AsOf asOf) {
        this.servedHint = asOf;
    }

    /** The query's result from the evaluator that answers it; without the store's time limit. */
    CloseableIteration<? extends BindingSet> evaluate(TupleExpr tupleExpr, Dataset dataset, BindingSet bindings,
            boolean includeInferred) throws SailException {
        // what the repository's query front door prepared travels with the tree (ShapedQuery)
        PreparedAlgebra prepared = ShapedQuery.preparedFor(tupleExpr);
        tupleExpr = ShapedQuery.tree(tupleExpr);
        if (PendingTree.isPending(tupleExpr)) {
            // the front door makes no pending tree for a query with a hint: nothing to strip
            return evaluateNatively(tupleExpr, prepared, true, dataset, bindings, includeInferred,
                    basalt.getOrderingPolicy());
        }
        // hints are removed whichever evaluator runs the query, so they never match data
        QueryHints.Stripped hinted = stripHints(tupleExpr);
        tupleExpr = hinted.expr();
        if (hinted.commitPoints()) {
            return CommitPointGraph.evaluate(basalt, tupleExpr, dataset, bindings, basalt.getFederatedServiceResolver());
        }
        if (hinted.asOf() != null && !readsAsOf(hinted.asOf())) {
            BasaltStoreConnection reading = TimeTravel.open(basalt, hinted.asOf());
            try {
                return TimeTravel.closingWith(reading.evaluate(tupleExpr, dataset, bindings, includeInferred), reading);
            } catch (RuntimeException | Error e) {
                reading.close();
                throw e;
            }
        }
        // a hint's pattern is gone from the tree, so the tree is no longer its shape's
        return evaluateNatively(tupleExpr, hinted.none() ? prepared : null, false, dataset, bindings, includeInferred,
                hinted.policy(basalt.getOrderingPolicy()));
    }

    /**
     * The query on Basalt's engine where it may take part: a pending tree ({@code pending}) without bindings by its
     * shape's kept plan alone if there is one for this evaluation, else through RDF4J's {@code evaluateInternal}
     * with Basalt's strategy (or RDF4J's alone where the native engine may not run it).
     */
    private CloseableIteration<? extends BindingSet> evaluateNatively(TupleExpr tupleExpr, PreparedAlgebra prepared,
            boolean pending, Dataset dataset, BindingSet bindings, boolean includeInferred, OrderingPolicy ordering) {
        NativeQueries.Session session = basalt.nativeQueries().open(basalt, past != null ? past.reads() : backing.latest(),
                past != null, includeInferred, connection.isActive(), connection.inSerializableTransaction(), ordering,
                explaining.get());
        if (session == null) {
            PendingTree.make(tupleExpr); // RDF4J's evaluation reads the tree
            return connection.evaluateWithRdf4j(tupleExpr, dataset, bindings, includeInferred);
        }
        try {
            if (pending && (bindings == null || bindings.isEmpty())) {
                // the front door's one hop to a kept plan: none of RDF4J's evaluation is set up for it
                CloseableIteration<? extends BindingSet> kept = session.runKept(prepared, dataset,
                        connection.evaluationMode());
                if (kept != null) {
                    return kept;
                }
            }
            session.prepareWith(prepared);
            // the session rides on the dataset argument to the connection's getEvaluationStrategy
            return session.attach(connection.evaluateWithRdf4j(tupleExpr, new SessionDataset(dataset, session),
                    bindings, includeInferred));
        } catch (RuntimeException | Error e) {
            session.close();
            throw e;
        }
    }

    /**
     * RDF4J's explanation, with what Basalt's engine left to RDF4J's evaluator written into it:
     * each such node says so and why, and the top node lists the native plans and the fallbacks
     * ({@link QueryFallbacks}). An {@code Unoptimized} explanation evaluates nothing and is RDF4J's.
     */
    Explanation explain(Explanation.Level level, TupleExpr tupleExpr, Dataset dataset, BindingSet bindings,
            boolean includeInferred, int timeoutSeconds) {
        if (level == Explanation.Level.Unoptimized || !basalt.nativeQueries().enabled()) {
            return connection.explainWithRdf4j(level, tupleExpr, dataset, bindings, includeInferred, timeoutSeconds);
        }
        QueryHints.Stripped hinted = stripHints(tupleExpr);
        if (hinted.asOf() != null && !readsAsOf(hinted.asOf())) {
            try (BasaltStoreConnection reading = TimeTravel.open(basalt, hinted.asOf())) {
                return reading.explain(level, hinted.expr(), dataset, bindings, includeInferred, timeoutSeconds);
            }
        }
        QueryFallbacks record = new QueryFallbacks();
        explaining.set(record);
        try {
            return record.annotate(
                    connection.explainWithRdf4j(level, tupleExpr, dataset, bindings, includeInferred, timeoutSeconds),
                    tupleExpr);
        } finally {
            explaining.remove();
        }
    }

    /** The query's hints ({@link QueryHints}); a bad hint is the client's error (HTTP 400 through RDF4J Server). */
    private static QueryHints.Stripped stripHints(TupleExpr tupleExpr) {
        try {
            return QueryHints.strip(tupleExpr);
        } catch (QueryEvaluationException e) {
            throw FailureStatus.badRequest(e.getMessage());
        }
    }

    /**
     * True if this connection answers a query with the as-of hint {@code asOf} itself: it was opened
     * for it. A read-as-of connection opened through the Java API refuses such a hint, since it
     * already reads a fixed commit point.
     */
    private boolean readsAsOf(QueryHints.AsOf asOf) {
        if (past == null) {
            return false;
        }
        if (asOf.equals(servedHint)) {
            return true;
        }
        throw FailureStatus.badRequest("this connection reads commit point " + past.view().commitCounter()
                + " of a Basalt store as of the past and cannot read " + asOf + " (a query hint)");
    }
}
