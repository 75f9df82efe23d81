package dev.basalt.store.journal;

/**
 * Holds a commit point readable: until closed, no space that commit point can see is recycled.
 * Closing twice is harmless. Readers must close their pins (try-with-resources); a pin held longer
 * than the configured reader age is logged.
 *
 * <p>Thread-safe: any thread may close a pin (the journal unpins under its monitor), but it is
 * meant to be closed by the reader that took it.
 */
public final class ReadPin implements AutoCloseable {
    private final Journal journal;
    private final long id;
    private final CommitPoint commit;

    ReadPin(Journal journal, long id, CommitPoint commit) {
        this.journal = journal;
        this.id = id;
        this.commit = commit;
    }

    public CommitPoint commit() {
        return commit;
    }

    @Override
    public void close() {
        journal.unpin(id);
    }
}
