package dev.basalt.sail.inference;

/**
 * A set of triples of term ids: open addressing with linear probing over one long array, three
 * longs a slot (a triple whose subject is 0, the unbound id, is never stored, so 0 marks a free
 * slot). Keeps its triples in insertion order in a {@link TripleList} for iteration. Not
 * thread-safe.
 */
final class TripleSet {
    private long[] slots = new long[3 * 64];
    private int used;
    private final TripleList order = new TripleList();

    /** Adds a triple; false if it was present. */
    boolean add(long s, long p, long o) {
        if (contains(s, p, o)) {
            return false;
        }
        if (2 * (used + 1) > slots.length / 3) {
            grow();
        }
        insert(slots, s, p, o);
        used++;
        order.add(s, p, o);
        return true;
    }

    boolean contains(long s, long p, long o) {
        int n = slots.length / 3;
        for (int i = index(s, p, o, n);; i = (i + 1) % n) {
            long vs = slots[3 * i];
            if (vs == 0) {
                return false;
            }
            if (vs == s && slots[3 * i + 1] == p && slots[3 * i + 2] == o) {
                return true;
            }
        }
    }

    int size() {
        return used;
    }

    /** The triples in the order they were added. */
    TripleList list() {
        return order;
    }

    private void grow() {
        long[] bigger = new long[slots.length * 2];
        for (int i = 0; i < slots.length; i += 3) {
            if (slots[i] != 0) {
                insert(bigger, slots[i], slots[i + 1], slots[i + 2]);
            }
        }
        slots = bigger;
    }

    private static void insert(long[] table, long s, long p, long o) {
        int n = table.length / 3;
        int i = index(s, p, o, n);
        while (table[3 * i] != 0) {
            i = (i + 1) % n;
        }
        table[3 * i] = s;
        table[3 * i + 1] = p;
        table[3 * i + 2] = o;
    }

    private static int index(long s, long p, long o, int n) {
        long h = s * 0x9E3779B97F4A7C15L + p * 0xC2B2AE3D27D4EB4FL + o * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        return (int) Math.floorMod(h, (long) n);
    }
}
