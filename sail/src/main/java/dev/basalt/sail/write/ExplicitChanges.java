package dev.basalt.sail.write;

import dev.basalt.sail.inference.TripleList;

/**
 * The explicit triples a write transaction added and removed, for the reasoner's incremental
 * maintenance at commit. Past {@link #LIMIT} changes, or after a clear, it stops recording and
 * reports an overflow: the commit then recomputes the closure, which is cheaper than maintaining
 * it for that many changes. Owned by one {@link WriteSession}; not thread-safe.
 */
final class ExplicitChanges {
    /** Changes recorded before the commit recomputes the closure instead. */
    static final int LIMIT = 1_000_000;
    private final TripleList added = new TripleList();
    private final TripleList removed = new TripleList();
    private boolean overflowed;

    void added(long[] quad) {
        record(added, quad);
    }

    void removed(long[] quad) {
        record(removed, quad);
    }

    private void record(TripleList list, long[] quad) {
        if (overflowed) {
            return;
        }
        if (added.size() + removed.size() >= LIMIT) {
            overflow();
            return;
        }
        list.add(quad[0], quad[1], quad[2]);
    }

    void overflow() {
        overflowed = true;
        added.clear();
        removed.clear();
    }

    boolean overflowed() {
        return overflowed;
    }

    boolean isEmpty() {
        return !overflowed && added.isEmpty() && removed.isEmpty();
    }

    TripleList added() {
        return added;
    }

    TripleList removed() {
        return removed;
    }

    void clear() {
        added.clear();
        removed.clear();
        overflowed = false;
    }
}
