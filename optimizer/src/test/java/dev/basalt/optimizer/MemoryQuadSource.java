package dev.basalt.optimizer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;

import dev.basalt.optimizer.access.DerivedValues;
import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.DerivedNumbers;
import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;

/**
 * The in-memory twin of the store's {@link QuadSource}: the same id layout (inline literals are
 * encoded in their ids, other terms get dictionary ids of their kind), quads in a list, every
 * operation a linear scan. For plan tests, where the data is small and exactness matters.
 */
public final class MemoryQuadSource implements QuadSource {
    private final ValueFactory vf = SimpleValueFactory.getInstance();
    private final Map<Value, Long> ids = new HashMap<>();
    private final Map<Long, Value> values = new HashMap<>();
    private final List<long[]> quads = new ArrayList<>();
    private final Map<Object, DerivedValues> derived = new ConcurrentHashMap<>();
    private long counter;
    private volatile boolean concurrentReads;
    private final Set<String> scanningThreads = ConcurrentHashMap.newKeySet();

    private volatile Map<Value, Value> plannedConditionValues;

    /** Makes the twin stand for a kept plan's compilation: {@code values} maps the conditions' sentinels to a query's values. */
    public MemoryQuadSource plannedConditionValues(Map<Value, Value> values) {
        this.plannedConditionValues = values;
        return this;
    }

    @Override
    public Map<Value, Value> plannedConditionValues() {
        return plannedConditionValues;
    }

    private volatile boolean columnar;

    /**
     * Makes the twin's scans say they read into columns ({@link Scan#columnar}; they copy from their blocks,
     * as {@link Scan#nextColumns} does by default), so that an operator takes its column path as over the store.
     */
    public MemoryQuadSource columnar(boolean on) {
        this.columnar = on;
        return this;
    }

    /** Declares the twin safe for concurrent reads (true once loading is done: reads change nothing). */
    public MemoryQuadSource concurrentReads(boolean concurrent) {
        this.concurrentReads = concurrent;
        return this;
    }

    @Override
    public boolean concurrentReads() {
        return concurrentReads;
    }

    /** The store's default statement orders, as quad positions: spoc, posc, ospc, cspo. */
    private static final int[][] ORDERS = { { 0, 1, 2, 3 }, { 1, 2, 0, 3 }, { 2, 0, 1, 3 }, { 3, 0, 1, 2 } };
    private volatile boolean ordered;

    /**
     * Lets merge joins read this twin in order as the store's default indices would
     * ({@link #canOrder}); off by default, so that plans on the twin keep their index lookups.
     */
    public MemoryQuadSource ordered(boolean canOrder) {
        this.ordered = canOrder;
        return this;
    }

    @Override
    public boolean canOrder(long[] pattern, int position) {
        if (!ordered || pattern[position] != TermIds.NULL) {
            return false;
        }
        int constants = 0;
        for (long id : pattern) {
            constants += id != TermIds.NULL ? 1 : 0;
        }
        for (int[] order : ORDERS) {
            boolean fits = order[constants] == position;
            for (int i = 0; i < constants && fits; i++) {
                fits = pattern[order[i]] != TermIds.NULL;
            }
            if (fits) {
                return true;
            }
        }
        return false;
    }

