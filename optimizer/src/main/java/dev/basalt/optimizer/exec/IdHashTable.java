package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * The matches of one pattern by the ids of their key slots, held by columns for the batch form of
 * {@link PatternHashJoin}: per match only the ids a probe adds (the pattern's variables outside the
 * key, its {@code payloadSlots}), in one array; an open-addressing table (linear probing) holds per
 * key, side by side, the key's ids, its first match and that match's payload, and matches of one key
 * are chained in scan order. A probe of a key with one match reads one place (one cache miss on a
 * table larger than the caches), where the row table reads three and copies a row object.
 * Built past {@link ExecLimits#hashJoinRows()} matches it is not made ({@link #build} gives null).
 * Immutable once built: the threads of one evaluation probe it at once.
 */
final class IdHashTable {
    private final int[] keySlots;
    private final int[] payloadSlots;
    /** Per table slot: the first match's index + 1 (0 = empty), the key's ids, the first match's payload. */
    private final long[] slots;
    private final int stride;
    private final int mask;
    /** Per match: the index of the next match of its key, or -1. */
    private final int[] next;
    /** Per match: its ids in the payload slots. */
    private final long[] payload;

    private IdHashTable(int[] keySlots, int[] payloadSlots, long[] keys, long[] payload, int matches) {
        this.keySlots = keySlots;
        this.payloadSlots = payloadSlots;
        this.payload = payload;
        int k = keySlots.length;
        int p = payloadSlots.length;
        this.stride = k + 1 + p;
        // the least power of two above 4/3 of the matches: at most three quarters full, and never full, so
        // that a probe of an absent key always reaches an empty slot (a full table of one or two matches
        // made such a probe loop for ever)
        int capacity = Integer.highestOneBit((matches + matches / 3 + 1) * 2 - 1);
        this.mask = capacity - 1;
        this.slots = new long[capacity * stride];
        this.next = new int[matches];
        long touched = 0;
        for (int i = matches - 1; i >= 0; i--) {
            if (k == 1 && (matches - 1 - i) % TOUCH == 0) {
                // the slots of the next matches are read first, side by side (see find(Batch, int[]))
                int m = Math.min(TOUCH, i + 1);
                for (int j = 0; j < m; j++) {
                    touched += slots[(hash(keys[i - j] * MIX) & mask) * stride];
                }
            }
            int at = find(keys, i * k);
            if (slots[at] != 0) {
                next[i] = (int) slots[at] - 1;
            } else {
                next[i] = -1;
                System.arraycopy(keys, i * k, slots, at + 1, k);
            }
            slots[at] = i + 1;
            System.arraycopy(payload, i * p, slots, at + 1 + k, p);
        }
        sink = touched;
    }

    /**
     * The matches of {@code right} opened on {@code input}, keyed on {@code keySlots}, or null past
     * {@link ExecLimits#hashJoinRows()} matches.
     */
    static IdHashTable build(PatternScan right, long[] input, ExecContext ctx, int[] keySlots) {
        int[] payloadSlots = Arrays.stream(right.slots())
                .filter(s -> s >= 0 && Arrays.stream(keySlots).noneMatch(k -> k == s)).distinct().toArray();
        long budget = ctx.limits().hashJoinRows();
        int k = keySlots.length;
        int p = payloadSlots.length;
        long[] keys = new long[Math.max(k, 1) * 1024];
        long[] payload = new long[Math.max(p, 1) * 1024];
        int n = 0;
        try (BatchCursor c = right.openBatch(input, ctx)) {
            Batch b;
            while ((b = c.next()) != null) {
                if (n + b.size > budget) {
                    return null;
                }
                if ((n + b.size) * k > keys.length) {
                    keys = Arrays.copyOf(keys, Math.max(keys.length * 2, (n + b.size) * k));
                }
                if ((n + b.size) * p > payload.length) {
                    payload = Arrays.copyOf(payload, Math.max(payload.length * 2, (n + b.size) * p));
                }
                for (int j = 0; j < k; j++) {
                    long[] col = b.cols[keySlots[j]];
                    for (int i = 0; i < b.size; i++) {
                        keys[(n + i) * k + j] = col[i];
                    }
                }
                for (int j = 0; j < p; j++) {
                    long[] col = b.cols[payloadSlots[j]];
                    for (int i = 0; i < b.size; i++) {
                        payload[(n + i) * p + j] = col[i];
                    }
                }
                n += b.size;
            }
        }
        return new IdHashTable(keySlots, payloadSlots, keys, payload, n);
    }

    private static final long MIX = 0x9E3779B97F4A7C15L;
    /** Keys whose slots are read before any is compared. */
    private static final int TOUCH = 256;

    private static int hash(long h) {
        return (int) (h ^ h >>> 29);
    }

    /** The array index of the slot holding the key at {@code keys[from..]}, or of the empty slot where it belongs. */
    private int find(long[] keys, int from) {
        long h = 0;
        for (int j = 0; j < keySlots.length; j++) {
            h = (h + keys[from + j]) * 0x9E3779B97F4A7C15L;
        }
        int slot = hash(h) & mask;
        while (true) {
            int at = slot * stride;
            if (slots[at] == 0 || Arrays.equals(slots, at + 1, at + 1 + keySlots.length, keys, from, from + keySlots.length)) {
                return at;
            }
            slot = slot + 1 & mask;
        }
    }

    /**
     * {@link #find(Batch, int)} of every row of {@code b} into {@code at}. With one key slot, the
     * table slots of all rows are read first in a loop of independent loads, so that the processor
     * has many cache misses under way at once instead of one per probe; the probes then find them
     * in the cache.
     */
    void findAll(Batch b, int[] at) {
        int n = b.size;
        if (keySlots.length == 1) {
            long[] keys = b.cols[keySlots[0]];
            long touched = 0;
            for (int i = 0; i < n; i++) {
                int slot = (hash(keys[i] * MIX) & mask) * stride;
                at[i] = slot;
                touched += slots[slot];
            }
            sink = touched;
        }
        for (int i = 0; i < n; i++) {
            at[i] = find(b, i);
        }
    }

    /** Keeps the loads of {@link #findAll} from being left out as unused. */
    @SuppressWarnings("unused")
    private static volatile long sink;

    /** The table slot (array index) of row {@code i} of {@code b}'s key, or -1 if it has no match. */
    int find(Batch b, int i) {
        long[][] cols = b.cols;
        if (keySlots.length == 1) {
            long key = cols[keySlots[0]][i];
            long h = key * 0x9E3779B97F4A7C15L;
            int slot = hash(h) & mask;
            while (true) {
                int at = slot * stride;
                long first = slots[at];
                if (first == 0) {
                    return -1;
                }
                if (slots[at + 1] == key) {
                    return at;
                }
                slot = slot + 1 & mask;
            }
        }
        long h = 0;
        for (int s : keySlots) {
            h = (h + cols[s][i]) * 0x9E3779B97F4A7C15L;
        }
        int slot = hash(h) & mask;
        while (true) {
            int at = slot * stride;
            if (slots[at] == 0) {
                return -1;
            }
            boolean same = true;
            for (int j = 0; j < keySlots.length && same; j++) {
                same = slots[at + 1 + j] == cols[keySlots[j]][i];
            }
            if (same) {
                return at;
            }
            slot = slot + 1 & mask;
        }
    }

    /** The match after the first of the key in table slot {@code at}, or -1. */
    int second(int at) {
        return next[(int) slots[at] - 1];
    }

    /** The match after {@code match} of the same key, or -1. */
    int next(int match) {
        return next[match];
    }

    /** Sets the payload slots of row {@code n} of {@code out} that it leaves unbound to the first match of table slot {@code at}. */
    void bindFirst(Batch out, int n, int at) {
        long[][] cols = out.cols;
        int from = at + 1 + keySlots.length;
        for (int j = 0; j < payloadSlots.length; j++) {
            long[] col = cols[payloadSlots[j]];
            if (col[n] == 0) {
                col[n] = slots[from + j];
            }
        }
    }

    /** Sets the payload slots of row {@code n} of {@code out} that it leaves unbound to {@code match}'s ids. */
    void bind(Batch out, int n, int match) {
        long[][] cols = out.cols;
        int p = payloadSlots.length;
        for (int j = 0; j < p; j++) {
            long[] col = cols[payloadSlots[j]];
            if (col[n] == 0) {
                col[n] = payload[match * p + j];
            }
        }
    }
}
