package dev.basalt.federation;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;
import org.eclipse.rdf4j.query.parser.ParsedBooleanQuery;
import org.eclipse.rdf4j.query.parser.ParsedDescribeQuery;
import org.eclipse.rdf4j.query.parser.ParsedGraphQuery;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.ParsedTupleQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front's parse and plan of each query text it was sent lately, reused when the same text comes
 * again: clients repeat their queries (an application's fixed queries, a benchmark's query forms with
 * their parameter values), and parsing the text and rewriting it into stars cost the front more than
 * evaluating most star queries does. A text is parsed and planned once ({@link DirectEvaluation#plan}, or
 * no plan when FedX answers it); each use gets its own copy of the plan, so a query's evaluation never
 * sees another's. The parsed query is shared: the front only reads it (its query form and projection).
 * At most {@code capacity} texts are kept, the least recently used leaving first; texts longer than
 * {@value #LONGEST} characters are not kept. A malformed text is not kept either: its error comes again.
 *
 * <p>A text not kept is still not parsed when an earlier query had its shape ({@link QueryShape}: the
 * same text but for its constants, which repeat alike): the earlier parse, with this text's constants put
 * in its place, is this text's parse. The first time a shape comes again, the text is parsed as well
 * and the two compared; a shape whose two parses differ is parsed every time from then on. Up to
 * {@code capacity} shapes are kept. The plan is then made from the parse as for any text.
 *
 * <p>A plan depends on what the front learned from the members' data (the predicates whose objects are
 * all replicated subjects), so {@link #clear()} forgets every plan when that is learned again.
 *
 * <p>Thread-safe: the map is guarded by this object's monitor; parsing and planning run outside it, so
 * two threads sent a new text at once may both plan it (the later one's entry is kept).
 */
final class PreparedQueries {
    static final int LONGEST = 16_384;
    private static final Logger LOG = LoggerFactory.getLogger(PreparedQueries.class);

    /** A query text parsed, and the front's plan of it (null: FedX answers it). */
    record Prepared(ParsedQuery parsed, TupleExpr plan) {
        /** This query's own copy of the plan (null when FedX answers the query). */
        TupleExpr planCopy() {
            return plan == null ? null : plan.clone();
        }
    }

    private final Function<ParsedQuery, TupleExpr> planner;
    private final Map<String, Prepared> recent;
    private final Map<String, Shape> shapes;
    private long hits;
    private long shapeHits;
    private long misses;

    /**
     * @param planner  the front's plan of a parsed query, or null when FedX answers it; an exception means
     *                 the same as null
     * @param capacity the most query texts kept
     */
    PreparedQueries(Function<ParsedQuery, TupleExpr> planner, int capacity) {
        this.planner = planner;
        this.shapes = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Shape> eldest) {
                return size() > capacity;
            }
        };
        this.recent = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Prepared> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The parse and plan of {@code text}; a {@link MalformedQueryException} when it is not SPARQL. */
    Prepared prepare(String text) {
        synchronized (this) {
            Prepared known = recent.get(text);
            if (known != null) {
                hits++;
                return known;
            }
            misses++;
        }
        ParsedQuery parsed = parseOrReuse(text);
        TupleExpr plan;
        try {
            plan = planner.apply(parsed);
        } catch (RuntimeException e) {
            LOG.debug("the front cannot plan the query itself, FedX answers it: {}", e.toString());
            plan = null;
        }
        Prepared prepared = new Prepared(parsed, plan);
        if (text.length() <= LONGEST) {
            synchronized (this) {
                recent.put(text, prepared);
            }
        }
        return prepared;
    }

    /**
     * The parse of {@code text}: the earlier parse of a query of the same shape ({@link QueryShape}) with this
     * text's constants put in, once the first such reuse of the shape gave exactly what parsing did;
     * otherwise parsed.
     */
    private ParsedQuery parseOrReuse(String text) {
        QueryShape shape = text.length() <= LONGEST ? QueryShape.of(text) : null;
        Shape known = null;
        if (shape != null) {
            synchronized (this) {
                known = shapes.get(shape.key());
            }
        }
        Map<Value, Value> swap = known == null || known.refused ? null : swap(known.constants, shape.constants());
        if (swap != null && known.verified) {
            synchronized (this) {
                shapeHits++;
            }
            return substitute(known.parsed, swap, text);
        }
        ParsedQuery parsed = QueryParserUtil.parseQuery(QueryLanguage.SPARQL, text, null);
        if (shape == null || parsed.getDataset() != null) {
            return parsed;
        }
        synchronized (this) {
            if (known == null) {
                shapes.put(shape.key(), new Shape(parsed, shape.constants()));
            } else if (swap != null && !known.verified && !known.refused) {
                ParsedQuery reused = substitute(known.parsed, swap, text);
                if (reused != null && reused.getTupleExpr().equals(parsed.getTupleExpr())) {
                    known.verified = true;
                } else {
                    known.refused = true;
                    LOG.debug("queries of one shape parse differently; the shape is parsed each time: {}", text);
                }
            }
        }
        return parsed;
    }

    /** Old constant to new, or null when the two texts do not repeat their constants alike. */
    private static Map<Value, Value> swap(List<Value> old, List<Value> now) {
        if (old.size() != now.size()) {
            return null;
        }
        Map<Value, Value> swap = new HashMap<>();
        Map<Value, Value> back = new HashMap<>();
        for (int i = 0; i < old.size(); i++) {
            Value was = swap.putIfAbsent(old.get(i), now.get(i));
            Value from = back.putIfAbsent(now.get(i), old.get(i));
            if (was != null && !was.equals(now.get(i)) || from != null && !from.equals(old.get(i))) {
                return null;
            }
        }
        return swap;
    }

    /** {@code parsed} with each constant of {@code swap}'s keys replaced by its value, as a parse of {@code text}. */
    private static ParsedQuery substitute(ParsedQuery parsed, Map<Value, Value> swap, String text) {
        TupleExpr expr = parsed.getTupleExpr().clone();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Var var) {
                Value now = var.hasValue() ? swap.get(var.getValue()) : null;
                if (now != null) {
                    var.replaceWith(new Var(var.isAnonymous() && var.isConstant() ? org.eclipse.rdf4j.query.algebra.helpers.TupleExprs.getConstVarName(now)
                            : var.getName(), now, var.isAnonymous(), var.isConstant()));
                }
            }

            @Override
            public void meet(ValueConstant constant) {
                Value now = swap.get(constant.getValue());
                if (now != null) {
                    constant.setValue(now);
                }
            }
        });
        if (parsed instanceof ParsedDescribeQuery describe) {
            return new ParsedDescribeQuery(text, expr, describe.getQueryNamespaces());
        }
        if (parsed instanceof ParsedGraphQuery graph) {
            return new ParsedGraphQuery(text, expr, graph.getQueryNamespaces());
        }
        if (parsed instanceof ParsedBooleanQuery) {
            return new ParsedBooleanQuery(text, expr);
        }
        if (parsed instanceof ParsedTupleQuery) {
            return new ParsedTupleQuery(text, expr);
        }
        return null;
    }

    /** A query shape's first parse and constants; whether reusing it proved right ({@code verified}) or not. */
    private static final class Shape {
        final ParsedQuery parsed;
        final List<Value> constants;
        volatile boolean verified;
        volatile boolean refused;

        Shape(ParsedQuery parsed, List<Value> constants) {
            this.parsed = parsed;
            this.constants = constants;
        }
    }

    /** Queries parsed by reusing an earlier parse of their shape so far. */
    synchronized long shapeHits() {
        return shapeHits;
    }

    /** Forgets every plan (what the front learned from the members' data changed). */
    synchronized void clear() {
        recent.clear();
    }

    /** Texts found prepared so far. */
    synchronized long hits() {
        return hits;
    }

    /** Texts parsed and planned so far. */
    synchronized long misses() {
        return misses;
    }
}
