package dev.basalt.store.btree;

/**
 * A record address as a hash-table key. {@code Long.hashCode} of an address collides badly: the
 * low bits hold the slot size, identical for every page of a tree, and the offset's low bits
 * repeat with the slot stride, so hash maps keyed by {@code Long} addresses degrade into long
 * chains and trees. Fibonacci hashing (the high half of {@code address * 2^64/phi}) depends on
 * every bit of the address.
 *
 * <p>Immutable; safe to share between threads.
 */
final class AddressKey {
    private static final long PHI = 0x9E3779B97F4A7C15L;
    private final long address;

    AddressKey(long address) {
        this.address = address;
    }

    long address() {
        return address;
    }

    @Override
    public int hashCode() {
        return (int) ((address * PHI) >>> 32);
    }

    // written out: a record's generated equals goes through an indy bootstrap that showed up in
    // page-cache hit profiles
    @Override
    public boolean equals(Object o) {
        return o instanceof AddressKey other && other.address == address;
    }

    @Override
    public String toString() {
        return "AddressKey[" + address + "]";
    }
}
