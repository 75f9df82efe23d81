package dev.basalt.store.btree;

/**
 * A leaf's reference to a value stored as its own record: address, CRC32C and value length.
 * Immutable; safe to share between threads.
 */
record LargeValue(long address, int checksum, int length) {
}
