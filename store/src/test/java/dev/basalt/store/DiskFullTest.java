package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.JournalFullException;
import dev.basalt.store.journal.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Running out of space is a clear error and loses nothing: the transaction that hit it rolls back,
 * the last commit stays intact (also after a reopen), and the store keeps working. Checked against
 * the journal's size limit and, where the machine lets the test mount a small tmpfs, a real full
 * disk.
 */
class DiskFullTest {
    @TempDir
    Path dir;

    @Test
    void sizeLimitFailsCleanlyAndKeepsTheLastCommit() {
        StoreConfig cfg = StoreConfig.defaults().withJournal(StoreConfig.defaults().journal().withMaxFileBytes(3 << 20));
        fillUntilFull(dir.resolve("limited.jnl"), cfg, JournalFullException.class);
    }

    @Test
    void realFullDiskFailsCleanlyAndKeepsTheLastCommit() throws Exception {
        Path mount = dir.resolve("tmpfs");
        Files.createDirectories(mount);
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mount.toString()),
                "cannot mount a tmpfs here (needs root); the size-limit test covers the same path");
        try {
            fillUntilFull(mount.resolve("full.jnl"), StoreConfig.defaults(), StoreException.class);
        } finally {
            run("umount", mount.toString());
        }
    }

    private static boolean run(String... cmd) throws Exception {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    private void fillUntilFull(Path file, StoreConfig cfg, Class<? extends StoreException> expected) {
        Random rnd = new Random(1);
        int committed = 0;
        try (Store store = Store.open(file, cfg)) {
            try (WriteTransaction tx = store.begin()) {
                BTree t = tx.tree("t");
                for (int i = 0; i < 1000; i++) {
                    t.put(key(i), new byte[100]);
                }
                tx.commit();
                committed = 1000;
            }
            StoreException failure = null;
            for (int round = 0; round < 1000 && failure == null; round++) {
                WriteTransaction tx = store.begin();
                try {
                    BTree t = tx.tree("t");
                    for (int i = 0; i < 2000; i++) {
                        byte[] v = new byte[50 + rnd.nextInt(400)];
                        rnd.nextBytes(v);
                        t.put(key(committed + i), v);
                    }
                    tx.commit();
                    committed += 2000;
                } catch (StoreException e) {
                    failure = e;
                    tx.rollback();
                }
            }
            assertTrue(failure != null, "the store never filled up");
            assertTrue(expected.isInstance(failure), "unexpected " + failure);
            assertTrue(failure.getMessage().contains(file.toString()), failure.getMessage());
            try (Snapshot s = store.snapshot()) {
                assertEquals(committed, s.tree("t").size());
            }
            // still usable: a small change that fits commits
            try (WriteTransaction tx = store.begin()) {
                tx.tree("t").remove(key(0));
                tx.commit();
                committed--;
            }
        }
        try (Store store = Store.open(file, cfg); Snapshot s = store.snapshot()) {
            assertEquals(committed, s.tree("t").size());
            assertEquals(committed, store.verify().trees().get("t").entries());
        }
    }
}
