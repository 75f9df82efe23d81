package dev.basalt.store.journal;

/**
 * Layout of a 64-bit record address: the upper 42 bits are the file offset in 64-byte units, the
 * lower 22 bits the size of the space the record occupies (its slot or extent) in 64-byte units.
 * So a journal can grow to 256 TiB and one record can span 256 MiB, and a record is read with one
 * positioned read of exactly its slot. See docs/FORMAT.md, "Addresses".
 *
 * <p>Constants and pure functions; any thread may call it.
 */
public final class Addresses {
    public static final int UNIT_SHIFT = 6;
    public static final int UNIT = 1 << UNIT_SHIFT;
    static final int SIZE_BITS = 22;
    static final long SIZE_MASK = (1L << SIZE_BITS) - 1;
    /** Largest slot or extent one address can describe, in bytes. */
    public static final long MAX_SPAN = SIZE_MASK << UNIT_SHIFT;
    /** Largest file offset an address can describe, in bytes. */
    public static final long MAX_OFFSET = ((1L << (64 - SIZE_BITS)) - 1) << UNIT_SHIFT;

    private Addresses() {
    }

    public static long of(long offset, long span) {
        if ((offset & (UNIT - 1)) != 0 || (span & (UNIT - 1)) != 0 || span <= 0 || span > MAX_SPAN
                || offset < 0 || offset > MAX_OFFSET) {
            throw new IllegalArgumentException("no address for offset " + offset + " span " + span);
        }
        return ((offset >>> UNIT_SHIFT) << SIZE_BITS) | (span >>> UNIT_SHIFT);
    }

    public static long offset(long address) {
        return (address >>> SIZE_BITS) << UNIT_SHIFT;
    }

    public static int span(long address) {
        return (int) ((address & SIZE_MASK) << UNIT_SHIFT);
    }

    public static String describe(long address) {
        return String.format("0x%016x: offset %d, span %d", address, offset(address), span(address));
    }
}
