package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.query.algebra.ValueExpr;

/**
 * A one-line rendering of an RDF4J value expression for EXPLAIN and error messages, cut at 120 characters; its cost
 * is bounded by that length, whatever the expression's depth ({@link TreeText#oneLine}). Stateless; any thread may
 * call it.
 */
final class ExprText {
    private ExprText() {
    }

    static String of(ValueExpr e) {
        return TreeText.oneLine(e, 120);
    }
}
