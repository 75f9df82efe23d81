package dev.basalt.sail.read;

import dev.basalt.store.quads.QuadOrder;

/**
 * The two statement sets of a Basalt store. Each has its own statement indices (one B+tree per
 * key order, named {@code q.e.spoc}, {@code q.i.posc} ...), so a count of one set is a range
 * count of its own trees. A statement is in at most one set: adding it explicitly removes an
 * inferred copy, and an inferred copy of an explicit statement is not stored.
 *
 * <p>Thread-safe: an immutable enum.
 */
public enum StatementSet {
    EXPLICIT("q.e."),
    INFERRED("q.i.");

    private final String treePrefix;

    StatementSet(String treePrefix) {
        this.treePrefix = treePrefix;
    }

    public String treePrefix() {
        return treePrefix;
    }

    public String treeName(QuadOrder order) {
        return treePrefix + order.name();
    }
}
