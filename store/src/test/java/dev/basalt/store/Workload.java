package dev.basalt.store;

import dev.basalt.store.btree.BTree;

import java.nio.ByteBuffer;
import java.util.NavigableMap;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A deterministic write workload: commit {@code n} of seed {@code s} always makes the same changes,
 * so a test can rebuild the exact expected content of any commit point with a TreeMap and compare
 * it with what a store (after a crash, a corruption or a reopen) returns.
 */
final class Workload {
    static final String TREE = "data";
    private final long seed;
    private final int keySpace;
    private final int opsPerCommit;

    Workload(long seed, int keySpace, int opsPerCommit) {
        this.seed = seed;
        this.keySpace = keySpace;
        this.opsPerCommit = opsPerCommit;
    }

    static byte[] key(int k) {
        return ByteBuffer.allocate(8).putInt(k).putInt(~k).array();
    }

    /** Applies commit {@code n}'s changes to the model. */
    void apply(long n, NavigableMap<byte[], byte[]> model) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + n);
        for (int i = 0; i < opsPerCommit; i++) {
            byte[] k = key(r.nextInt(keySpace));
            if (r.nextInt(10) < 2) {
                model.remove(k);
            } else {
                model.put(k, value(n, i, r));
            }
        }
    }

    /** Applies commit {@code n}'s changes to a tree. */
    void apply(long n, BTree tree) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + n);
        for (int i = 0; i < opsPerCommit; i++) {
            byte[] k = key(r.nextInt(keySpace));
            if (r.nextInt(10) < 2) {
                tree.remove(k);
            } else {
                tree.put(k, value(n, i, r));
            }
        }
    }

    private static byte[] value(long n, int i, SplittableRandom r) {
        int len = r.nextInt(100) < 2 ? 300 + r.nextInt(3000) : 4 + r.nextInt(40);
        byte[] v = new byte[len];
        new Random(n * 31 + i).nextBytes(v);
        ByteBuffer.wrap(v).putInt(0, (int) n);
        return v;
    }

    static NavigableMap<byte[], byte[]> newModel() {
        return new TreeMap<>(java.util.Arrays::compareUnsigned);
    }

    NavigableMap<byte[], byte[]> modelAt(long commit) {
        NavigableMap<byte[], byte[]> m = newModel();
        for (long n = 1; n <= commit; n++) {
            apply(n, m);
        }
        return m;
    }
}
