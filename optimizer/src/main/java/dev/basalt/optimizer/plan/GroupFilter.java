package dev.basalt.optimizer.plan;

import dev.basalt.optimizer.exec.RowFilter;

/**
 * A filter of a join group not yet placed: the {@link PlanCompiler} places it right after the
 * operand that binds the last of its {@code slots}, and the {@link JoinCostModel} discounts an
 * operand that completes it. Immutable.
 */
record GroupFilter(RowFilter filter, SlotSet slots) {
}
