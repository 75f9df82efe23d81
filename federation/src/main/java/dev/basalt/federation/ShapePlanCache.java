package dev.basalt.federation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.ParsedTupleQuery;

import dev.basalt.optimizer.rdf4j.PreparedAlgebra;

/**
 * The front's plan ({@link DirectEvaluation#plan}) of each query shape, made once with the shape's sentinels in
 * place of its constants and filled with each query's constants: a query of a known shape is then neither
 * rewritten into stars nor its stars' SPARQL written again, and its parse tree is not made (a SELECT's root stays
 * pending, {@code PendingTree}). The shape and its sentinels are the store's query front door's
 * ({@code QueryFront}): the first time a shape's plan is asked for, the front door is asked for its template
 * ({@link PreparedAlgebra#optimized} with no optimizer step), whose tree has one sentinel per constant of the
 * query text, and {@link PreparedAlgebra.Shape#valueOf} gives each query's value for each sentinel.
 *
 * <p>When a sentinel plan is the query's own plan. The planner decides on a constant's value in two ways only:
 * whether constants are equal (a star per subject, repeated patterns) and whether an IRI is one it treats apart
 * ({@link StarPushdown#decidesOn}: {@code rdf:type}, replicated predicates and classes, predicates whose objects
 * are replicated). So a kept plan is made per shape, per pattern of equal constants and per value of each such
 * IRI: the plan is made from the template with equal constants sharing one sentinel and those IRIs put in as
 * they are. It is kept only if filling it with the first query's constants gives exactly the plan the planner
 * makes of that query (the same printed tree and star subqueries, up to the parser's names for anonymous
 * variables); otherwise that key is remembered as not kept and its queries are planned as before. A plan whose
 * stars' SPARQL holds a sentinel where it cannot be told apart from its neighbours is not kept either.
 *
 * <p>Filling a plan: a clone of it with each sentinel replaced ({@link PlanValues}) by the query's value in variables, value
 * constants and VALUES rows (constant variables renamed as the parser names them, with the projections and
 * extensions that name them), and each star's body and member ORDER BY rebuilt from its pieces around the
 * sentinels' SPARQL with the values' SPARQL ({@link StarText}), its constant subject set.
 *
 * <p>At most {@code capacity} plans are kept, the least recently used leaving first; {@link #clear} forgets them
 * all (what the planner reads from the members' data changed).
 *
 * <p>Thread-safe: the map is guarded by this object's monitor; plans are made outside it (two threads may make
 * the same one, the later kept) and never changed once kept; each query fills its own clone.
 */
