package dev.basalt.optimizer.plan;

import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.ValueExpr;

/**
 * Value expressions evaluated with RDF4J's own semantics (the strategy's evaluation mode), for
 * ORDER BY keys and aggregate arguments that are not plain variables. A {@link ValueConditions}
 * given to the {@link PlanCompiler} that also implements this interface enables those; without it
 * they are not compiled.
 * An implementation serves one query evaluation and its compilation, in that query's thread; plans
 * using it are never kept for a query shape.
 */
public interface ValueFunctions extends ValueConditions {
    /** The expression's value on a binding set; null where RDF4J's evaluation raises an error. */
    Function<BindingSet, Value> evaluator(ValueExpr expr);

    /** Whether value comparisons are strict (RDF4J's STRICT evaluation mode); MIN and MAX use it. */
    boolean strictComparison();
}
