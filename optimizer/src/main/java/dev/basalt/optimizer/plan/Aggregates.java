package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.util.ValueComparator;

import dev.basalt.optimizer.exec.Aggregation;
import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.store.lexicon.TermIds;

/**
 * The aggregates of a GROUP BY with RDF4J 5's semantics (its GroupIterator): COUNT counts rows
 * whose argument has a value (COUNT(*): rows binding anything); SUM and AVG add with RDF4J's
 * numeric type promotion ({@code MathUtil}), start from {@code 0} (xsd:integer), and are in error
 * (unbound) once a non-numeric value is seen; AVG of nothing is {@code 0}; MIN and MAX use RDF4J's
 * value comparator (strict in STRICT mode) and are unbound for no values; SAMPLE is a value of the
 * group (the first); GROUP_CONCAT joins string values with the separator (a space by default) into
 * a simple literal. DISTINCT variants see each distinct argument once (COUNT(DISTINCT *): distinct
 * rows). An argument in error counts as no value. Results become ids with {@link ExecContext#idOf}.
 * SUM and AVG, which add exactly where they can, are {@link SumAccumulator}'s.
 * Immutable; per-evaluation values live in the context's scratch. Its RDF4J expressions, if any,
 * belong to one evaluation (such a plan is not kept) and are called by its one thread.
 */
final class Aggregates implements Aggregation {
    static final ValueFactory VF = SimpleValueFactory.getInstance();

    enum Kind {
        COUNT, COUNT_ALL, SUM, AVG, MIN, MAX, SAMPLE, GROUP_CONCAT
    }

    /** One aggregate: its kind, argument (null for COUNT(*)), DISTINCT, separator, target slot. */
    record Spec(Kind kind, AggregateArg arg, boolean distinct, String separator, int target, String text) {
    }

    private final List<Spec> specs;
    private final boolean strict;
    private final int[] valueSlots;
    /** Arguments whose values come per id from the store's shared cache ({@link AggregateArg#isDerived}). */
    private final List<AggregateArg> derived;
    /**
     * Values of the evaluation's ids, kept in its context: query-local ids are an evaluation's own, and a plan
     * kept for a query shape is run by many evaluations, also at once.
     */
    ValueCache cache(ExecContext ctx) {
        return ctx.scratch(this, ValueCache::new);
    }

    Aggregates(List<Spec> specs, boolean strict) {
        this.specs = List.copyOf(specs);
        this.strict = strict;
        Set<Integer> slots = new HashSet<>();
        List<AggregateArg> derivedArgs = new ArrayList<>();
        for (Spec s : specs) {
            boolean counts = s.kind() == Kind.COUNT || s.kind() == Kind.COUNT_ALL;
            if (s.arg() != null && s.arg().isDerived()) {
                derivedArgs.add(s.arg());
            } else if (s.arg() != null && (!counts || !s.arg().isVariable())) {
                for (int slot : s.arg().slots()) {
                    slots.add(slot);
                }
            }
        }
        this.valueSlots = slots.stream().mapToInt(Integer::intValue).filter(i -> i >= 0).toArray();
        this.derived = List.copyOf(derivedArgs);
    }

    @Override
    public Accumulator[] start() {
        Accumulator[] out = new Accumulator[specs.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = accumulator(specs.get(i));
        }
        return out;
    }

    @Override
    public int[] targetSlots() {
        return specs.stream().mapToInt(Spec::target).toArray();
    }

    @Override
    public void prepare(List<long[]> batch, ExecContext ctx) {
        cache(ctx).load(batch, valueSlots, ctx, true);
        for (AggregateArg a : derived) {
            a.prepare(batch, cache(ctx), ctx);
        }
    }

    /** Every aggregate but COUNT(DISTINCT *), which keeps its rows' arrays as keys. */
    @Override
    public boolean batchable() {
        return specs.stream().noneMatch(s -> s.kind() == Kind.COUNT_ALL && s.distinct());
    }