    @Override
    public OrderedScan orderedScan(long[] pattern, int position) {
        if (!canOrder(pattern, position)) {
            return null;
        }
        scanningThreads.add(Thread.currentThread().getName());
        List<long[]> sorted = matches(pattern);
        sorted.sort((x, y) -> Long.compareUnsigned(x[position], y[position]));
        return new OrderedScan() {
            int at;

            @Override
            public boolean seek(long min, long[] quad) {
                while (at < sorted.size() && Long.compareUnsigned(sorted.get(at)[position], min) < 0) {
                    at++;
                }
                return next(quad);
            }

            @Override
            public boolean next(long[] quad) {
                if (at >= sorted.size()) {
                    return false;
                }
                System.arraycopy(sorted.get(at++), 0, quad, 0, 4);
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    /** Names of the threads that scanned this source. */
    public Set<String> scanningThreads() {
        return scanningThreads;
    }

    private boolean spatial;

    /** Serves a spatial index (by testing every geometry term's bounds) from now on, or stops serving one. */
    public MemoryQuadSource spatial(boolean on) {
        this.spatial = on;
        return this;
    }

    @Override
    public dev.basalt.optimizer.access.SpatialIndexReader spatialIndex() {
        if (!spatial) {
            return null;
        }
        return new dev.basalt.optimizer.access.SpatialIndexReader() {
            @Override
            public long[] window(List<double[]> boxes) {
                return values.entrySet().stream().filter(e -> meets(e.getValue(), boxes)).mapToLong(Map.Entry::getKey)
                        .sorted().toArray();
            }

            @Override
            public long estimate(List<double[]> boxes) {
                return window(boxes).length;
            }
        };
    }

    private static boolean meets(Value v, List<double[]> boxes) {
        if (!(v instanceof org.eclipse.rdf4j.model.Literal l)
                || !"http://www.opengis.net/ont/geosparql#wktLiteral".equals(l.getDatatype().stringValue())) {
            return false;
        }
        dev.basalt.store.spatial.GeometryBounds b = dev.basalt.store.spatial.GeometryBounds.of(l.getLabel());
        for (double[] w : boxes) {
            if (b.minLon() <= w[2] && b.maxLon() >= w[0] && b.minLat() <= w[3] && b.maxLat() >= w[1]) {
                return true;
            }
        }
        return false;
    }

    public MemoryQuadSource add(Resource s, IRI p, Value o, Resource... context) {
        long c = context.length == 0 || context[0] == null ? TermIds.DEFAULT_GRAPH : intern(context[0]);
        quads.add(new long[] { intern(s), intern(p), intern(o), c });
        return this;
    }

    private long intern(Value v) {
        long inline = InlineValues.encode(v);
        if (inline != TermIds.NULL) {
            return inline;
        }
        return ids.computeIfAbsent(v, k -> {
            int kind = k instanceof IRI ? TermIds.KIND_IRI : k instanceof BNode ? TermIds.KIND_BLANK_NODE : TermIds.KIND_LITERAL;
            long id = TermIds.make(kind, ++counter);
            values.put(id, k);
            return id;
        });
    }

    private List<long[]> matches(long[] pattern) {
        List<long[]> out = new ArrayList<>();
        for (long[] q : quads) {
            boolean ok = true;
            for (int i = 0; i < 4 && ok; i++) {
                ok = pattern[i] == TermIds.NULL || pattern[i] == q[i];
            }
            if (ok) {
                out.add(q);
            }
        }
        return out;
    }

    @Override
    public Scan scan(long[] pattern) {
        scanningThreads.add(Thread.currentThread().getName());
        Iterator<long[]> it = matches(pattern).iterator();
        boolean columns = columnar;
        return new Scan() {
            @Override
            public boolean next(long[] quad) {
                if (!it.hasNext()) {
                    return false;
                }
                System.arraycopy(it.next(), 0, quad, 0, 4);
                return true;
            }

            @Override
            public boolean columnar() {
                return columns;
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public long count(long[] pattern) {
        return matches(pattern).size();
    }

    @Override
    public long[][] sample(long[] pattern, int k) {
        List<long[]> m = matches(pattern);
        int n = Math.min(k, m.size());
        long[][] out = new long[n][];
        for (int i = 0; i < n; i++) {
            int pos = m.size() <= k ? i : (int) ((i + 0.5) * m.size() / n);
            out[i] = m.get(pos).clone();
        }
        return out;
    }

    @Override
    public long lookup(Value value) {
        long inline = InlineValues.encode(value);
        if (inline != TermIds.NULL) {
            return inline;
        }
        Long id = ids.get(value);
        return id == null ? TermIds.NULL : id;
    }

    @Override
    public Value[] resolve(long[] idArray) {
        Value[] out = new Value[idArray.length];
        for (int i = 0; i < idArray.length; i++) {
            long id = idArray[i];
            out[i] = id == TermIds.NULL || id == TermIds.DEFAULT_GRAPH ? null
                    : InlineValues.isInline(id) ? InlineValues.decode(id, vf) : values.get(id);
        }
        return out;
    }

    /** Like the store's: one small cache per function, for the life of the twin (its ids are never reused). */
    @Override
    public DerivedValues derivedValues(Object function) {
        return derived.computeIfAbsent(function, k -> new SmallDerivedValues());
    }

    /** At most 64 entries, then it starts over: the twin's tests also see values computed again. */
    private static final class SmallDerivedValues implements DerivedValues {
        private final Map<Long, Value> values = new ConcurrentHashMap<>();
        /** Room for 8 numbers: the twin's tests see both numbers held and numbers derived again. */
        private final DerivedNumbers numbers = new DerivedNumbers(8);

        @Override
        public DerivedNumbers numbers() {
            return numbers;
        }

        @Override
        public void put(long id, Value value) {
            if (values.size() >= 64) {
                values.clear();
            }
            values.put(id, value);
        }

        @Override
        public Value get(long id) {
            return values.get(id);
        }
    }

    @Override
    public ValueFactory valueFactory() {
        return vf;
    }
}
