package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.evaluation.ValueExprEvaluationException;
import org.eclipse.rdf4j.query.algebra.evaluation.function.Function;
import org.eclipse.rdf4j.query.algebra.evaluation.function.FunctionRegistry;

import dev.basalt.optimizer.access.SpatialIndexReader;
import dev.basalt.store.spatial.GeometryBounds;
import dev.basalt.store.spatial.NearestPoints;

/**
 * {@code ?s P ?g} ordered by {@code geof:distance(?g, POINT, unit)} ascending, first {@code keep}
 * rows: the k nearest points from the spatial index's expanding ring search instead of sorting
 * every statement. Candidates come in ascending order of a lower bound of their distance; each is given
 * its exact distance by RDF4J's {@code geof:distance} (the function the ORDER BY would call), and
 * one is taken when no later candidate can be nearer. Its statements (the pattern with {@code ?g}
 * bound) follow in distance order until {@code keep} rows are out and the next candidate is
 * farther than the last row's.
 *
 * <p>Only when the index says every object of P is an indexed point ({@link SpatialIndexReader#onlyPoints}):
 * otherwise a distance may be an error, which SPARQL's ORDER BY puts first, so the operator runs
 * {@code sorted}, the plan with the usual sort, instead. So it does without an index, when the
 * constant is not a point, and when an exact distance turns out to be an error.
 *
 * <p>The geometry may be a kept plan's sentinel (each open uses the evaluation's constant).
 * Thread-safe: fields fixed at construction, each open's state in its cursor.
 */
public final class KnnOp extends Operator {
    private static final String DISTANCE = "http://www.opengis.net/def/function/geosparql/distance";
    private final Operator sorted;
    private final PatternScan pattern;
    private final long predicate;
    private final int slot;
    private final Value geometry;
    private final Value unit;
    private final long keep;

    public KnnOp(Operator sorted, PatternScan pattern, long predicate, int slot, Value geometry, Value unit, long keep) {
        this.sorted = sorted;
        this.pattern = pattern;
        this.predicate = predicate;
        this.slot = slot;
        this.geometry = geometry;
        this.unit = unit;
        this.keep = keep;
    }

    @Override
    public List<Operator> children() {
        return List.of(pattern, sorted);
    }

    @Override
    public String describe() {
        String g = geometry.stringValue();
        return "KnnScan geo.cells nearest " + keep + " to " + (g.length() > 60 ? g.substring(0, 57) + "..." : g)
                + " (else the sort below)";
    }

    private record Candidate(double distance, long id) implements Comparable<Candidate> {
        @Override
        public int compareTo(Candidate o) {
            return Double.compare(distance, o.distance);
        }
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        List<long[]> rows = nearest(input, ctx);
        if (rows == null) {
            return sorted.open(input, ctx);
        }
        return RowCursor.over(rows, () -> { });
    }

    /** The rows in distance order, or null if the index cannot answer (then the sorted plan does). */
    private List<long[]> nearest(long[] input, ExecContext ctx) {
        SpatialIndexReader index = ctx.source().spatialIndex();
        Map<Value, Value> parameters = ctx.parameterValues();
        Value g = parameters != null && parameters.containsKey(geometry) ? parameters.get(geometry) : geometry;
        GeometryBounds b = SpatialWindow.bounds(g);
        Optional<Function> distance = FunctionRegistry.getInstance().get(DISTANCE);
        if (index == null || b == null || !b.point() || distance.isEmpty() || ExecContext.isBound(input[slot])
                || !index.onlyPoints(predicate)) {
            return null;
        }
        double perUnit = SpatialWindow.degrees(1, unit.stringValue());
        NearestPoints search = index.nearest(b.minLon(), b.minLat(), keep);
        if (search == null || !(perUnit > 0)) {
            return null;
        }
        PriorityQueue<Candidate> exact = new PriorityQueue<>();
        List<long[]> rows = new ArrayList<>();
        double last = Double.NEGATIVE_INFINITY;
        while (true) {
            ctx.checkCancelled();
            // refine candidates until none left unrefined can be nearer than the nearest refined one
            while (exact.isEmpty() || search.peekBound() / perUnit <= exact.peek().distance()) {
                if (!search.next()) {
                    break;
                }
                Value v = ctx.resolve(search.id());
                try {
                    Value d = distance.get().evaluate(ctx.source().valueFactory(), v, g, unit);
                    exact.add(new Candidate(((Literal) d).doubleValue(), search.id()));
                } catch (ValueExprEvaluationException | ClassCastException | NumberFormatException e) {
                    return null;
                }
            }
            Candidate c = exact.poll();
            if (c == null || rows.size() >= keep && c.distance() > last) {
                return rows;
            }
            long[] row = input.clone();
            row[slot] = c.id();
            try (RowCursor matches = pattern.open(row, ctx)) {
                for (long[] r = matches.next(); r != null; r = matches.next()) {
                    rows.add(r);
                }
            }
            last = c.distance();
        }
    }
}
