package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/** {@link SlotSet} behaves as a {@code HashSet<Integer>} of the same slots, with itself and with other sets as argument. */
class SlotSetTest {

    @Test
    void agreesWithHashSetOnRandomOperations() {
        Random r = new Random(11);
        for (int round = 0; round < 2000; round++) {
            int range = r.nextBoolean() ? 10 : 200;
            SlotSet a = new SlotSet();
            Set<Integer> ha = new HashSet<>();
            SlotSet b = new SlotSet();
            Set<Integer> hb = new HashSet<>();
            for (int i = r.nextInt(12); i > 0; i--) {
                int s = r.nextInt(range);
                assertEquals(ha.add(s), a.add(s));
            }
            for (int i = r.nextInt(12); i > 0; i--) {
                int s = r.nextInt(range);
                assertEquals(hb.add(s), b.add(s));
            }
            assertEquals(ha.containsAll(hb), a.containsAll(b));
            assertEquals(ha.containsAll(hb), a.containsAll(hb));
            assertEquals(hb.stream().anyMatch(ha::contains), a.intersects(b));
            assertEquals(ha, a);
            assertEquals(ha.hashCode(), a.hashCode());
            assertEquals(new ArrayList<>(new TreeSet<>(ha)), new ArrayList<>(a));
            switch (r.nextInt(4)) {
            case 0 -> assertEquals(ha.addAll(hb), a.addAll(b));
            case 1 -> assertEquals(ha.retainAll(hb), a.retainAll(b));
            case 2 -> assertEquals(ha.retainAll(hb), a.retainAll(hb));
            default -> {
                int s = r.nextInt(range);
                assertEquals(ha.remove(s), a.remove(s));
            }
            }
            assertEquals(ha, a);
            assertEquals(ha.size(), a.size());
            assertEquals(ha.isEmpty(), a.isEmpty());
            assertEquals(ha, new SlotSet(a));
            assertEquals(ha, new SlotSet(ha));
        }
    }

    @Test
    void iteratorRemoves() {
        SlotSet a = new SlotSet(List.of(1, 64, 65, 130));
        a.removeIf(s -> s % 2 == 1);
        assertEquals(Set.of(64, 130), a);
    }
}
