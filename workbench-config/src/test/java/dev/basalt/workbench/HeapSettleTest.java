package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;

import org.junit.jupiter.api.Test;

/** The launcher's full collection before it announces the server: its setting and what it reports. */
class HeapSettleTest {

    @Test
    void onUnlessFalseAndAClearErrorOtherwise() {
        assertTrue(HeapSettle.enabled(null));
        assertTrue(HeapSettle.enabled(" "));
        assertTrue(HeapSettle.enabled("TRUE"));
        assertFalse(HeapSettle.enabled("false"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HeapSettle.enabled("no"));
        assertTrue(e.getMessage().contains(HeapSettle.PROPERTY) && e.getMessage().contains("'no'"), e.getMessage());
    }

    @Test
    void collectsAndSaysSo() {
        Object garbage = new byte[1 << 20];
        WeakReference<Object> ref = new WeakReference<>(garbage);
        garbage = null;
        HeapSettle.Outcome o = HeapSettle.run();
        assertTrue(o.collected(), "this JVM runs explicit collections: " + o);
        assertTrue(ref.get() == null, "the full collection left an unreachable array");
        assertTrue(o.usedAfter() <= o.committed(), o.toString());
        assertTrue(o.describe().startsWith("heap settled: a full collection in "), o.describe());
        assertTrue(new HeapSettle.Outcome(false, 0, 0, 0, 0).describe().contains("DisableExplicitGC"));
    }
}
