package dev.basalt.optimizer.plan;

import java.math.BigDecimal;
import java.util.List;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;

import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.JoinedAggregation;
import dev.basalt.store.lexicon.DerivedNumbers;
import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKind;

/**
 * The aggregates of a GROUP BY that a {@link dev.basalt.optimizer.exec.GroupJoinOp} computes from
 * counts and exact sums per join key: any number of COUNT(*) and COUNT of a variable (which the
 * group join takes only where its patterns bind the variable, so it counts the rows), and at most one
 * SUM or AVG, none of them DISTINCT, whose argument is a variable or an expression of one variable kept per term in the
 * store's derived-value cache ({@link AggregateArg#isDerived}). An argument's number per row is the
 * inline xsd:integer id's value, the derived-number table's entry, or the value computed as
 * {@link Aggregates} computes it; any value that is not an xsd:integer or xsd:decimal of at most 18
 * digits (an error too, which the row-by-row SUM would skip) makes the group join give the work to
 * the rows. Results are made by {@link SumAccumulator#exactResult}, as the row-by-row accumulator
 * makes them. Immutable; per-evaluation values live in the context's scratch. Its RDF4J expression,
 * if any, belongs to one evaluation and is called by its one thread.
 */
final class JoinedAggregates implements JoinedAggregation {
    private final List<Aggregates.Spec> specs;
    private final AggregateArg arg;
    private final String text;

    private JoinedAggregates(List<Aggregates.Spec> specs, AggregateArg arg, String text) {
        this.specs = specs;
        this.arg = arg;
        this.text = text;
    }

    /** The aggregates of {@code specs} for a group join, or null if any is not of the kinds above. */
    static JoinedAggregates of(List<Aggregates.Spec> specs, String text) {
        AggregateArg arg = null;
        for (Aggregates.Spec s : specs) {
            if (s.distinct()) {
                return null;
            }
            if (s.kind() == Aggregates.Kind.SUM || s.kind() == Aggregates.Kind.AVG) {
                if (arg != null || !(s.arg().isVariable() || s.arg().isDerived())) {
                    return null;
                }
                arg = s.arg();
            } else if (s.kind() == Aggregates.Kind.COUNT ? !s.arg().isVariable() : s.kind() != Aggregates.Kind.COUNT_ALL) {
                return null;
            }
        }
        return new JoinedAggregates(List.copyOf(specs), arg, text);
    }

    @Override
    public int[] countedSlots() {
        return specs.stream().filter(s -> s.kind() == Aggregates.Kind.COUNT).mapToInt(s -> s.arg().slot()).toArray();
    }

    @Override
    public int valueSlot() {
        return arg == null ? -1 : arg.slots()[0];
    }

    private ValueCache cache(ExecContext ctx) {
        return ctx.scratch(this, ValueCache::new);
    }

    @Override
    public boolean numbers(Batch batch, long[] out, ExecContext ctx) {
        int slot = valueSlot();
        DerivedNumbers table = arg.numbers(ctx);
        boolean missing = false;
        int size = batch.size();
        if (arg.isDerived() && table != null) {
            // the table's lookups for the whole batch at once (their cache misses overlap)
            long[] ids = new long[size];
            for (int i = 0; i < size; i++) {
                ids[i] = batch.id(i, slot);
            }
            table.getAll(ids, size, out);
            for (int i = 0; i < size; i++) {
                if (!AggregateArg.cachable(ids[i])) {
                    out[i] = DerivedNumbers.MISSING;
                }
                missing |= out[i] == DerivedNumbers.MISSING;
            }
        } else {
            for (int i = 0; i < size; i++) {
                long n = arg.isDerived() ? DerivedNumbers.MISSING : inlineInteger(batch.id(i, slot));
                out[i] = n;
                missing |= n == DerivedNumbers.MISSING;
            }
        }
        if (!missing) {
            return true;
        }
        ValueCache cache = cache(ctx);
        if (arg.isDerived()) {
            arg.prepare(batch, cache, ctx);
        } else {
            cache.load(batch, new int[] { slot }, ctx, true);
        }
        long[] row = new long[batch.width()];
        for (int i = 0; i < batch.size(); i++) {
            if (out[i] == DerivedNumbers.MISSING) {
                row[slot] = batch.id(i, slot);
                Value v = arg.value(row, cache, ctx);
                out[i] = AggregateArg.pack(ParsedDecimalLiteral.of(v));
                if (out[i] == DerivedNumbers.MISSING) {
                    return false;
                }
            }
        }
        return true;
    }

    /** An inline xsd:integer id as a packed number, else {@link DerivedNumbers#MISSING}. */
    private static long inlineInteger(long id) {
        if (!TermIds.isInline(id) || TermIds.kind(id) != TermKind.INTEGER || !XSD.INTEGER.equals(InlineValues.datatype(id))) {
            return DerivedNumbers.MISSING;
        }
        long v = InlineValues.integerValue(id);
        return v <= -(1L << 57) || v >= 1L << 57 ? DerivedNumbers.MISSING : v << 6;
    }

    @Override
    public int[] targetSlots() {
        return specs.stream().mapToInt(Aggregates.Spec::target).toArray();
    }

    @Override
    public long result(int index, long count, long unscaledSum, int scale, boolean decimal, ExecContext ctx) {
        Aggregates.Spec s = specs.get(index);
        if (s.kind() == Aggregates.Kind.COUNT_ALL || s.kind() == Aggregates.Kind.COUNT) {
            return ctx.idOf(SimpleValueFactory.getInstance().createLiteral(Long.toString(count), CoreDatatype.XSD.INTEGER));
        }
        return SumAccumulator.exactResult(s.kind(), count, BigDecimal.valueOf(unscaledSum, scale), decimal, ctx);
    }

    @Override
    public String describe() {
        return text;
    }
}
