package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.query.algebra.ValueExpr;

import dev.basalt.optimizer.exec.RowFilter;

/**
 * A filter of a join group not yet placed: the {@link PlanCompiler} places it right after the
 * operand that binds the last of its {@code slots}, and the {@link JoinCostModel} discounts an
 * operand that completes it; {@link ObjectRangePlanner} reads its {@code condition} for bounds on a
 * pattern's object. Immutable.
 */
record GroupFilter(RowFilter filter, SlotSet slots, ValueExpr condition) {
}
