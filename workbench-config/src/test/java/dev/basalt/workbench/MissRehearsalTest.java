package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

import org.junit.jupiter.api.Test;

/**
 * The launcher asks every store MBean for its miss rehearsal and reports each answer, a failing store included,
 * without stopping; other MBeans are not asked.
 */
class MissRehearsalTest {
    /** The one operation the launcher calls, as a store publishes it. */
    public interface Rehearsing {
        String rehearseColdReads();
    }

    @Test
    void asksEveryStoreAndReportsEachAnswer() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName good = new ObjectName("dev.basalt:type=Store,store=\"/data/good\"");
        ObjectName bad = new ObjectName("dev.basalt:type=Store,store=\"/data/bad\"");
        ObjectName other = new ObjectName("dev.basalt:type=NativeQueries,store=\"/data/good\"");
        int[] otherCalls = { 0 };
        server.registerMBean(new StandardMBean((Rehearsing) () -> "rehearsed 3 leaves", Rehearsing.class), good);
        server.registerMBean(new StandardMBean((Rehearsing) () -> {
            throw new IllegalStateException("the store is closed");
        }, Rehearsing.class), bad);
        server.registerMBean(new StandardMBean((Rehearsing) () -> {
            otherCalls[0]++;
            return "not a store";
        }, Rehearsing.class), other);
        try {
            List<String> lines = MissRehearsal.run();
            assertEquals(2, lines.size(), lines.toString());
            assertTrue(lines.contains("\"/data/good\": rehearsed 3 leaves"), lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("\"/data/bad\": cache-miss rehearsal failed")
                    && l.contains("the store is closed")), lines.toString());
            assertEquals(0, otherCalls[0], "only stores are asked");
        } finally {
            server.unregisterMBean(good);
            server.unregisterMBean(bad);
            server.unregisterMBean(other);
        }
    }

    @Test
    void onUnlessTurnedOff() {
        assertTrue(MissRehearsal.enabled(null));
        assertTrue(MissRehearsal.enabled(" TRUE "));
        assertFalse(MissRehearsal.enabled("false"));
        assertThrows(IllegalArgumentException.class, () -> MissRehearsal.enabled("sometimes"));
    }
}
