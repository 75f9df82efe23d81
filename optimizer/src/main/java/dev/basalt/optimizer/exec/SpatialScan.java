package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;

import dev.basalt.optimizer.access.SpatialIndexReader;
import dev.basalt.store.lexicon.TermIds;

/**
 * Binds a geometry variable to the candidates of a spatial condition from the store's spatial
 * index: the join operand the compiler adds for a FILTER the index can narrow (a relation with a
 * constant geometry, or a distance below a constant radius; see {@link SpatialWindow}). Every
 * geometry that satisfies the condition is a candidate; the FILTER itself stays in the plan and
 * decides each candidate exactly with RDF4J's GeoSPARQL functions. Terms no statement uses are
 * candidates too and join with nothing.
 *
 * <p>With an input row that binds the variable already, it keeps the row if its id is a
 * candidate. Where the source has no current spatial index (a transaction's uncommitted state), it
 * falls back to the distinct values of the variable in {@code fallback}, the pattern of the group
 * that binds it: slower, same rows after the FILTER.
 *
 * <p>The geometry (and radius) may be a kept plan's sentinel: each open uses the evaluation's own
 * constant ({@link ExecContext#parameterValues}). Thread-safe: fields are fixed at construction
 * and each open's state lives in its cursor.
 */
public final class SpatialScan extends Operator {
    private final int slot;
    private final String variable;
    private final String function;
    private final Value geometry;
    private final Value radius;
    private final String unit;
    private final Operator fallback;

    /**
     * @param radius the distance bound for {@code geof:distance} (with {@code unit}), null for a relation
     * @param fallback the pattern binding {@code slot}, read when the source has no spatial index
     */
    public SpatialScan(int slot, String variable, String function, Value geometry, Value radius, String unit,
            Operator fallback) {
        this.slot = slot;
        this.variable = variable;
        this.function = function;
        this.geometry = geometry;
        this.radius = radius;
        this.unit = unit;
        this.fallback = fallback;
    }

    @Override
    public List<Operator> children() {
        return List.of();
    }

    @Override
    public String describe() {
        String g = geometry.stringValue();
        if (g.length() > 60) {
            g = g.substring(0, 57) + "...";
        }
        return "SpatialScan ?" + variable + " geo.cells " + function + "(" + g
                + (radius == null ? "" : ", " + radius.stringValue() + " " + unit.substring(unit.lastIndexOf('/') + 1))
                + ")";
    }

    /** The index window for this evaluation's constants; null if the index cannot narrow it. */
    public SpatialWindow window(Map<Value, Value> parameters) {
        Value g = parameters != null && parameters.containsKey(geometry) ? parameters.get(geometry) : geometry;
        if (radius == null) {
            return SpatialWindow.meeting(g);
        }
        Value r = parameters != null && parameters.containsKey(radius) ? parameters.get(radius) : radius;
        if (!(r instanceof Literal l)) {
            return SpatialWindow.NONE;
        }
        double d;
        try {
            d = l.doubleValue();
        } catch (NumberFormatException e) {
            return SpatialWindow.NONE;
        }
        return SpatialWindow.near(g, SpatialWindow.degrees(d, unit));
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        SpatialIndexReader index = ctx.source().spatialIndex();
        SpatialWindow w = index == null ? null : window(ctx.parameterValues());
        if (w == null) {
            return distinctFallback(input, ctx);
        }
        long[] candidates = w.boxes().isEmpty() ? new long[0] : index.window(w.boxes());
        long bound = input[slot];
        if (ExecContext.isBound(bound)) {
            return Arrays.binarySearch(candidates, bound) >= 0 ? single(input) : RowCursor.EMPTY;
        }
        return new RowCursor() {
            int next;

            @Override
            public long[] next() {
                if (next >= candidates.length) {
                    return null;
                }
                if ((next & 1023) == 0) {
                    ctx.checkCancelled();
                }
                long[] row = input.clone();
                row[slot] = candidates[next++];
                return row;
            }

            @Override
            public void close() {
            }
        };
    }

    private static RowCursor single(long[] input) {
        return new RowCursor() {
            boolean done;

            @Override
            public long[] next() {
                if (done) {
                    return null;
                }
                done = true;
                return input.clone();
            }

            @Override
            public void close() {
            }
        };
    }

    private RowCursor distinctFallback(long[] input, ExecContext ctx) {
        RowCursor in = fallback.open(input, ctx);
        Set<Long> seen = new HashSet<>();
        return new RowCursor() {
            @Override
            public long[] next() {
                long[] r;
                while ((r = in.next()) != null) {
                    long id = r[slot];
                    if (id != TermIds.NULL && seen.add(id)) {
                        long[] row = input.clone();
                        row[slot] = id;
                        return row;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
