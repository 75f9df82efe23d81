package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.Compare.CompareOp;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ObjectRanges;
import dev.basalt.optimizer.exec.PatternScan;

/**
 * Gives a pattern of a join group bounds on its object from the group's FILTERs: where a top-level
 * conjunct of a filter compares the pattern's object variable with a constant ({@code <, <=, >, >=, =}),
 * and the constant is an inline integer, date or dateTime, the pattern reads only the object ids that
 * can pass ({@link ObjectRanges}, by an ordered scan between them, {@code RangeScan}), and its estimate
 * is the share of its matches in them (a sample of {@value #SAMPLE} matches spread over the pattern's
 * order), for a plan kept per query shape with the constants of the query that compiles it
 * ({@link QuadSource#plannedConditionValues}). The filter stays where the compiler places it and decides every row. The ranges apply where the
 * pattern is opened with its subject free (a lookup of one subject's objects reads its few matches as
 * before). Not for a pattern whose subject or object is a constant, whose object repeats a variable of the
 * pattern, or one restricted to a dataset's graphs.
 * Stateless, so thread-safe.
 */
final class ObjectRangePlanner {
    static final int SAMPLE = 256;

    private ObjectRangePlanner() {
    }

    /** Replaces the patterns of {@code atoms} that the {@code filters} bound by their ranged scans. */
    static void apply(List<JoinOperand> atoms, List<GroupFilter> filters, VarTable vars, QuadSource source) {
        if (filters.isEmpty()) {
            return;
        }
        for (int i = 0; i < atoms.size(); i++) {
            JoinOperand a = atoms.get(i);
            PatternScan ranged = a.scan == null ? null : ranged(a.scan, filters, vars, source);
            if (ranged != null) {
                atoms.set(i, new JoinOperand(ranged, ranged, a.assured, a.mentioned, a.expr));
            }
        }
    }

    private static PatternScan ranged(PatternScan scan, List<GroupFilter> filters, VarTable vars, QuadSource source) {
        int[] slots = scan.slots();
        long[] constants = scan.constants();
        int o = slots[2];
        if (o < 0 || constants[2] != 0 || constants[0] != 0 || scan.contexts() != null || scan.matchesNothing()
                || slots[0] == o || slots[1] == o || slots[3] == o) {
            return null;
        }
        String name = vars.name(o);
        List<ObjectRanges.Bound> bounds = new ArrayList<>();
        List<String> text = new ArrayList<>();
        for (GroupFilter f : filters) {
            if (f.condition() != null) {
                collect(f.condition(), name, bounds, text);
            }
        }
        if (bounds.isEmpty()) {
            return null;
        }
        ObjectRanges ranges = new ObjectRanges(bounds, String.join(" && ", text));
        // the compiling query's own constants (a kept plan's sentinels bound nothing useful to estimate with)
        long[] intervals = ranges.intervals(source.plannedConditionValues(), source);
        if (intervals == null) {
            return null;
        }
        return scan.withObjectRanges(ranges, intervals, share(source, constants, intervals));
    }

    /** The part of the pattern's matches whose object lies in {@code intervals}, from a sample spread over them. */
    private static double share(QuadSource source, long[] pattern, long[] intervals) {
        long[][] sample = source.sample(pattern, SAMPLE);
        if (sample.length == 0) {
            return 1;
        }
        int in = 0;
        for (long[] q : sample) {
            if (ObjectRanges.contains(intervals, q[2])) {
                in++;
            }
        }
        return Math.max(in, 0.5) / sample.length;
    }

    /** Adds the comparisons of {@code ?name} with a constant among the conjuncts of {@code e}. */
    private static void collect(ValueExpr e, String name, List<ObjectRanges.Bound> bounds, List<String> text) {
        if (e instanceof And and) {
            collect(and.getLeftArg(), name, bounds, text);
            collect(and.getRightArg(), name, bounds, text);
            return;
        }
        if (!(e instanceof Compare c)) {
            return;
        }
        Value right = constant(c.getRightArg());
        Value left = constant(c.getLeftArg());
        if (isVar(c.getLeftArg(), name) && right != null) {
            bounds.add(new ObjectRanges.Bound(c.getOperator(), right));
            text.add("?" + name + " " + c.getOperator().getSymbol() + " " + right);
        } else if (isVar(c.getRightArg(), name) && left != null) {
            CompareOp flipped = flip(c.getOperator());
            bounds.add(new ObjectRanges.Bound(flipped, left));
            text.add("?" + name + " " + flipped.getSymbol() + " " + left);
        }
    }

    private static boolean isVar(ValueExpr e, String name) {
        return e instanceof Var v && !v.hasValue() && v.getName().equals(name);
    }

    private static Value constant(ValueExpr e) {
        if (e instanceof ValueConstant c) {
            return c.getValue();
        }
        return e instanceof Var v && v.hasValue() ? v.getValue() : null;
    }

    /** The operator with its sides swapped: {@code c < ?o} is {@code ?o > c}. */
    private static CompareOp flip(CompareOp op) {
        return switch (op) {
            case LT -> CompareOp.GT;
            case LE -> CompareOp.GE;
            case GT -> CompareOp.LT;
            case GE -> CompareOp.LE;
            default -> op;
        };
    }
}
