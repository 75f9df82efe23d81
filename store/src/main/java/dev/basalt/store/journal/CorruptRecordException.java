package dev.basalt.store.journal;

/**
 * A record or structure on disk failed its checksum or a structural check.
 * Its message and address are fixed when it is made, so it may be handed to another thread and
 * rethrown there.
 */
public class CorruptRecordException extends StoreException {
    private final long address;

    public CorruptRecordException(long address, String message) {
        super(message + " (record address " + Addresses.describe(address) + ")");
        this.address = address;
    }

    public long address() {
        return address;
    }
}
