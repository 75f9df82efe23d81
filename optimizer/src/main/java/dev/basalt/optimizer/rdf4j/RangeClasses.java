package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Value;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.GroupJoinOp;
import dev.basalt.optimizer.exec.ObjectRanges;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternScan;

/**
 * The range class of a query of a kept plan ({@link ShapePlans}) whose group joins ({@link GroupJoinOp}) read a
 * pattern's object ranges bounded by a FILTER's constants ({@link ObjectRanges}): per such pattern, the share of
 * its matches that the query's ranges hold, as a power of {@value #BASE} (rounded up: every share above a quarter
 * is one class). A group join's reads (every pattern scanned, two joined by key partitions, or one looked up per
 * key of another) follow the compiling query's share, so {@link ShapePlans} keeps one plan per class: a query
 * whose ranges hold a share at least {@value #BASE} times smaller or larger than the compiling query's compiles a
 * plan of its own class instead of running one chosen for another (with the plan of one of BSBM BI query 3's
 * smallest months, which looks reviews up per key of the month's dates, a large month, past the lookups' bound,
 * would scan every review and probe its month's whole key table instead of joining them by key partitions). Ranged
 * patterns of ordinary joins do not class queries: their join orders change less with the share, and shapes
 * such as BSBM Q3's, with two ranges of random constants, would keep a dozen plans. Shares are counted in one
 * sample of each pattern's matches, taken when the plan is compiled ({@value #SAMPLE} object ids, as the planner
 * samples them), against each query's intervals: the class costs a query no read of the store. Classes per shape
 * are bounded by the sample: at most six per ranged pattern.
 * Thread rules: immutable after construction; shared by the concurrent evaluations of a shape.
 */
final class RangeClasses {
    static final int BASE = 4;
    static final int SAMPLE = 256;
    private final ObjectRanges[] ranges;
    /** Per ranged pattern: the object ids of its sampled matches. */
    private final long[][] objects;

    private RangeClasses(ObjectRanges[] ranges, long[][] objects) {
        this.ranges = ranges;
        this.objects = objects;
    }

    /**
     * The ranged patterns of the plan {@code root} with a sample of each one's matches read through {@code source}
     * (the source the plan is compiled over), or null if no pattern of the plan reads object ranges.
     */
    static RangeClasses of(Operator root, QuadSource source) {
        List<PatternScan> ranged = new ArrayList<>();
        collect(root, ranged);
        if (ranged.isEmpty()) {
            return null;
        }
        ObjectRanges[] ranges = new ObjectRanges[ranged.size()];
        long[][] objects = new long[ranged.size()][];
        for (int i = 0; i < ranges.length; i++) {
            PatternScan scan = ranged.get(i);
            ranges[i] = scan.objectRanges();
            long[][] sample = source.sample(scan.constants(), SAMPLE);
            objects[i] = new long[sample.length];
            for (int m = 0; m < sample.length; m++) {
                objects[i][m] = sample[m][2];
            }
        }
        return new RangeClasses(ranges, objects);
    }

    /** The ranged patterns of the group joins under {@code op}. */
    private static void collect(Operator op, List<PatternScan> out) {
        for (Operator c : op.children()) {
            if (op instanceof GroupJoinOp && c instanceof PatternScan scan && scan.objectRanges() != null) {
                out.add(scan);
            }
            collect(c, out);
        }
    }

    /**
     * The class of a query whose condition constants are {@code values} (sentinel to value): per ranged pattern
     * the exponent of its share, joined by commas; a pattern whose ranges bound nothing for the query counts
     * as reading all its matches.
     */
    String classOf(Map<Value, Value> values, QuadSource source) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ranges.length; i++) {
            long[] intervals = ranges[i].intervals(values, source);
            int in = 0;
            for (long o : objects[i]) {
                if (intervals == null || ObjectRanges.contains(intervals, o)) {
                    in++;
                }
            }
            double share = objects[i].length == 0 ? 1 : Math.max(in, 0.5) / objects[i].length;
            int exponent = (int) Math.ceil(Math.log(share) / Math.log(BASE) - 1e-9);
            sb.append(i == 0 ? "" : ",").append(exponent);
        }
        return sb.toString();
    }
}
