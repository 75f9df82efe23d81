package dev.basalt.optimizer.rdf4j;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
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
 * groups) before evaluation, whichever evaluator then runs the query, so they never match data. All
 * hints have query scope:
 *
 * <pre>
 * [] &lt;http://basalt.dev/hint#optimizer&gt; "runtime" .   # order every join group by sampling
 * [] &lt;http://basalt.dev/hint#optimizer&gt; "static" .    # never order at runtime
 * [] &lt;http://basalt.dev/hint#joins&gt; "nested-loop" .   # join patterns by index lookups only
 * [] &lt;http://basalt.dev/hint#joins&gt; "hash-merge" .    # merge or hash joins wherever possible
 * [] &lt;http://basalt.dev/hint#joins&gt; "cost" .          # as the cost model chooses (the default)
 * [] &lt;http://basalt.dev/hint#asOfCommit&gt; 42 .         # read commit point 42 (read-as-of)
 * [] &lt;http://basalt.dev/hint#asOfTime&gt; "2026-11-25T16:00:00Z"^^xsd:dateTime .  # newest commit at or before
 * [] &lt;http://basalt.dev/hint#commitPoints&gt; true .     # answer from the list of readable commit points
 * </pre>
 *
 * The subject is ignored. Any other predicate in the namespace, an object of the wrong kind, two
 * hints of one kind that disagree, or both {@code asOfCommit} and {@code asOfTime} make the query
 * fail with a message naming the hint. The store decides what {@link Stripped#asOf()} and
 * {@link Stripped#commitPoints()} mean; this class only finds them.
 * Stateless; any thread may call it.
 */
public final class QueryHints {
    public static final String NAMESPACE = "http://basalt.dev/hint#";
    public static final IRI OPTIMIZER = SimpleValueFactory.getInstance().createIRI(NAMESPACE, "optimizer");
    public static final IRI JOINS = SimpleValueFactory.getInstance().createIRI(NAMESPACE, "joins");
    public static final IRI AS_OF_COMMIT = SimpleValueFactory.getInstance().createIRI(NAMESPACE, "asOfCommit");
    public static final IRI AS_OF_TIME = SimpleValueFactory.getInstance().createIRI(NAMESPACE, "asOfTime");
    public static final IRI COMMIT_POINTS = SimpleValueFactory.getInstance().createIRI(NAMESPACE, "commitPoints");

    /**
     * The query (hints replaced) and what the hints ask for: the join ordering mode and the join
     * choice (null if none), the past commit point to read (null for the newest) and whether the
     * query reads the list of commit points instead of the data.
     */
    public record Stripped(TupleExpr expr, OrderingPolicy.Mode mode, OrderingPolicy.Joins joins, AsOf asOf,
            boolean commitPoints) {
        /** The default ordering policy with the hinted mode and join choice. */
        public OrderingPolicy policy() {
            return policy(OrderingPolicy.DEFAULT);
        }

        /** A store's ordering policy ({@code base}) with the hinted mode and join choice. */
        public OrderingPolicy policy(OrderingPolicy base) {
            OrderingPolicy p = mode == null ? base : base.withMode(mode);
            return joins == null ? p : p.withJoins(joins);
        }

        /** True if no hint was given. */
        public boolean none() {
            return mode == null && joins == null && asOf == null && !commitPoints;
        }
    }

    /** A past commit point asked for by counter ({@code time == null}) or by time ({@code commit == -1}). */
    public record AsOf(long commit, Instant time) implements java.io.Serializable {
        public static AsOf commit(long counter) {
            return new AsOf(counter, null);
        }

        public static AsOf time(Instant time) {
            return new AsOf(-1, time);
        }

        @Override
        public String toString() {
            return time == null ? "commit point " + commit : "time " + time;
        }
    }

    /**
     * Where a hint pattern stood: the empty group (it joins with anything unchanged), remembering the
     * hint so that a later evaluation of the same algebra (a prepared query, RDF4J's EXPLAIN, which
     * explains the tree it evaluated) still sees it. {@code value} is an ordering mode, an
     * {@link AsOf} or {@link Boolean#TRUE} for {@code commitPoints}.
     */
    public static final class Hint extends SingletonSet {
        private final IRI name;
        private final Object value;

        Hint(IRI name, Object value) {
            this.name = name;
            this.value = value;
        }

        /** The ordering mode of an {@code optimizer} hint, null for other hints. */
        public OrderingPolicy.Mode mode() {
            return value instanceof OrderingPolicy.Mode m ? m : null;
        }

        @Override
        public String getSignature() {
            return "BasaltHint (" + name.getLocalName() + " " + text(value) + ")";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Hint h && h.name.equals(name) && h.value.equals(value);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, value);
        }

        @Override
        public Hint clone() {
            return (Hint) super.clone();
        }
    }

    private QueryHints() {
    }

    /** Replaces the hint patterns of {@code expr} in place by {@link Hint} nodes and returns what they ask for. */
    public static Stripped strip(TupleExpr expr) {
        OrderingPolicy.Mode mode = null;
        OrderingPolicy.Joins joins = null;
        AsOf asOf = null;
        boolean commitPoints = false;
        for (TupleExpr found : find(expr)) {
            Hint hint = found instanceof Hint h ? h : parse((StatementPattern) found);
            if (hint != found) {
                found.replaceWith(hint);
            }
            if (hint.value instanceof OrderingPolicy.Mode m) {
                mode = agree(hint.name, mode, m);
            } else if (hint.value instanceof OrderingPolicy.Joins j) {
                joins = agree(hint.name, joins, j);
            } else if (hint.value instanceof AsOf a) {
                if (asOf != null && !asOf.equals(a)) {
                    throw new QueryEvaluationException("conflicting Basalt query hints: the query asks to read both "
                            + asOf + " and " + a + "; give one <" + AS_OF_COMMIT + "> or one <" + AS_OF_TIME + ">");
                }
                asOf = a;
            } else {
                commitPoints = true;
            }
        }
        if (commitPoints && asOf != null) {
            throw new QueryEvaluationException("Basalt query hint <" + COMMIT_POINTS + "> lists the readable commit points"
                    + " and cannot be combined with <" + AS_OF_COMMIT + "> or <" + AS_OF_TIME + ">");
        }
        return new Stripped(expr, mode, joins, asOf, commitPoints);
    }

    private static <T> T agree(IRI name, T before, T now) {
        if (before != null && !before.equals(now)) {
            throw new QueryEvaluationException("conflicting Basalt query hints: <" + name + "> is both " + text(before)
                    + " and " + text(now));
        }
        return now;
    }

    private static String text(Object value) {
        if (value instanceof OrderingPolicy.Mode m) {
            return "\"" + m.name().toLowerCase(Locale.ROOT) + "\"";
        }
        if (value instanceof OrderingPolicy.Joins j) {
            return "\"" + j.name().toLowerCase(Locale.ROOT).replace('_', '-') + "\"";
        }
        return String.valueOf(value);
    }

    private static Hint parse(StatementPattern sp) {
        IRI p = (IRI) sp.getPredicateVar().getValue();
        Value o = sp.getObjectVar().getValue();
        if (OPTIMIZER.equals(p)) {
            return new Hint(p, optimizerMode(o));
        } else if (JOINS.equals(p)) {
            return new Hint(p, joins(o));
        } else if (AS_OF_COMMIT.equals(p)) {
            return new Hint(p, AsOf.commit(commitCounter(o)));
        } else if (AS_OF_TIME.equals(p)) {
            return new Hint(p, AsOf.time(time(o)));
        } else if (COMMIT_POINTS.equals(p)) {
            if (o == null || !o.isLiteral() || !"true".equals(o.stringValue())) {
                throw new QueryEvaluationException("Basalt query hint <" + COMMIT_POINTS + "> takes true, not "
                        + (o == null ? "a variable" : o.toString()));
            }
            return new Hint(p, Boolean.TRUE);
        }
        throw new QueryEvaluationException("unknown Basalt query hint <" + p + ">; the hints are <" + OPTIMIZER + ">, <" + JOINS + ">, <"
                + AS_OF_COMMIT + ">, <" + AS_OF_TIME + "> and <" + COMMIT_POINTS + "> (see docs/optimizer.md)");
    }

    private static OrderingPolicy.Mode optimizerMode(Value o) {
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

    private static OrderingPolicy.Joins joins(Value o) {
        String s = o == null || !o.isLiteral() ? "" : o.stringValue();
        for (OrderingPolicy.Joins j : OrderingPolicy.Joins.values()) {
            if (text(j).equals("\"" + s + "\"")) {
                return j;
            }
        }
        throw new QueryEvaluationException("Basalt query hint <" + JOINS
                + "> takes \"cost\", \"nested-loop\" or \"hash-merge\", not " + (o == null ? "a variable" : o.toString()));
    }

    private static long commitCounter(Value o) {
        if (o instanceof Literal l) {
            try {
                long n = Long.parseLong(l.getLabel().trim());
                if (n >= 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new QueryEvaluationException("Basalt query hint <" + AS_OF_COMMIT
                + "> takes a commit counter (a non-negative integer such as 42), not "
                + (o == null ? "a variable" : o.toString()));
    }

    private static Instant time(Value o) {
        if (o instanceof Literal l) {
            try {
                return OffsetDateTime.parse(l.getLabel().trim()).toInstant();
            } catch (DateTimeParseException e) {
                // reported below
            }
        }
        throw new QueryEvaluationException("Basalt query hint <" + AS_OF_TIME
                + "> takes a time with its zone such as \"2026-11-25T16:00:00Z\"^^xsd:dateTime, not "
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
