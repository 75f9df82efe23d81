package dev.basalt.optimizer.exec;

import java.util.List;

/**
 * One BIND / SELECT expression of an {@link ExtendOp}: sets its target slot in each row of a batch
 * (the rows belong to the caller and are changed in place). An expression that cannot be
 * evaluated for a row leaves that row's target as it was (normally unbound).
 * Implementations keep per-evaluation state in the context or in a volatile holder, as a kept plan's
 * bindings serve concurrent evaluations; one evaluation applies a binding from one thread.
 */
public interface RowBinding {
    void apply(List<long[]> rows, ExecContext ctx);

    /** The binding as SPARQL-like text, for EXPLAIN. */
    String describe();
}
