package dev.basalt.optimizer.exec;

/**
 * The groups of a GROUP BY on one slot by the raw id in that slot, for {@link GroupOp}'s batch form:
 * an open-addressing table (linear probing) of primitive ids to objects, so that the rows of a group
 * already seen find it without a key object or a boxed id. Any id may be a key, 0 included. It is an
 * index over groups the operator holds by their {@link RowKey}: two ids may map to the same group
 * (unbound and unbound by error), which the caller decides.
 * Not thread-safe: one open's.
 */
final class IdGroupIndex<G> {
    private long[] keys = new long[64];
    private Object[] groups = new Object[64];
    private int size;

    /** The group of {@code id}, or null. */
    @SuppressWarnings("unchecked")
    G get(long id) {
        int mask = keys.length - 1;
        for (int at = slot(id, mask);; at = at + 1 & mask) {
            Object g = groups[at];
            if (g == null || keys[at] == id) {
                return (G) g;
            }
        }
    }

    /** Maps {@code id} to {@code group} (not null); {@code id} must not be held yet. */
    void put(long id, G group) {
        if ((size + 1) * 4 > keys.length * 3) {
            grow();
        }
        insert(id, group);
        size++;
    }

    private void insert(long id, Object group) {
        int mask = keys.length - 1;
        int at = slot(id, mask);
        while (groups[at] != null) {
            at = at + 1 & mask;
        }
        keys[at] = id;
        groups[at] = group;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldGroups = groups;
        keys = new long[oldKeys.length * 2];
        groups = new Object[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldGroups[i] != null) {
                insert(oldKeys[i], oldGroups[i]);
            }
        }
    }

    private static int slot(long id, int mask) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ h >>> 32) & mask;
    }
}
