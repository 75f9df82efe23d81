package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** {@link IdSet} and {@link IdQueue} against the JDK's collections on random ids, through many growths. */
class IdSetTest {
    @Test
    void behavesAsAHashSet() {
        Random r = new Random(3);
        IdSet set = new IdSet();
        Set<Long> model = new HashSet<>();
        for (int i = 0; i < 200_000; i++) {
            // a narrow range gives repeats; negative ids and ids differing only in high bits collide in the low bits
            long id = switch (r.nextInt(3)) {
                case 0 -> 1 + r.nextInt(50_000);
                case 1 -> -1 - r.nextInt(1000);
                default -> ((long) r.nextInt(1 << 20) << 40) | 1;
            };
            assertEquals(model.add(id), set.add(id), "add " + id);
            long probe = r.nextBoolean() ? r.nextLong() : 1 + r.nextInt(60_000);
            assertEquals(model.contains(probe), set.contains(probe), "contains " + probe);
        }
        assertEquals(model.size(), set.size());
        for (long id : model) {
            assertFalse(set.add(id));
        }
        assertFalse(set.contains(0));
        assertThrows(IllegalArgumentException.class, () -> set.add(0));
        set.clear();
        assertEquals(0, set.size());
        assertFalse(set.contains(model.iterator().next()));
    }

    @Test
    void queueIsFirstInFirstOutAcrossGrowth() {
        Random r = new Random(5);
        IdQueue queue = new IdQueue();
        ArrayDeque<Long> model = new ArrayDeque<>();
        long next = 1;
        for (int i = 0; i < 100_000; i++) {
            if (model.isEmpty() || r.nextInt(3) != 0) {
                queue.add(next);
                model.add(next++);
            } else {
                assertEquals(model.poll(), queue.poll());
            }
            assertEquals(model.size(), queue.size());
        }
        while (!model.isEmpty()) {
            assertEquals(model.poll(), queue.poll());
        }
        assertTrue(queue.isEmpty());
    }
}
