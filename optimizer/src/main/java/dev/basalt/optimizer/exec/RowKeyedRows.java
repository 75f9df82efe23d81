package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link KeyedRows} for a key of any number of slots (none included: every row then has the one empty key): a
 * hash map from each {@link RowKey} to the first and last row of its chain. A probe makes a key.
 *
 * <p>Not thread-safe: one open's.
 */
final class RowKeyedRows extends KeyedRows {
    /** Per key: its first and its last row. */
    private final Map<RowKey, int[]> chains = new HashMap<>();

    RowKeyedRows(int[] keySlots) {
        super(keySlots);
    }

    @Override
    int link(long[] row, int index) {
        int[] chain = chains.get(new RowKey(row, keySlots));
        if (chain == null) {
            chains.put(new RowKey(row, keySlots), new int[] { index, index });
            return -1;
        }
        int last = chain[1];
        chain[1] = index;
        return last;
    }

    @Override
    int first(long[] probe) {
        int[] chain = chains.get(new RowKey(probe, keySlots));
        return chain == null ? -1 : chain[0];
    }

    @Override
    int keys() {
        return chains.size();
    }

    @Override
    int[] firstsInKeyOrder() {
        List<Map.Entry<RowKey, int[]>> entries = new ArrayList<>(chains.entrySet());
        entries.sort((a, b) -> Arrays.compareUnsigned(a.getKey().ids, b.getKey().ids));
        int[] firsts = new int[entries.size()];
        for (int i = 0; i < firsts.length; i++) {
            firsts[i] = entries.get(i).getValue()[0];
        }
        return firsts;
    }
}
