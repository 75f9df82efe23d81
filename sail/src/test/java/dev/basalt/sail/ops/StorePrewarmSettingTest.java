package dev.basalt.sail.ops;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code -Dbasalt.store.prewarm}: on unless {@code false}; anything but a boolean is a clear error. */
class StorePrewarmSettingTest {
    @Test
    void onUnlessFalse() {
        assertTrue(StorePrewarm.enabled(null));
        assertTrue(StorePrewarm.enabled(""));
        assertTrue(StorePrewarm.enabled("true"));
        assertTrue(StorePrewarm.enabled(" TRUE "));
        assertFalse(StorePrewarm.enabled("false"));
        assertFalse(StorePrewarm.enabled("False"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StorePrewarm.enabled("off"));
        assertTrue(e.getMessage().contains(StorePrewarm.PROPERTY) && e.getMessage().contains("'off'"), e.getMessage());
    }
}
