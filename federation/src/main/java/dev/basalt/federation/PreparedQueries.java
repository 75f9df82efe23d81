package dev.basalt.federation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.query.QueryFront;

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
 * <p>A text not kept is still not parsed when an earlier query had its shape (the same tokens but for its
 * constants): the store's query front door ({@link QueryFront#parse}) puts this text's constants into the
 * shape's template, which it checked against a real parse when it made it. Up to {@code capacity} shapes
 * are kept. The plan is then made from the parse as for any text.
 *
 * <p>A text not kept whose shape the front has planned before is not planned again either: the shape's plan,
 * made once with sentinels for its constants, is filled with the text's constants ({@link ShapePlanCache}), and
 * the parse tree of such a SELECT is never made (its root stays pending, as the front door gives it).
 *
 * <p>A plan depends on what the front learned from the members' data (the predicates whose objects are
 * all replicated subjects), so {@link #clear()} forgets every plan when that is learned again.
 *
 * <p>Thread-safe: the map is guarded by this object's monitor (the shapes are the thread-safe
 * {@link QueryFront}'s); parsing and planning run outside it, so
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
    private final QueryFront shapes;
    /** Plans per query shape, or null: every text not kept is planned in full. */
    private final ShapePlanCache shapePlans;
    private long hits;
    private long misses;

    /**
     * @param planner  the front's plan of a parsed query, or null when FedX answers it; an exception means
     *                 the same as null
     * @param capacity the most query texts kept
     */
    PreparedQueries(Function<ParsedQuery, TupleExpr> planner, int capacity) {
        this(planner, null, capacity);
    }

    /**
     * @param planner   the front's plan of a parsed query, or null when FedX answers it; an exception means
     *                  the same as null
     * @param decidesOn the values the planner treats apart ({@link StarPushdown#decidesOn}), or null: no plans
     *                  are kept per shape ({@link ShapePlanCache}), only per text
     * @param capacity  the most query texts kept, and the most shape plans
     */
    PreparedQueries(Function<ParsedQuery, TupleExpr> planner, java.util.function.Predicate<org.eclipse.rdf4j.model.Value> decidesOn,
            int capacity) {
        this.planner = planner;
        this.shapePlans = decidesOn == null ? null : new ShapePlanCache(planner, decidesOn, capacity);
        this.shapes = new QueryFront(capacity, false);
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
        QueryFront.Prepared front = shapes.prepare(QueryLanguage.SPARQL, text, null, shapePlans != null);
        ParsedQuery parsed = front.query();
        ShapePlanCache.Planned shaped = shapePlans == null ? null : shapePlans.plan(parsed, front.algebra());
        TupleExpr plan;
        if (shaped != null) {
            plan = shaped.plan();
        } else {
            try {
                plan = planner.apply(parsed);
            } catch (RuntimeException e) {
                LOG.debug("the front cannot plan the query itself, FedX answers it: {}", e.toString());
                plan = null;
            }
        }
        Prepared prepared = new Prepared(parsed, plan);
        if (text.length() <= LONGEST) {
            synchronized (this) {
                recent.put(text, prepared);
            }
        }
        return prepared;
    }

    /** Queries parsed by reusing an earlier parse of their shape so far. */
    long shapeHits() {
        return shapes.getInstantiated();
    }

    /** Queries whose plan was their shape's kept plan with their constants ({@link ShapePlanCache}). */
    long shapePlanHits() {
        return shapePlans == null ? 0 : shapePlans.filled();
    }

    /** Forgets every plan (what the front learned from the members' data changed). */
    void clear() {
        synchronized (this) {
            recent.clear();
        }
        if (shapePlans != null) {
            shapePlans.clear();
        }
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