    @Override
    public void prepare(Batch batch, ExecContext ctx) {
        cache(ctx).load(batch, valueSlots, ctx, true);
        for (AggregateArg a : derived) {
            a.prepare(batch, cache(ctx), ctx);
        }
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Spec s : specs) {
            sb.append(sb.length() == 0 ? "" : ", ").append(s.text());
        }
        return sb.toString();
    }

    private Accumulator accumulator(Spec s) {
        return switch (s.kind()) {
            case COUNT -> new Count(this, s);
            case COUNT_ALL -> new CountAll(this, s);
            case SUM, AVG -> new SumAccumulator(this, s);
            case MIN, MAX -> new Extreme(this, s);
            case SAMPLE -> new Sample(this, s);
            case GROUP_CONCAT -> new Concat(this, s);
        };
    }

    /**
     * An accumulator of one {@link Spec}: the values of its argument, read through the owner's
     * per-evaluation cache, and the keys a DISTINCT aggregate has seen. One per group, in one thread.
     */
    abstract static class Base implements Accumulator {
        final Aggregates owner;
        final Spec spec;
        final Set<Object> seen;

        Base(Aggregates owner, Spec spec) {
            this.owner = owner;
            this.spec = spec;
            this.seen = spec.distinct() ? new HashSet<>() : null;
        }

        /** True the first time a DISTINCT aggregate sees this key (always true without DISTINCT). */
        boolean fresh(Object key) {
            return seen == null || seen.add(key == null ? Void.class : key);
        }

        Value value(long[] row, ExecContext ctx) {
            return spec.arg().value(row, owner.cache(ctx), ctx);
        }
    }

    private static final class Count extends Base {
        long n;

        Count(Aggregates owner, Spec s) {
            super(owner, s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            Object key = spec.arg().key(row, owner.cache(ctx), ctx);
            if (key != null && fresh(key)) {
                n++;
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(VF.createLiteral(Long.toString(n), CoreDatatype.XSD.INTEGER));
        }
    }

    private static final class CountAll extends Base {
        long n;

        CountAll(Aggregates owner, Spec s) {
            super(owner, s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            boolean empty = true;
            for (long id : row) {
                empty &= id == TermIds.NULL;
            }
            if (!empty && fresh(new RowKey(row))) {
                n++;
            }
        }

        @Override
        public void addAll(Batch batch, long[] scratch, ExecContext ctx) {
            if (seen == null) {
                n += batch.nonEmptyRows();
            } else {
                super.addAll(batch, scratch, ctx);
            }
        }

        @Override
        public void addRun(Batch batch, int from, int to, long[] scratch, ExecContext ctx) {
            if (seen == null) {
                n += batch.nonEmptyRows(from, to);
            } else {
                super.addRun(batch, from, to, scratch, ctx);
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(VF.createLiteral(Long.toString(n), CoreDatatype.XSD.INTEGER));
        }
    }

    private static final class Extreme extends Base {
        final ValueComparator comparator = new ValueComparator();
        Value best;

        Extreme(Aggregates owner, Spec s) {
            super(owner, s);
            comparator.setStrict(owner.strict);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            Value v = value(row, ctx);
            if (v != null && fresh(v)) {
                int c = best == null ? 0 : comparator.compare(v, best);
                if (best == null || (spec.kind() == Kind.MIN ? c < 0 : c > 0)) {
                    best = v;
                }
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(best);
        }
    }

    private static final class Sample extends Base {
        Value sample;

        Sample(Aggregates owner, Spec s) {
            super(owner, s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            if (sample == null) {
                sample = value(row, ctx);
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(sample);
        }
    }

    private static final class Concat extends Base {
        StringBuilder text;

        Concat(Aggregates owner, Spec s) {
            super(owner, s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            Value v = value(row, ctx);
            if (v != null && fresh(v)) {
                if (text == null) {
                    text = new StringBuilder();
                } else {
                    text.append(spec.separator());
                }
                text.append(v.stringValue());
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(VF.createLiteral(text == null ? "" : text.toString()));
        }
    }

    /** A whole row as a DISTINCT key (COUNT(DISTINCT *)). */
    private record RowKey(long[] ids) {
        @Override
        public boolean equals(Object o) {
            return o instanceof RowKey k && Arrays.equals(k.ids, ids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ids);
        }
    }
}
