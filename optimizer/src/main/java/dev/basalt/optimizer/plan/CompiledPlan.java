package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;

import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternScan;

/**
 * A compiled plan: its root operator, the variable slots, and the output: which slots become
 * which binding names. {@code projected} says the root was a SELECT projection, whose result
 * carries only the projected names.
 * Immutable once compiled; a kept plan is run by concurrent evaluations, each with its own {@link
 * ExecContext} (see {@link Operator}).
 */
public final class CompiledPlan {
    private final Operator root;
    private final VarTable vars;
    private final List<String> outputNames;
    private final int[] outputSlots;
    private final boolean projected;

    CompiledPlan(Operator root, VarTable vars, List<String> outputNames, int[] outputSlots, boolean projected) {
        this.root = root;
        this.vars = vars;
        this.outputNames = List.copyOf(outputNames);
        this.outputSlots = outputSlots.clone();
        this.projected = projected;
    }

    public Operator root() {
        return root;
    }

    public VarTable vars() {
        return vars;
    }

    public List<String> outputNames() {
        return outputNames;
    }

    public int[] outputSlots() {
        return outputSlots.clone();
    }

    public boolean isProjected() {
        return projected;
    }

    /** Labels of the pattern scans in evaluation order (depth first, left before right). */
    public List<String> scanOrder() {
        List<String> out = new ArrayList<>();
        collect(root, out);
        return out;
    }

    private static void collect(Operator op, List<String> out) {
        if (op instanceof PatternScan s) {
            out.add(s.label());
        }
        for (Operator c : op.children()) {
            collect(c, out);
        }
    }

    public String explain() {
        StringBuilder sb = new StringBuilder();
        root.explain(sb, 0);
        return sb.toString();
    }

    @Override
    public String toString() {
        return explain();
    }
}
