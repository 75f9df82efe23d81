package dev.basalt.store.btree;

/** A leaf's reference to a value stored as its own record: address, CRC32C and value length. */
record LargeValue(long address, int checksum, int length) {
}
