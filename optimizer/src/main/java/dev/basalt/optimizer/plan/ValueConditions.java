package dev.basalt.optimizer.plan;

import java.util.function.Predicate;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.ValueExpr;

/**
 * Evaluates a condition on RDF values with RDF4J's own semantics (the evaluation strategy's mode,
 * STRICT or STANDARD): true if the effective boolean value is true, false if false or an error.
 * The plan compiler uses it for conditions it cannot decide on ids.
 * An implementation serves one query evaluation (the strategy that made it) and its compilation, in
 * that query's thread.
 */
public interface ValueConditions {
    Predicate<BindingSet> compile(ValueExpr condition);
}
