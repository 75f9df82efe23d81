package dev.basalt.store;

import dev.basalt.store.journal.JournalLockedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A second process opening a store another process holds gets a clear error, and can open it after. */
class TwoProcessTest {
    @TempDir
    Path dir;

    @Test
    void secondProcessIsRefusedWithAClearError() throws Exception {
        Path file = dir.resolve("shared.jnl");
        try (Store s = Store.open(file, StoreConfig.defaults()); WriteTransaction tx = s.begin()) {
            tx.tree("t").put(new byte[]{1}, new byte[]{2});
            tx.commit();
        }
        Process child = ChildProcess.start(LockChild.class, file.toString());
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream()));
            assertEquals("OPEN 1", r.readLine());
            JournalLockedException e = assertThrows(JournalLockedException.class,
                    () -> Store.open(file, StoreConfig.defaults()));
            assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("another process"),
                    e.getMessage());
        } finally {
            child.getOutputStream().close();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        try (Store s = Store.open(file, StoreConfig.defaults()); Snapshot snap = s.snapshot()) {
            assertEquals(1, snap.tree("t").size());
        }
    }
}
