package dev.basalt.store.journal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who reads which commit point. A reader pins the commit point it reads; space that commit point
 * can see is not recycled until the pin is closed. Pins are cheap and thread-safe.
 */
final class ReaderRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(ReaderRegistry.class);

    record PinInfo(long commit, long openedNanos, String thread) {
    }

    private final TreeMap<Long, Integer> pinsByCommit = new TreeMap<>();
    private final Map<Long, PinInfo> open = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong(1);

    /** Called with the journal's lock held, so a pin and a release never interleave. */
    long pin(long commit) {
        long id = nextId.getAndIncrement();
        pinsByCommit.merge(commit, 1, Integer::sum);
        open.put(id, new PinInfo(commit, System.nanoTime(), Thread.currentThread().getName()));
        return id;
    }

    /** Returns true if the pin was open. */
    boolean unpin(long id) {
        PinInfo p = open.remove(id);
        if (p == null) {
            return false;
        }
        pinsByCommit.computeIfPresent(p.commit, (k, n) -> n == 1 ? null : n - 1);
        return true;
    }

    long minPinned() {
        return pinsByCommit.isEmpty() ? Long.MAX_VALUE : pinsByCommit.firstKey();
    }

    int count() {
        return open.size();
    }

    void warnOld(Duration age) {
        long limit = System.nanoTime() - age.toNanos();
        for (PinInfo p : open.values()) {
            if (p.openedNanos < limit) {
                LOG.warn("a reader opened by thread '{}' has pinned commit point {} for more than {}; "
                        + "space it can see cannot be recycled until it is closed", p.thread, p.commit, age);
            }
        }
    }
}
