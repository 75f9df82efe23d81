package dev.basalt.store.lexicon;

import java.util.Arrays;

import dev.basalt.store.journal.StoreException;

/**
 * Allocates ids of dictionary terms: one counter per dictionary kind (blank node, IRI, literal,
 * triple term), so a kind's ids are dense from {@code kind << 60 | 1} upward and the counter is
 * also the number of terms of that kind ever added. Ids are never reused.
 *
 * <p>The state is part of each commit record ({@link #toBytes()}): after a crash the allocator
 * resumes from the last commit, so ids handed out by an uncommitted transaction are handed out
 * again, which is safe because their terms were not committed either. Not thread-safe: it
 * belongs to the single writer; readers take a {@link #copy()} or the committed bytes.
 *
 * <p>Serialized form (version 1, 38 bytes): version byte 1, count byte 4, then for each kind in
 * the order blank node, IRI, literal, triple: its kind nibble as a byte and the last allocated
 * counter as 8 bytes big-endian.
 */
public final class TermIdAllocator {
    static final int VERSION = 1;
    private static final TermKind[] KINDS = { TermKind.BLANK_NODE, TermKind.IRI, TermKind.LITERAL, TermKind.TRIPLE };
    public static final int SERIALIZED_LENGTH = 2 + KINDS.length * 9;

    /** Last counter handed out per kind, indexed like {@link #KINDS}; 0 = none yet. */
    private final long[] last;

    public TermIdAllocator() {
        this(new long[KINDS.length]);
    }

    private TermIdAllocator(long[] last) {
        this.last = last;
    }

    /** A fresh id of a dictionary kind; fails when the kind's 2^60 - 1 ids are used up. */
    public long allocate(TermKind kind) {
        int i = index(kind);
        if (last[i] == TermIds.MAX_COUNTER) {
            throw new StoreException("the term id space for " + kind + " is exhausted ("
                    + TermIds.MAX_COUNTER + " ids); no more such terms can be added");
        }
        return TermIds.make(kind.code(), ++last[i]);
    }

    /** How many ids of this kind have been allocated. */
    public long allocated(TermKind kind) {
        return last[index(kind)];
    }

    /** True if an id of a dictionary kind was handed out by this allocator (or its committed past). */
    public boolean isAllocated(long id) {
        TermKind kind = TermIds.kind(id);
        long counter = TermIds.payload(id);
        return kind.isDictionary() && counter >= 1 && counter <= last[index(kind)];
    }

    public TermIdAllocator copy() {
        return new TermIdAllocator(last.clone());
    }

    public byte[] toBytes() {
        byte[] out = new byte[SERIALIZED_LENGTH];
        out[0] = VERSION;
        out[1] = (byte) KINDS.length;
        for (int i = 0; i < KINDS.length; i++) {
            out[2 + 9 * i] = (byte) KINDS[i].code();
            TermKeys.putLong(out, 3 + 9 * i, last[i]);
        }
        return out;
    }

    /** Reads {@link #toBytes()} output; a malformed record is a {@link StoreException}. */
    public static TermIdAllocator fromBytes(byte[] in) {
        if (in.length != SERIALIZED_LENGTH || in[0] != VERSION || in[1] != KINDS.length) {
            throw new StoreException("term id allocator state is malformed or of an unknown version ("
                    + in.length + " bytes" + (in.length > 0 ? ", version " + in[0] : "") + ")");
        }
        long[] last = new long[KINDS.length];
        for (int i = 0; i < KINDS.length; i++) {
            if (in[2 + 9 * i] != KINDS[i].code()) {
                throw new StoreException("term id allocator state names kind " + in[2 + 9 * i]
                        + " where " + KINDS[i] + " belongs");
            }
            last[i] = TermKeys.getLong(in, 3 + 9 * i);
            if (last[i] < 0 || last[i] > TermIds.MAX_COUNTER) {
                throw new StoreException("term id allocator counter for " + KINDS[i] + " is out of range: " + last[i]);
            }
        }
        return new TermIdAllocator(last);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TermIdAllocator && Arrays.equals(last, ((TermIdAllocator) o).last);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(last);
    }

    @Override
    public String toString() {
        return "TermIdAllocator" + Arrays.toString(last);
    }

    private static int index(TermKind kind) {
        for (int i = 0; i < KINDS.length; i++) {
            if (KINDS[i] == kind) {
                return i;
            }
        }
        throw new IllegalArgumentException(kind + " is not a dictionary kind");
    }
}
