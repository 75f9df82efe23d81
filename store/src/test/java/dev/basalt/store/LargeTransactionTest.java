package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One transaction far larger than the write-retention queue: pages are evicted, re-dirtied and freed many times. */
class LargeTransactionTest {
    @TempDir
    Path dir;

    @Test
    void manyRandomInsertsOfVariedSizesInOneTransaction() {
        Random rnd = new Random(Long.getLong("basalt.seed", 42));
        int n = Integer.getInteger("basalt.large.tx", 200_000);
        try (Store store = Store.open(dir.resolve("l.jnl"), StoreConfig.defaults())) {
            try (WriteTransaction tx = store.begin()) {
                BTree a = tx.tree("a");
                BTree b = tx.tree("b");
                for (int i = 0; i < n; i++) {
                    byte[] key = new byte[8 + (rnd.nextInt(8) == 0 ? rnd.nextInt(1000) : rnd.nextInt(60))];
                    rnd.nextBytes(key);
                    a.put(key, new byte[8]);
                    byte[] id = java.nio.ByteBuffer.allocate(8).putLong(i).array();
                    b.put(id, key);
                }
                tx.commit();
            }
            store.verify();
            try (Snapshot s = store.snapshot()) {
                assertEquals(n, s.tree("b").size());
            }
        }
    }
}
