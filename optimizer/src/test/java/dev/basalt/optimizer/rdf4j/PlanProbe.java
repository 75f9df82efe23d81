package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.query.algebra.QueryRoot;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.plan.CompiledPlan;

/**
 * Test helpers for comparing a {@link NativeRunner}'s answers and reading the plan it ran: sorted rows
 * of Basalt and of MemoryStore, the last plan, and its operators of one class; and a number mix for
 * making test shops. Stateless.
 */
final class PlanProbe {
    /** The joins hint forcing hash and merge joins (and group joins by scans), to put into a group. */
    static final String HASH_MERGE = " . [] <http://basalt.dev/hint#joins> \"hash-merge\" ";
    /** The joins hint forcing index lookups, to put into a group. */
    static final String NESTED_LOOP = " . [] <http://basalt.dev/hint#joins> \"nested-loop\" ";

    private PlanProbe() {
    }

    /** A number spread over the ints by {@code n}, so that a test shop's relations do not line up. */
    static int mix(int n) {
        return (int) ((n * 2_654_435_761L >>> 9) & 0x7fff_ffff);
    }

    /** Basalt's rows of {@code query}, as text, sorted. */
    static List<String> basalt(NativeRunner runner, String query) {
        List<String> rows = SolutionModifiersTest.rows(runner.basalt(query));
        rows.sort(null);
        return rows;
    }

    /** MemoryStore's rows of {@code query}, as text, sorted. */
    static List<String> memory(NativeRunner runner, String query) {
        List<String> rows = SolutionModifiersTest.rows(runner.memory(query));
        rows.sort(null);
        return rows;
    }

    /** The Basalt plan of the runner's last query. */
    static CompiledPlan plan(NativeRunner runner) {
        return ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan();
    }

    /** The operators of class {@code type} in the runner's last plan, depth first. */
    static <T extends Operator> List<T> operators(NativeRunner runner, Class<T> type) {
        List<T> out = new ArrayList<>();
        collect(plan(runner).root(), type, out);
        return out;
    }

    private static <T extends Operator> void collect(Operator op, Class<T> type, List<T> out) {
        if (type.isInstance(op)) {
            out.add(type.cast(op));
        }
        for (Operator c : op.children()) {
            collect(c, type, out);
        }
    }
}
