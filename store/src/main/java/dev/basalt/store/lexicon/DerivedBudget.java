package dev.basalt.store.lexicon;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of heap the {@link DerivedNumbers} tables of one {@link Lexicon} may hold together:
 * a table reserves the bytes of an array before it allocates it and releases them when it drops
 * one, so the tables of all derived expressions share one bound, whichever expressions fill them.
 * A reservation that would pass the bound is refused (the table then stays as it is).
 *
 * <p>Thread rules: thread-safe, lock-free (one atomic counter).
 */
public final class DerivedBudget {
    private final long limit;
    private final AtomicLong used = new AtomicLong();

    /** @param limit the most bytes reserved at once (0: none) */
    public DerivedBudget(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a derived value budget must not be negative: " + limit);
        }
        this.limit = limit;
    }

    /** A budget with no bound worth counting (for a table of its own). */
    public static DerivedBudget unbounded() {
        return new DerivedBudget(Long.MAX_VALUE);
    }

    /** Reserves {@code bytes} if the bound allows; whether it did. */
    public boolean reserve(long bytes) {
        long u;
        do {
            u = used.get();
            if (bytes > limit - u) {
                return false;
            }
        } while (!used.compareAndSet(u, u + bytes));
        return true;
    }

    /** Gives back {@code bytes} reserved before. */
    public void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /** Bytes reserved now. */
    public long used() {
        return used.get();
    }

    public long limit() {
        return limit;
    }
}
