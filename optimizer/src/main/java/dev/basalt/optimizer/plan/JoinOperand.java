package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.query.algebra.TupleExpr;

import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternScan;

/**
 * One operand of a flattened join group: a pattern ({@code scan} set, and {@code op} the same scan)
 * or another operator (a UNION, an OPTIONAL or filtered sub-group, a path, a BIND...) with
 * {@code scan} null. {@code assured} holds the slots every row of the operand binds,
 * {@code mentioned} the slots it may bind. The {@link PlanCompiler} makes operands, the
 * {@link JoinOrderer} and {@link JoinChoice} order them, and the compiler joins them in that order.
 *
 * <p>Used by the one thread compiling a query; {@link #runtimeRows} is set while the group is ordered.
 */
final class JoinOperand {
    final PatternScan scan;
    final Operator op;
    final SlotSet assured;
    final SlotSet mentioned;
    /** The algebra of an operand other than a pattern, compiled again when it is correlated; else null. */
    final TupleExpr expr;
    /** Rows after this operand as the runtime optimizer estimated them, -1 if it did not order the group. */
    double runtimeRows = -1;

    JoinOperand(PatternScan scan, Operator op, SlotSet assured, SlotSet mentioned, TupleExpr expr) {
        this.scan = scan;
        this.op = op;
        this.assured = assured;
        this.mentioned = mentioned;
        this.expr = expr;
    }
}
