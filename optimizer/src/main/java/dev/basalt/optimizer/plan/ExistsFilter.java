package dev.basalt.optimizer.plan;

import java.util.List;

import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.RowCursor;
import dev.basalt.optimizer.exec.RowFilter;

/**
 * A condition whose top-level conjuncts include {@code EXISTS { ... }} or
 * {@code NOT EXISTS { ... }}: a semi-join (anti-semi-join) per row. Each EXISTS pattern is a plan
 * over the same slots as the outer rows, opened with the row's bindings (SPARQL's substitution:
 * the row's bound variables are fixed, its unbound ones are free) and stopped at its first row.
 * The other conjuncts are ordinary conditions, tested first; a row passes when every conjunct
 * holds (an error in a conjunct fails the row, as it fails the whole conjunction). A variable a BIND
 * left unbound by an error ({@link ExecContext#UNBOUND_BY_ERROR}) is not in the solution's domain, so
 * the substitution leaves it free in the pattern (SPARQL 1.1 section 18.6, substitute and Extend).
 * Not thread-safe: keeps per-evaluation state, so a plan with EXISTS is never kept for a query shape
 * and its filter is not run by helper threads; the one thread evaluating its query tests it.
 */
final class ExistsFilter implements RowFilter {
    /** One EXISTS conjunct: its correlated plan and whether it is negated. */
    record Exists(Operator plan, boolean negated) {
    }

    private final List<RowFilter> conditions;
    private final List<Exists> exists;

    ExistsFilter(List<RowFilter> conditions, List<Exists> exists) {
        this.conditions = List.copyOf(conditions);
        this.exists = List.copyOf(exists);
    }

    List<Exists> exists() {
        return exists;
    }

    @Override
    public boolean test(long[] row, ExecContext ctx) {
        for (RowFilter c : conditions) {
            if (!c.test(row, ctx)) {
                return false;
            }
        }
        long[] input = ExecContext.withErrorsUnbound(row);
        for (Exists e : exists) {
            boolean found;
            try (RowCursor c = e.plan().open(input, ctx)) {
                found = c.next() != null;
            }
            if (found == e.negated()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void prefetch(List<long[]> rows, ExecContext ctx) {
        for (RowFilter c : conditions) {
            c.prefetch(rows, ctx);
        }
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (RowFilter c : conditions) {
            sb.append(sb.length() == 0 ? "" : " && ").append(c.describe());
        }
        for (Exists e : exists) {
            sb.append(sb.length() == 0 ? "" : " && ").append(e.negated() ? "NOT EXISTS" : "EXISTS")
                    .append(" { ")
                    .append(e.plan().describe()).append(" }");
        }
        return sb.toString();
    }
}
