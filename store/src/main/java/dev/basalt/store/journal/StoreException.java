package dev.basalt.store.journal;

/**
 * Base of every error Basalt's storage layer raises; unchecked, with a message a user can act on.
 * Its message is fixed when it is made, so it may be handed to another thread and rethrown there.
 */
public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
