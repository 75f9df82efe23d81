package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.Compare.CompareOp;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKind;

/**
 * The object ids a pattern's scan needs to read under a FILTER that compares the object variable with
 * constants ({@code ?date >= "2008-03-01"^^xsd:date && ?date < "2008-04-01"^^xsd:date}): a sorted list
 * of disjoint intervals of ids (unsigned, inclusive) that holds every term for which each comparison
 * can be true, in STRICT and STANDARD mode. The FILTER stays above the scan and decides every row
 * exactly; the intervals only keep the scan from reading what it would certainly reject.
 *
 * <p>A comparison bounds its constant's own kind where that kind's ids are ordered as its values
 * (TermIds' contract): an inline integer (all integer datatypes: the value sits above the datatype
 * code), an inline {@code xsd:date} or {@code xsd:dateTime} (widened by a day, or 15 hours, so that a
 * zoned value, which XSD may order either way within 14 hours of an unzoned one, stays inside). Every
 * kind whose values can compare with the constant's is kept whole (the other numeric kinds for an
 * integer, the other calendar kind for a date or dateTime), and so is every kind that is not inline
 * (dictionary literals of any datatype, IRIs, blank nodes, triple terms). Only inline kinds whose
 * values never compare with the constant's (strings, language strings, booleans, and numbers against
 * dates) are left out: RDF4J's comparison of those is an error or false. A constant of any other kind,
 * or one not inline, bounds nothing.
 *
 * <p>The constants are the query's: a plan kept for a query shape holds sentinels, and each evaluation's
 * values ({@link ExecContext#parameterValues}) replace them when {@link #intervals(ExecContext)} computes
 * the evaluation's intervals. Immutable, so thread-safe.
 */
public final class ObjectRanges {
    /** One conjunct of the FILTER: {@code ?o op constant}. */
    public record Bound(CompareOp op, Value constant) {
    }

    /** A day in quarter hours (a date's instant unit): more than the 14 hours a zone moves a date. */
    private static final long DATE_SLACK = 96;
    /** 15 hours in milliseconds (a dateTime's instant unit). */
    private static final long DATE_TIME_SLACK = 15L * 3600 * 1000;
    private static final long ZONE_MASK = (1L << TermIds.ZONE_BITS) - 1;
    private static final long TYPE_MASK = (1L << TermIds.INTEGER_TYPE_BITS) - 1;

    private final List<Bound> bounds;
    private final String text;

    /** @param text the FILTER's comparisons as EXPLAIN shows them */
    public ObjectRanges(List<Bound> bounds, String text) {
        if (bounds.isEmpty()) {
            throw new IllegalArgumentException("object ranges need at least one comparison");
        }
        this.bounds = List.copyOf(bounds);
        this.text = text;
    }

    public String text() {
        return text;
    }

    /**
     * This evaluation's intervals ({@link #intervals(Map, QuadSource)} with its constants), computed once per
     * evaluation and thread; null where the comparisons bound nothing.
     */
    long[] intervals(ExecContext ctx) {
        long[][] held = ctx.scratch(this, () -> new long[][] { intervals(ctx.parameterValues(), ctx.source()) });
        return held[0];
    }

    /**
     * Pairs {@code lo, hi} (unsigned, inclusive, ascending, disjoint) holding every object id for which all
     * the comparisons can be true; null where they bound nothing. {@code parameters} maps a kept plan's
     * sentinels to this evaluation's constants (null: the constants are the query's own).
     */
    public long[] intervals(Map<Value, Value> parameters, QuadSource source) {
        long[] out = null;
        for (Bound b : bounds) {
            Value v = parameters == null ? null : parameters.get(b.constant());
            long id = source.lookup(v != null ? v : b.constant());
            long[] one = of(b.op(), id);
            if (one != null) {
                out = out == null ? one : intersect(out, one);
            }
        }
        return out;
    }

    /** Whether {@code id} lies in one of {@code intervals}. */
    public static boolean contains(long[] intervals, long id) {
        for (int i = 0; i < intervals.length; i += 2) {
            if (Long.compareUnsigned(id, intervals[i]) >= 0 && Long.compareUnsigned(id, intervals[i + 1]) <= 0) {
                return true;
            }
        }
        return false;
    }

    /** The intervals of {@code ?o op c} for the constant's id {@code c}, or null where it bounds nothing. */
    static long[] of(CompareOp op, long c) {
        if (op == CompareOp.NE || c == TermIds.NULL || !TermIds.isInline(c)) {
            return null;
        }
        TermKind kind = TermIds.kind(c);
        long lo;
        long hi;
        TermKind[] related;
        switch (kind) {
            case INTEGER -> {
                lo = c & ~TYPE_MASK;
                hi = c | TYPE_MASK;
                related = new TermKind[] { TermKind.DECIMAL, TermKind.FLOAT, TermKind.DOUBLE };
            }
            case DATE, DATE_TIME -> {
                long slack = kind == TermKind.DATE ? DATE_SLACK : DATE_TIME_SLACK;
                long instant = TermIds.payload(c) >>> TermIds.ZONE_BITS;
                long last = TermIds.PAYLOAD_MASK >>> TermIds.ZONE_BITS;
                lo = TermIds.make(kind.code(), Math.max(instant - slack, 0) << TermIds.ZONE_BITS);
                hi = TermIds.make(kind.code(), Math.min(instant + slack, last) << TermIds.ZONE_BITS | ZONE_MASK);
                related = new TermKind[] { kind == TermKind.DATE ? TermKind.DATE_TIME : TermKind.DATE };
            }
            default -> {
                return null;
            }
        }
        switch (op) {
            case LT, LE -> lo = TermIds.firstId(kind.code());
            case GT, GE -> hi = TermIds.lastId(kind.code());
            default -> {
                // EQ: both bounds
            }
        }
        long[] out = new long[0];
        for (int code = 0; code <= 0xF; code++) {
            TermKind k = TermKind.ofCode(code);
            boolean keep = k == null || !k.isInline() || Arrays.asList(related).contains(k);
            if (k == kind) {
                out = union(out, lo, hi);
            } else if (keep) {
                out = union(out, TermIds.firstId(code), TermIds.lastId(code));
            }
        }
        return out;
    }

    /** {@code a} with the interval {@code lo..hi} appended, merged with the last one where they touch (ascending input). */
    private static long[] union(long[] a, long lo, long hi) {
        int n = a.length;
        if (n > 0 && a[n - 1] != -1L && Long.compareUnsigned(a[n - 1] + 1, lo) >= 0) {
            long[] out = a.clone();
            out[n - 1] = Long.compareUnsigned(hi, a[n - 1]) > 0 ? hi : a[n - 1];
            return out;
        }
        long[] out = Arrays.copyOf(a, n + 2);
        out[n] = lo;
        out[n + 1] = hi;
        return out;
    }

    /** The intervals in both lists. */
    static long[] intersect(long[] a, long[] b) {
        long[] out = new long[0];
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            long lo = Long.compareUnsigned(a[i], b[j]) >= 0 ? a[i] : b[j];
            long hi = Long.compareUnsigned(a[i + 1], b[j + 1]) <= 0 ? a[i + 1] : b[j + 1];
            if (Long.compareUnsigned(lo, hi) <= 0) {
                out = union(out, lo, hi);
            }
            if (Long.compareUnsigned(a[i + 1], b[j + 1]) < 0) {
                i += 2;
            } else {
                j += 2;
            }
        }
        return out;
    }
}
