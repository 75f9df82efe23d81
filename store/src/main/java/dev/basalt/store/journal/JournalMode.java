package dev.basalt.store.journal;

/**
 * How a journal manages space; chosen when the file is created and recorded in its header.
 * Immutable; safe to share between threads.
 */
public enum JournalMode {
    /**
     * Read-write: records live in size-classed slots and large ones in extents; space freed by
     * copy-on-write is recycled once no pinned or retained commit point can see it.
     */
    RW(0),
    /** Write once, read many: append only, nothing is ever freed, every commit point stays readable. */
    WORM(1);

    final int code;

    JournalMode(int code) {
        this.code = code;
    }

    static JournalMode ofCode(int code) {
        for (JournalMode m : values()) {
            if (m.code == code) {
                return m;
            }
        }
        return null;
    }
}
