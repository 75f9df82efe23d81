package dev.basalt.optimizer.plan;

import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.ValueExpr;

/**
 * Evaluates a value expression (a BIND or SELECT expression) on RDF values with RDF4J's own
 * semantics (the evaluation strategy's mode, STRICT or STANDARD). The compiled function returns
 * the value, or null when the expression is in error for those bindings. Sibling of
 * {@link ValueConditions}; the plan compiler uses it for expressions it cannot compute on ids.
 */
public interface ValueFunctions {
    Function<BindingSet, Value> compile(ValueExpr expr);
}
