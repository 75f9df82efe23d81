package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.SingletonSet;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.plan.OrderingPolicy;

/**
 * Query hints: triple patterns with a predicate in the reserved namespace {@value #NAMESPACE}, which
 * SPARQL parsers accept as ordinary patterns. Basalt replaces them by {@link Hint} nodes (empty
 * groups) before evaluation, whichever evaluator then runs the query, so they never match data. One hint exists, with query scope:
 *
 * <pre>
 * [] &lt;http://basalt.dev/hint#optimizer&gt; "runtime" .   # order every join group by sampling
 * [] &lt;http://basalt.dev/hint#optimizer&gt; "static" .    # never order at runtime
 * </pre>
 *
 * The subject is ignored. Any other predicate in the namespace, another object, or two hints that
 * disagree make the query fail with a message naming the hint.
 */
public final class QueryHints {
    public static final String NAMESPACE = "http://basalt.dev/hint#";
    public static final IRI OPTIMIZER = SimpleValueFactory.getInstance().createIRI(NAMESPACE, "optimizer");

    /** The query (hints replaced) and the mode the hints ask for, null if there are none. */
    public record Stripped(TupleExpr expr, OrderingPolicy.Mode mode) {
    }

    /**
     * Where a hint pattern stood: the empty group (it joins with anything unchanged), remembering the
     * hint so that a later evaluation of the same algebra (a prepared query, RDF4J's EXPLAIN, which
     * explains the tree it evaluated) still sees it.
     */
    public static final class Hint extends SingletonSet {
        private final OrderingPolicy.Mode mode;

        Hint(OrderingPolicy.Mode mode) {
            this.mode = mode;
        }

        public OrderingPolicy.Mode mode() {
            return mode;
        }

        @Override
        public String getSignature() {
            return "BasaltHint (" + mode.name().toLowerCase() + ")";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Hint h && h.mode == mode;
        }

        @Override
        public int hashCode() {
            return mode.hashCode();
        }

        @Override
        public Hint clone() {
            return (Hint) super.clone();
        }
    }

    private QueryHints() {
    }

    /** Replaces the hint patterns of {@code expr} in place by {@link Hint} nodes and returns their mode. */
    public static Stripped strip(TupleExpr expr) {
        OrderingPolicy.Mode mode = null;
        for (TupleExpr hint : find(expr)) {
            OrderingPolicy.Mode m;
            if (hint instanceof Hint h) {
                m = h.mode();
            } else {
                m = mode((StatementPattern) hint);
                hint.replaceWith(new Hint(m));
            }
            if (mode != null && mode != m) {
                throw new QueryEvaluationException("conflicting Basalt query hints: <" + OPTIMIZER + "> is both \""
                        + mode.name().toLowerCase() + "\" and \"" + m.name().toLowerCase() + "\"");
            }
            mode = m;
        }
        return new Stripped(expr, mode);
    }

    private static OrderingPolicy.Mode mode(StatementPattern sp) {
        IRI p = (IRI) sp.getPredicateVar().getValue();
        if (!OPTIMIZER.equals(p)) {
            throw new QueryEvaluationException("unknown Basalt query hint <" + p + ">; the only hint is <" + OPTIMIZER
                    + "> with \"runtime\" or \"static\"");
        }
        Value o = sp.getObjectVar().getValue();
        String s = o == null || !o.isLiteral() ? null : o.stringValue();
        if ("runtime".equals(s)) {
            return OrderingPolicy.Mode.RUNTIME;
        }
        if ("static".equals(s)) {
            return OrderingPolicy.Mode.STATIC;
        }
        throw new QueryEvaluationException("Basalt query hint <" + OPTIMIZER + "> takes \"runtime\" or \"static\", not "
                + (o == null ? "a variable" : o.toString()));
    }

    private static List<TupleExpr> find(TupleExpr expr) {
        List<TupleExpr> out = new ArrayList<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(StatementPattern sp) {
                Var p = sp.getPredicateVar();
                if (p.hasValue() && p.getValue().isIRI() && p.getValue().stringValue().startsWith(NAMESPACE)) {
                    out.add(sp);
                }
            }

            @Override
            public void meet(SingletonSet node) {
                if (node instanceof Hint) {
                    out.add(node);
                }
            }
        });
        return out;
    }
}
