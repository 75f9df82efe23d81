package dev.basalt.optimizer.exec;

/** A first-in first-out queue of term ids in a growing ring of longs. Not thread-safe. */
final class IdQueue {
    private long[] ring = new long[16];
    private int head;
    private int size;

    void add(long id) {
        if (size == ring.length) {
            long[] bigger = new long[ring.length * 2];
            int first = Math.min(size, ring.length - head);
            System.arraycopy(ring, head, bigger, 0, first);
            System.arraycopy(ring, 0, bigger, first, size - first);
            ring = bigger;
            head = 0;
        }
        ring[(head + size) & (ring.length - 1)] = id;
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The oldest id; the queue must not be empty. */
    long poll() {
        long id = ring[head];
        head = (head + 1) & (ring.length - 1);
        size--;
        return id;
    }

    int size() {
        return size;
    }

    void clear() {
        head = 0;
        size = 0;
    }
}
