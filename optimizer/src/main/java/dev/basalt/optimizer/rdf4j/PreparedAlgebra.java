package dev.basalt.optimizer.rdf4j;

import java.util.function.Consumer;

import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.QueryRoot;

/**
 * The RDF4J part of one query's optimization, possibly done once for every query of its shape: the optimizers
 * of {@link BasaltEvaluationStrategy}'s pipeline that run before Basalt's step read nothing but the algebra,
 * the query's bindings and dataset and the evaluation mode (no statistics, no data), so their result for a
 * query of a known shape can be a stored result for that shape with the query's constants put in, where that is
 * provably the same tree. Basalt's step and what follows it (plan compilation with cardinalities, RDF4J's join
 * ordering) run for every evaluation.
 *
 * <p>The query's front door (the sail's {@code dev.basalt.sail.query.QueryFront}) makes one for a query of a known
 * shape and hands it, with the query's tree, to the store's connection, which gives it to the strategy
 * ({@link BasaltEvaluationStrategy#prepareWith}). Implementations are used by one evaluating thread at a time.
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
            /** The optimized template; shared, never to be changed (clone it). */
        QueryRoot template();

        /** This query's value for {@code sentinel}, a sentinel of {@link #template}, or null if it is none. */
        Value valueOf(Value sentinel);

        /** Called when the evaluation runs a plan made from the template, in place of {@link #optimized}. */
        void taken();

        /**
         * The compiled plans kept for this optimized shape (the same object for every query of the shape,
         * bindings, dataset and mode), or null when plans are not kept.
         */
        ShapePlans plans();
    }
}
