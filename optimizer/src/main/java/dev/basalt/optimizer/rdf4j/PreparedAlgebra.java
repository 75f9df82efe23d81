package dev.basalt.optimizer.rdf4j;

import java.util.function.Consumer;

import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;

/**
 * The RDF4J part of one query's optimization, possibly done once for every query of its shape: the optimizers
 * of {@link BasaltEvaluationStrategy}'s pipeline that run before Basalt's step read nothing but the algebra,
 * the query's bindings and dataset and the evaluation mode (no statistics, no data), so their result for a
 * query of a known shape can be a stored result for that shape with the query's constants put in, where that is
 * provably the same tree. Basalt's step and what follows it (plan compilation with cardinalities, RDF4J's join
 * ordering) run for every evaluation.
 *
 * <p>A query object that knows its shape offers itself for the evaluation of its own algebra ({@link #offer});
 * the store's connection claims it ({@link #claim}) for exactly that tree, in the same thread, and hands it to
 * the strategy. Implementations are used by one evaluating thread at a time; the hand-over is per thread.
 */
public interface PreparedAlgebra {
    /**
     * {@code query} as the optimizers before Basalt's step leave it: {@code rdf4jSteps} applied to it, or an
     * equal tree made from what an earlier query of the same shape, bindings, dataset and mode gave.
     */
    QueryRoot optimized(QueryRoot query, Dataset dataset, BindingSet bindings, QueryEvaluationMode mode,
            Consumer<QueryRoot> rdf4jSteps);

    /**
     * The query's shape as {@link #optimized} would reuse it for these bindings, dataset and mode: the
     * optimized template with sentinels in place of the constants, and this query's value for each; null when
     * the shape has no such template (yet). Lets a compiled plan of the shape be reused ({@link ShapePlans}).
     */
    default Shape shape(Dataset dataset, BindingSet bindings, QueryEvaluationMode mode) {
        return null;
    }

    /** An optimized query shape and one query's constants for it. */
    interface Shape {
        /** Identifies the optimized template: equal for every query of the shape, bindings, dataset and mode. */
        Object key();

        /** The optimized template; shared, never to be changed (clone it). */
        QueryRoot template();

        /** This query's value for {@code sentinel}, a sentinel of {@link #template}, or null if it is none. */
        Value valueOf(Value sentinel);

        /** Called when the evaluation runs a plan made from the template, in place of {@link #optimized}. */
        void taken();
    }

    /** A hand-over in progress; closing it withdraws an offer nobody claimed. */
    interface Offer extends AutoCloseable {
        @Override
        void close();
    }

    /** Offers {@code prepared} to the evaluation of {@code expr} (that very object) in this thread. */
    static Offer offer(TupleExpr expr, PreparedAlgebra prepared) {
        Handover.PENDING.set(new Handover(expr, prepared));
        return Handover.PENDING::remove;
    }

    /** What was offered for {@code expr} (that very object) in this thread, or null; an offer is claimed once. */
    static PreparedAlgebra claim(TupleExpr expr) {
        Handover pending = Handover.PENDING.get();
        if (pending == null || pending.expr != expr) {
            return null;
        }
        Handover.PENDING.remove();
        return pending.prepared;
    }

    /** The offer of the query evaluation under way in a thread. */
    final class Handover {
        private static final ThreadLocal<Handover> PENDING = new ThreadLocal<>();
        private final TupleExpr expr;
        private final PreparedAlgebra prepared;

        private Handover(TupleExpr expr, PreparedAlgebra prepared) {
            this.expr = expr;
            this.prepared = prepared;
        }
    }
}
