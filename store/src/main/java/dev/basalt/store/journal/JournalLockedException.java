package dev.basalt.store.journal;

import java.nio.file.Path;

/**
 * Another process (or another open store in this one) holds the journal.
 * Its message is fixed when it is made, so it may be handed to another thread and rethrown there.
 */
public class JournalLockedException extends StoreException {
    public JournalLockedException(Path path) {
        super("journal " + path + " is already open in another process or store (its OS file lock is held);"
                + " close that store first, or open a copy");
    }
}
