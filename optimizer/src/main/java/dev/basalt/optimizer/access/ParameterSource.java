package dev.basalt.optimizer.access;

import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.store.lexicon.TermIds;

/**
 * A {@link QuadSource} whose patterns may name <em>parameters</em>: reserved ids ({@link #parameterId}) that
 * stand for one evaluation's constants. A plan compiled once for a query shape (the rdf4j layer's
 * {@code ShapePlans}) holds parameters where the shape has pattern constants; each evaluation reads through a
 * source that puts its own term ids in their place. A parameter whose term the store does not hold (id 0) makes
 * every pattern naming it match nothing, as a pattern with an unknown constant does. During the shape's
 * compilation, {@link #lookup} gives the parameter id for the sentinel value standing for it in the shape's
 * algebra, and {@link #plannedConditionValues} the compiling query's own value for each sentinel a condition
 * reads, so that the planner's estimates of a FILTER's range see the value that query compares with (the compiled
 * condition still takes each evaluation's value). Every other read is the wrapped source's.
 *
 * <p>Parameter ids are of the reserved kind, outside the query-local range: no stored or computed term has
 * one, and they occur only in pattern positions, never in rows.
 *
 * <p>Thread rules: immutable after construction (the id array is the caller's and must not change while the
 * source is in use); thread-safe as the wrapped source is, and its scans and probers are confined as the wrapped
 * source's are.
 */
public final class ParameterSource implements QuadSource {
    /** First parameter id: kind 0, bit 58; below the query-local ids (bit 59). */
    private static final long FIRST = 1L << (TermIds.KIND_SHIFT - 2);
    private static final int MAX_PARAMETERS = 1 << 16;
    private final QuadSource source;
    private final long[] ids;
    private final Map<Value, Integer> sentinels;
    /** The compiling query's values of the sentinels its conditions read; null at run time. */
    private final Map<Value, Value> conditionValues;

    /**
     * @param ids the evaluation's term id per parameter (0 = not in the store)
     * @param sentinels the parameter index of each sentinel value, looked up during compilation; empty at run time
     */
    public ParameterSource(QuadSource source, long[] ids, Map<Value, Integer> sentinels) {
        this(source, ids, sentinels, null);
    }

    /**
     * The source a shape's plan is compiled over.
     *
     * @param conditionValues the compiling query's value of each sentinel that a condition reads, for planning
     *                        only ({@link #plannedConditionValues}); null for none
     */
    public ParameterSource(QuadSource source, long[] ids, Map<Value, Integer> sentinels, Map<Value, Value> conditionValues) {
        if (ids.length > MAX_PARAMETERS) {
            throw new IllegalArgumentException("too many parameters: " + ids.length);
        }
        this.source = source;
        this.ids = ids;
        this.sentinels = sentinels;
        this.conditionValues = conditionValues == null || conditionValues.isEmpty() ? null : Map.copyOf(conditionValues);
    }

    /** The id standing for parameter {@code index} in a compiled plan. */
    public static long parameterId(int index) {
        return FIRST + index;
    }

    private static boolean isParameter(long id) {
        return id >= FIRST && id < FIRST + MAX_PARAMETERS;
    }

    /** {@code pattern} with the parameters' ids put in, itself if it names none, or null if one is not in the store. */
    private long[] bind(long[] pattern) {
        long[] out = pattern;
        for (int i = 0; i < pattern.length; i++) {
            if (isParameter(pattern[i])) {
                long id = ids[(int) (pattern[i] - FIRST)];
                if (id == TermIds.NULL) {
                    return null;
                }
                if (out == pattern) {
                    out = pattern.clone();
                }
                out[i] = id;
            }
        }
        return out;
    }

    private static final Scan EMPTY = new Scan() {
        @Override
        public boolean next(long[] quad) {
            return false;
        }

        @Override
        public void close() {
        }
    };

    private static final OrderedScan EMPTY_ORDERED = new OrderedScan() {
        @Override
        public boolean seek(long min, long[] quad) {
            return false;
        }

        @Override
        public boolean next(long[] quad) {
            return false;
        }

        @Override
        public void close() {
        }
    };

    @Override
    public Scan scan(long[] pattern) {
        long[] p = bind(pattern);
        return p == null ? EMPTY : source.scan(p);
    }

    @Override
    public Prober prober() {
        Prober prober = source.prober();
        return pattern -> {
            long[] p = bind(pattern);
            return p == null ? EMPTY : prober.scan(p);
        };
    }

    @Override
    public boolean canOrder(long[] pattern, int position) {
        long[] p = bind(pattern);
        return p == null || source.canOrder(p, position);
    }

    @Override
    public OrderedScan orderedScan(long[] pattern, int position) {
        long[] p = bind(pattern);
        return p == null ? EMPTY_ORDERED : source.orderedScan(p, position);
    }

    @Override
    public SpatialIndexReader spatialIndex() {
        return source.spatialIndex();
    }

    @Override
    public boolean concurrentReads() {
        return source.concurrentReads();
    }

    @Override
    public long count(long[] pattern) {
        long[] p = bind(pattern);
        return p == null ? 0 : source.count(p);
    }

    @Override
    public long estimate(long[] pattern) {
        long[] p = bind(pattern);
        return p == null ? 0 : source.estimate(p);
    }

    @Override
    public long[][] sample(long[] pattern, int k) {
        long[] p = bind(pattern);
        return p == null ? new long[0][] : source.sample(p, k);
    }

    @Override
    public Map<Value, Value> plannedConditionValues() {
        return conditionValues;
    }

    @Override
    public long lookup(Value value) {
        Integer parameter = sentinels.get(value);
        return parameter != null ? parameterId(parameter) : source.lookup(value);
    }

    @Override
    public Value[] resolve(long[] ids) {
        return source.resolve(ids);
    }

    /** The wrapped source's, once no sentinel is looked up (at run time); itself while the plan is compiled. */
    @Override
    public QuadSource resolver() {
        return sentinels.isEmpty() ? source.resolver() : this;
    }

    @Override
    public DerivedValues derivedValues(Object function) {
        return source.derivedValues(function);
    }

    @Override
    public ValueFactory valueFactory() {
        return source.valueFactory();
    }
}
