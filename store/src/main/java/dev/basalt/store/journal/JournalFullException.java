package dev.basalt.store.journal;

/**
 * The journal cannot grow: its configured size limit is reached (or the disk is full, which
 * surfaces as a {@link StoreException} from the write). The transaction must be rolled back; the
 * last commit is intact.
 *
 * <p>Its message is fixed when it is made, so it may be handed to another thread and rethrown
 * there.
 */
public class JournalFullException extends StoreException {
    public JournalFullException(String file, long needed, long limit) {
        super("journal " + file + " is full: it would need " + needed + " bytes but its limit (maxFileBytes) is "
                + limit + "; roll back this transaction (the last commit is intact), then free space or raise the limit");
    }
}
