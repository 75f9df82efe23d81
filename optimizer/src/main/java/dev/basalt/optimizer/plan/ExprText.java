package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.query.algebra.ValueExpr;

/**
 * A one-line rendering of an RDF4J value expression for EXPLAIN. Stateless; any thread may call it.
 */
final class ExprText {
    private ExprText() {
    }

    static String of(ValueExpr e) {
        String s = e.toString().replaceAll("\\s+", " ").trim();
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}
