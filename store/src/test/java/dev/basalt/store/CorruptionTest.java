package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Damages a store file at random (truncation, flipped bytes) and checks that opening and reading
 * it either falls back to an earlier valid commit point whose content is exactly right, or fails
 * with an error that names the fault; a wrong read is the one thing that must never happen.
 */
class CorruptionTest {
    private static final int COMMITS = 12;

    @TempDir
    Path dir;

    @Test
    void truncationAndBitFlipsNeverReadWrong() throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Workload w = new Workload(seed, 5_000, 400);
        Path pristine = dir.resolve("pristine.jnl");
        try (Store store = Store.open(pristine, StoreConfig.defaults())) {
            for (long n = 1; n <= COMMITS; n++) {
                try (WriteTransaction tx = store.begin()) {
                    w.apply(n, tx.tree(Workload.TREE));
                    tx.commit();
                }
            }
        }
        Map<Long, NavigableMap<byte[], byte[]>> models = new TreeMap<>();
        for (long c = 0; c <= COMMITS; c++) {
            models.put(c, w.modelAt(c));
        }
        long size = Files.size(pristine);
        int opened = 0;
        int refused = 0;
        int detectedOnRead = 0;
        for (int trial = 0; trial < 300; trial++) {
            Path f = dir.resolve("t" + trial + ".jnl");
            Files.copy(pristine, f, StandardCopyOption.REPLACE_EXISTING);
            String what;
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                if (trial % 3 == 0) {
                    long len = (long) (rnd.nextDouble() * size);
                    raf.setLength(len);
                    what = "truncated to " + len;
                } else {
                    int flips = 1 + rnd.nextInt(4);
                    StringBuilder sb = new StringBuilder("flipped");
                    for (int i = 0; i < flips; i++) {
                        // half the flips aim at the header and root blocks, the rest anywhere
                        long off = rnd.nextBoolean() ? rnd.nextInt(12288) : (long) (rnd.nextDouble() * size);
                        raf.seek(off);
                        int b = raf.read();
                        raf.seek(off);
                        raf.write(b ^ (1 << rnd.nextInt(8)));
                        sb.append(' ').append(off);
                    }
                    what = sb.toString();
                }
            }
            String ctx = "seed=" + seed + " trial " + trial + " (" + what + ")";
            Store store;
            try {
                store = Store.open(f, StoreConfig.defaults());
            } catch (StoreException e) {
                assertNotNull(e.getMessage(), ctx);
                assertTrue(e.getMessage().contains(f.toString()) || e.getMessage().contains("address"),
                        ctx + ": error does not name the file or address: " + e.getMessage());
                refused++;
                continue;
            }
            try (store) {
                long c = store.stats().journal().commitCounter();
                assertTrue(c == COMMITS || c == COMMITS - 1, ctx + ": opened at commit " + c);
                try (Snapshot s = store.snapshot()) {
                    BTree t = s.tree(Workload.TREE);
                    NavigableMap<byte[], byte[]> expected = models.get(c);
                    assertEquals(expected.size(), t.size(), ctx);
                    StoreModelTest.scan(t, expected, null, null, false, ctx);
                    store.verify();
                    opened++;
                } catch (StoreException e) {
                    assertTrue(e.getMessage().contains("address") || e.getMessage().contains(f.toString()),
                            ctx + ": unclear error " + e.getMessage());
                    detectedOnRead++;
                } catch (AssertionError e) {
                    throw e;
                } catch (RuntimeException e) {
                    fail(ctx + ": damage surfaced as " + e + " instead of a StoreException", e);
                }
            }
            Files.delete(f);
        }
        assertEquals(300, opened + refused + detectedOnRead);
        assertTrue(opened > 0 && refused > 0, "opened " + opened + ", refused " + refused + ", detected " + detectedOnRead);
    }
}
