package dev.basalt.optimizer.exec;

/**
 * One packed number per term id ({@link JoinedAggregation}'s form: unscaled digits shifted left by 6,
 * the form in bits 0-5), for the side of a {@link PartialRows} join whose every row is one joined row
 * with its number: an {@link IdSlots} table of two longs a slot, half the bytes of an {@link IdSums}
 * slot, so that a partition's table stays in the first-level cache. It holds each id once: a second
 * row of an id is refused ({@link #putNew}), and the join takes the general table for that partition.
 * Not thread-safe: one open's.
 */
final class IdNumbers extends IdSlots {
    /** A table sized for about {@code expected} ids (at least 64 slots, at most 2^20 to start). */
    IdNumbers(long expected) {
        super(expected, 2);
    }

    /** Holds {@code number} for {@code id} (not 0); false, holding nothing new, if {@code id} has a number. */
    boolean putNew(long id, long number) {
        int at = find(id);
        if (slots[at] != 0) {
            return false;
        }
        slots[at] = id;
        slots[at + 1] = number;
        claimed();
        return true;
    }

    /** The array index of {@code id}'s number ({@code slots[at]}), or -1 if it has none. */
    int numberAt(long id) {
        int at = find(id);
        return slots[at] == 0 ? -1 : at + 1;
    }

    /** The number at {@code at} ({@link #numberAt}). */
    long number(int at) {
        return slots[at];
    }
}
