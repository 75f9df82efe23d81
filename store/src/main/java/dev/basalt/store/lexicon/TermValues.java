package dev.basalt.store.lexicon;

import java.util.function.IntFunction;

import dev.basalt.store.journal.StoreException;

/**
 * The ID2TERM value of a term (docs/FORMAT.md §4.5): the shortest of three forms of its full
 * {@link TermKeys} key, told apart by byte 0.
 *
 * <pre>
 *  0x01..0x07  the full key itself
 *  0x08        prefixed: varint p, then the key's bytes after its interned prefix p ({@link KeyPrefixes})
 *  0x09        compressed: {@link TermCompression}
 *  0x0A        compressed with a trained dictionary of the store: {@link TermCompression}, {@link TermDictionary}
 * </pre>
 *
 * A key longer than {@link TermCompression#THRESHOLD} is tried compressed; a key with an
 * interned prefix is tried prefixed; when the store has a dictionary, a key longer than
 * {@link TermCompression#DICTIONARY_THRESHOLD} is tried compressed with it; the shortest form
 * wins, the full key on a tie, then the earlier form in that order. Stateless.
 *
 * <p>Any thread may call it: it works on its caller's thread with the caller's prefix table, and
 * compression takes its context from {@link TermCompression}'s thread-safe pool.
 */
final class TermValues {
    static final byte PREFIXED = 0x08;

    /** Gives the number of a key's first {@code length} bytes as a prefix, interning it if new, or 0. */
    @FunctionalInterface
    interface PrefixInterner {
        int intern(byte[] key, int length);
    }

    private TermValues() {
    }

    /**
     * The stored form of a full key; {@code interner} numbers the key's prefix if it has one.
     */
    static byte[] encode(byte[] key, PrefixInterner interner) {
        return encode(key, interner, null);
    }

    /**
     * The stored form of a full key; {@code interner} numbers the key's prefix if it has one, and
     * {@code dictionary}, if not null, is the store's dictionary to try.
     */
    static byte[] encode(byte[] key, PrefixInterner interner, TermDictionary dictionary) {
        byte[] best = key;
        if (key.length > TermCompression.THRESHOLD) {
            byte[] compressed = TermCompression.compress(key);
            if (compressed != null) {
                best = compressed;
            }
        }
        int cut = KeyPrefixes.split(key);
        if (cut > 0) {
            int number = interner.intern(key, cut);
            int length = number == 0 ? Integer.MAX_VALUE : 1 + TermKeys.varintLength(number) + key.length - cut;
            if (length < best.length) {
                best = new byte[length];
                best[0] = PREFIXED;
                int pos = TermKeys.writeVarint(best, 1, number);
                System.arraycopy(key, cut, best, pos, key.length - cut);
            }
        }
        if (dictionary != null && best.length > TermCompression.DICTIONARY_THRESHOLD) {
            byte[] compressed = TermCompression.compress(key, dictionary, best.length);
            if (compressed != null) {
                best = compressed;
            }
        }
        return best;
    }

    /** The full key of a stored value; {@code prefixes} gives a prefix's bytes, {@code id} names the term in errors. */
    static byte[] decode(byte[] stored, long id, IntFunction<byte[]> prefixes) {
        return decode(stored, id, prefixes, number -> {
            throw new StoreException("the ID2TERM value of term id " + TermIds.describe(id)
                    + " names Zstandard dictionary " + number + " where none is readable");
        });
    }

    /**
     * The full key of a stored value; {@code prefixes} gives a prefix's bytes and
     * {@code dictionaries} a trained dictionary by its number, {@code id} names the term in errors.
     */
    static byte[] decode(byte[] stored, long id, IntFunction<byte[]> prefixes, IntFunction<TermDictionary> dictionaries) {
        if (stored.length == 0) {
            throw new StoreException("the ID2TERM value of term id " + TermIds.describe(id) + " is empty");
        }
        if (stored[0] == TermCompression.TAG) {
            return TermCompression.decompress(stored, id);
        }
        if (stored[0] == TermCompression.DICTIONARY_TAG) {
            return TermCompression.decompress(stored, id, dictionaries);
        }
        if (stored[0] != PREFIXED) {
            return stored;
        }
        int[] pos = { 1 };
        int number;
        try {
            number = TermKeys.readVarint(stored, pos);
        } catch (IllegalArgumentException e) {
            throw new StoreException("the prefixed ID2TERM value of term id " + TermIds.describe(id) + " is truncated", e);
        }
        byte[] prefix = prefixes.apply(number);
        byte[] key = new byte[prefix.length + stored.length - pos[0]];
        System.arraycopy(prefix, 0, key, 0, prefix.length);
        System.arraycopy(stored, pos[0], key, prefix.length, stored.length - pos[0]);
        return key;
    }
}