final class ShapePlanCache {
    private static final QueryEvaluationMode MODE = QueryEvaluationMode.STANDARD;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ShapePlanCache.class);
    /** Marks that the planner failed on the query (its exception comes again when the caller plans it). */
    private static final TupleExpr NOT_PLANNED = new org.eclipse.rdf4j.query.algebra.SingletonSet();
    private static final Pattern ANONYMOUS = Pattern.compile("_anon_\\w+|basalt_v[0-9a-f]+_\\d+");

    /** A star's body and member order as pieces of text around sentinel slots. */
    record StarText(Pieces body, Pieces order) {
    }

    /** Text with sentinels: {@code parts[0] slot[0] parts[1] slot[1] … parts[n]}, a slot an index into the sentinels. */
    record Pieces(String[] parts, int[] slots) {
        String fill(String[] written) {
            if (slots.length == 0) {
                return parts[0];
            }
            StringBuilder text = new StringBuilder(parts[0]);
            for (int i = 0; i < slots.length; i++) {
                text.append(written[slots[i]]).append(parts[i + 1]);
            }
            return text.toString();
        }
    }

    /**
     * A kept plan: the sentinels it holds (in the order of the shape's) and which of them its stars' text holds;
     * a null plan: FedX answers the shape; not {@code planned}: the shape's plan is not kept.
     */
    private record Kept(TupleExpr plan, Value[] sentinels, boolean[] inText, boolean planned) {
        static Kept refused(Value[] sentinels) {
            return new Kept(null, sentinels, null, false);
        }
    }

    /** The result for a query: its filled plan, null when FedX answers it. */
    record Planned(TupleExpr plan) {
    }

    private final Function<ParsedQuery, TupleExpr> planner;
    private final Predicate<Value> decidesOn;
    private final Map<Key, Kept> kept;
    private final Map<QueryRoot, Value[]> sentinelsOf = new IdentityHashMap<>();
    private long filled;
    private long refused;

    /**
     * @param planner   the front's planner ({@link DirectEvaluation#plan}); null or an exception: FedX answers
     * @param decidesOn whether the planner treats a value apart ({@link StarPushdown#decidesOn})
     * @param capacity  the most plans kept
     */
    ShapePlanCache(Function<ParsedQuery, TupleExpr> planner, Predicate<Value> decidesOn, int capacity) {
        this.planner = planner;
        this.decidesOn = decidesOn;
        this.kept = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Kept> eldest) {
                return size() > capacity;
            }
        };
    }

    /** A shape's template (compared by identity) and the key of its constants' equalities and special values. */
    private record Key(QueryRoot template, String constants) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Key k && k.template == template && k.constants.equals(constants);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(template) * 31 + constants.hashCode();
        }
    }

    /**
     * The plan of {@code parsed}, a query of a shape the front door knows ({@code algebra} non-null): from a kept
     * plan when there is one, made and kept otherwise; null when this shape's plan cannot be kept (the caller
     * plans the query itself).
     */
    Planned plan(ParsedQuery parsed, PreparedAlgebra algebra) {
        if (algebra == null || parsed.getDataset() != null) {
            return null;
        }
        PreparedAlgebra.Shape shape = algebra.shape(null, EmptyBindingSet.getInstance(), MODE);
        if (shape == null) {
            TupleExpr tree = parsed.getTupleExpr();
            QueryRoot root = tree instanceof QueryRoot r ? r.clone() : new QueryRoot(tree.clone());
            algebra.optimized(root, null, EmptyBindingSet.getInstance(), MODE, r -> {
            });
            shape = algebra.shape(null, EmptyBindingSet.getInstance(), MODE);
            if (shape == null) {
                return null; // the front door keeps no template of this shape
            }
        }
        QueryRoot template = shape.template();
        Value[] sentinels = sentinels(template, shape);
        Value[] values = new Value[sentinels.length];
        for (int i = 0; i < sentinels.length; i++) {
            values[i] = shape.valueOf(sentinels[i]);
            if (values[i] == null) {
                return null;
            }
        }
        Key key = new Key(template, key(values));
        Kept plan;
        synchronized (this) {
            plan = kept.get(key);
            if (plan != null && plan.planned()) {
                filled++;
            } else if (plan != null) {
                refused++;
            }
        }
        if (plan == null) {
            TupleExpr[] own = new TupleExpr[1];
            plan = make(parsed, template, sentinels, values, own);
            synchronized (this) {
                kept.put(key, plan);
                refused++; // planned in full this time
            }
            return own[0] == NOT_PLANNED ? null : new Planned(own[0]);
        }
        if (!plan.planned()) {
            return null;
        }
        return new Planned(plan.plan() == null ? null : fill(plan, values));
    }

    /** Queries whose plan was a kept plan filled with their constants so far. */
    synchronized long filled() {
        return filled;
    }

    /** Queries of a shape whose plan could not be kept so far (planned in full). */
    synchronized long refused() {
        return refused;
    }

    /** Forgets every kept plan. */
    synchronized void clear() {
        kept.clear();
        sentinelsOf.clear();
    }

    /** The template's sentinels, each once, in the order a visit meets them. */
    private Value[] sentinels(QueryRoot template, PreparedAlgebra.Shape shape) {
        synchronized (this) {
            Value[] known = sentinelsOf.get(template);
            if (known != null) {
                return known;
            }
        }
        List<Value> found = new ArrayList<>();
        PlanValues.eachValue(template, v -> {
            if (shape.valueOf(v) != null && !found.contains(v)) {
                found.add(v);
            }
        });
        Value[] sentinels = found.toArray(Value[]::new);
        synchronized (this) {
            if (sentinelsOf.size() > 4096) {
                sentinelsOf.clear();
            }
            sentinelsOf.put(template, sentinels);
        }
        return sentinels;
    }

    /**
     * What the plan depends on of the constants: per sentinel, the value itself when the planner treats it apart,
     * the first earlier sentinel with an equal value, or nothing.
     */
    private String key(Value[] values) {
        StringBuilder key = new StringBuilder(values.length * 2);
        for (int i = 0; i < values.length; i++) {
            int equal = -1;
            for (int j = 0; j < i && equal < 0; j++) {
                if (values[j].equals(values[i])) {
                    equal = j;
                }
            }
            if (equal >= 0) {
                key.append('=').append(equal).append(';');
            } else if (decidesOn.test(values[i])) {
                key.append('<').append(values[i].stringValue()).append(">;");
            } else {
                key.append('.');
            }
        }
        return key.toString();
    }

    /**
     * Plans the template with equal constants sharing a sentinel and the values the planner decides on put in;
     * kept as planned only if filling it with {@code values} gives the plan of {@code parsed} itself.
     */
    private Kept make(ParsedQuery parsed, QueryRoot template, Value[] sentinels, Value[] values, TupleExpr[] ownPlan) {
        ownPlan[0] = NOT_PLANNED;
        Value[] shared = new Value[sentinels.length];
        Map<Value, Value> inTemplate = new HashMap<>();
        for (int i = 0; i < sentinels.length; i++) {
            Value put = decidesOn.test(values[i]) ? values[i] : sentinels[i];
            for (int j = 0; j < i; j++) {
                if (values[j].equals(values[i])) {
                    put = shared[j];
                    break;
                }
            }
            shared[i] = put;
            inTemplate.put(sentinels[i], put);
        }
        TupleExpr tree = template.clone();
        PlanValues.substitute(tree, inTemplate);
        TupleExpr plan;
        TupleExpr own;
        try {
            own = planner.apply(parsed);
        } catch (RuntimeException e) {
            return Kept.refused(sentinels);
        }
        ownPlan[0] = own;
        try {
            plan = planner.apply(new ParsedTupleQuery(parsed.getSourceString(), tree));
        } catch (RuntimeException e) {
            return Kept.refused(sentinels);
        }
        if (plan == null || own == null) {
            // FedX answers the query: kept when it answers the sentinel plan's query too
            return plan == null && own == null ? new Kept(null, sentinels, null, true) : Kept.refused(sentinels);
        }
        // the sentinels left in the plan are those not replaced; their slots in the stars' text
        List<Value> left = new ArrayList<>();
        for (int i = 0; i < sentinels.length; i++) {
            left.add(shared[i] == sentinels[i] ? sentinels[i] : null);
        }
        boolean[] inText = new boolean[sentinels.length];
        if (!textOfStars(plan, left, inText)) {
            return Kept.refused(sentinels);
        }
        Kept made = new Kept(plan, sentinels, inText, true);
        TupleExpr filledPlan = fill(made, values);
        if (!canonical(filledPlan).equals(canonical(own))) {
            LOG.debug("a shape's plan is not kept: filled with the query's constants it differs from the query's plan");
            return Kept.refused(sentinels);
        }
        return made;
    }

    /** Splits every star's body and member order at the sentinels' SPARQL; false when two could be confused. */
    private static boolean textOfStars(TupleExpr plan, List<Value> sentinels, boolean[] inText) {
        String[] written = new String[sentinels.size()];
        for (int i = 0; i < written.length; i++) {
            try {
                written[i] = sentinels.get(i) == null ? null : SparqlText.value(sentinels.get(i));
            } catch (SparqlText.Unwritable e) {
                return false;
            }
        }
        for (int i = 0; i < written.length; i++) {
            for (int j = 0; j < written.length; j++) {
                if (i != j && written[i] != null && written[j] != null && written[j].contains(written[i])) {
                    return false;
                }
            }
        }
        for (StarGroup star : StarGroup.in(plan)) {
            Pieces body = pieces(star.body(), written);
            Pieces order = pieces(star.memberOrder(), written);
            if (body == null || order == null) {
                return false;
            }
            star.setText(new StarText(body, order));
            for (int slot : body.slots()) {
                inText[slot] = true;
            }
            for (int slot : order.slots()) {
                inText[slot] = true;
            }
        }
        return true;
    }

    /** {@code text} cut at each occurrence of a sentinel's SPARQL, or null when two occurrences overlap. */
    private static Pieces pieces(String text, String[] written) {
        List<String> parts = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        int at = 0;
        while (true) {
            int next = -1;
            int slot = -1;
            for (int i = 0; i < written.length; i++) {
                if (written[i] == null) {
                    continue;
                }
                int found = text.indexOf(written[i], at);
                if (found >= 0 && (next < 0 || found < next)) {
                    next = found;
                    slot = i;
                }
            }
            if (next < 0) {
                break;
            }
            parts.add(text.substring(at, next));
            slots.add(slot);
            at = next + written[slot].length();
        }
        parts.add(text.substring(at));
        return new Pieces(parts.toArray(String[]::new), slots.stream().mapToInt(Integer::intValue).toArray());
    }

    /** A clone of a kept plan with {@code values} in place of its sentinels. */
    private static TupleExpr fill(Kept kept, Value[] values) {
        Value[] sentinels = kept.sentinels();
        Map<Value, Value> byValue = new HashMap<>(sentinels.length * 2);
        String[] written = new String[sentinels.length];
        for (int i = 0; i < sentinels.length; i++) {
            byValue.put(sentinels[i], values[i]);
            if (kept.inText()[i]) {
                try {
                    written[i] = SparqlText.value(values[i]);
                } catch (SparqlText.Unwritable e) {
                    throw new IllegalStateException("a slot's value is an IRI, a string or a number: " + values[i], e);
                }
            }
        }
        TupleExpr plan = kept.plan().clone();
        for (StarGroup star : PlanValues.substitute(plan, byValue)) {
            StarText text = star.text();
            if (text == null) {
                continue;
            }
            Value subject = star.subjectValue() == null ? null : byValue.getOrDefault(star.subjectValue(), star.subjectValue());
            star.replaceWith(star.withConstants(text.body().fill(written), text.order().fill(written), subject));
        }
        return plan;
    }

    /** A plan printed with the parser's and the star writer's names for anonymous variables numbered in order. */
    static String canonical(QueryModelNode plan) {
        Map<String, String> names = new HashMap<>();
        return ANONYMOUS.matcher(Objects.toString(plan))
                .replaceAll(m -> names.computeIfAbsent(m.group(), k -> "_anon_" + names.size()));
    }
}
