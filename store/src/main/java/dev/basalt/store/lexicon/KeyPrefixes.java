package dev.basalt.store.lexicon;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.StoreException;

/**
 * Interned prefixes of full term keys, so that ID2TERM holds an IRI's namespace or a literal's
 * datatype IRI once instead of in every value (docs/FORMAT.md §4.5, §5.2). A prefix is a byte
 * string that starts a full key ({@link #split}); it has a number 1 .. {@link #LIMIT}, and both
 * directions live in the tree {@value Lexicon#PREFIXES}:
 *
 * <pre>
 *  0x00, number (4 bytes big-endian)  →  the prefix bytes
 *  0x01, the prefix bytes             →  number (4 bytes big-endian)
 * </pre>
 *
 * Numbers are dense: the next one is the count of 0x00 entries plus one, so a rolled-back
 * transaction's prefixes are simply numbered again. An instance is the {@link Lexicon}'s cache of
 * <em>committed</em> prefixes (numbers 1 .. {@link #CACHE_LIMIT}, both directions, never evicted;
 * a prefix is immutable once committed, and later ones are read from the tree); it is shared by
 * every reader and writer and thread-safe. Writers keep their own prefixes private until their transaction commits.
 */
final class KeyPrefixes {
    static final byte BY_NUMBER = 0x00;
    static final byte BY_BYTES = 0x01;
    /** Most prefixes a store interns; keys whose prefix would be a later one are stored whole. */
    static final int LIMIT = 1 << 20;
    /** Shortest prefix (tag included) worth a number: shorter ones save at most a few bytes. */
    static final int MIN_LENGTH = 8;
    static final int CACHE_LIMIT = 1 << 16;

    /** Committed prefixes by number (index 0 unused); an array, as every resolve of a prefixed term reads it. */
    private final AtomicReferenceArray<byte[]> bytesByNumber = new AtomicReferenceArray<>(CACHE_LIMIT + 1);
    private final ConcurrentHashMap<String, Integer> numberByBytes = new ConcurrentHashMap<>();

    /**
     * The length of the prefix of a full key that is interned, or 0 if none is. An IRI (tag 0x02)
     * splits after its last '/' or '#' that is not its last character, so {@code http://a.org/x/}
     * gives {@code http://a.org/} and the local part is never empty; a literal of another
     * datatype (tag 0x06) splits after its datatype IRI. Other kinds have no prefix.
     */
    static int split(byte[] key) {
        int cut = 0;
        if (key[0] == TermKeys.IRI) {
            for (int i = key.length - 2; i >= 1 && cut == 0; i--) {
                if (key[i] == '/' || key[i] == '#') {
                    cut = i + 1;
                }
            }
        } else if (key[0] == TermKeys.OTHER_DATATYPE) {
            int[] pos = { 1 };
            cut = TermKeys.readVarint(key, pos) + pos[0];
        }
        return cut >= MIN_LENGTH ? cut : 0;
    }

    static byte[] numberKey(int number) {
        return ByteBuffer.allocate(5).put(BY_NUMBER).putInt(number).array();
    }

    static byte[] bytesKey(byte[] key, int length) {
        byte[] k = new byte[length + 1];
        k[0] = BY_BYTES;
        System.arraycopy(key, 0, k, 1, length);
        return k;
    }

    /** A map key for the first {@code length} bytes of {@code key} (one char per byte). */
    static String text(byte[] key, int length) {
        return new String(key, 0, length, StandardCharsets.ISO_8859_1);
    }

    /** Number of prefixes in a tree (null = none): the next number is this plus one. */
    static int count(BTree tree) {
        return tree == null ? 0 : Math.toIntExact(tree.rangeCount(new byte[] { BY_NUMBER }, new byte[] { BY_BYTES }));
    }

    Integer cachedNumber(String prefix) {
        return numberByBytes.get(prefix);
    }

    /** Publishes a committed prefix. */
    void cache(int number, byte[] prefix) {
        if (number <= CACHE_LIMIT) {
            bytesByNumber.set(number, prefix);
            numberByBytes.put(text(prefix, prefix.length), number);
        }
    }

    /**
     * The bytes of prefix {@code number}, from the cache or the tree; {@code committed} says whether
     * the tree's entry may be cached. {@code id} names the term being decoded in errors.
     */
    byte[] bytes(int number, BTree tree, boolean committed, long id) {
        byte[] prefix = number >= 1 && number <= CACHE_LIMIT ? bytesByNumber.get(number) : null;
        if (prefix == null) {
            prefix = tree == null ? null : tree.get(numberKey(number));
            if (prefix == null) {
                throw new StoreException("the ID2TERM value of term id " + TermIds.describe(id) + " names key prefix "
                        + number + ", which tree '" + Lexicon.PREFIXES + "' does not hold; the lexicon trees disagree");
            }
            if (committed) {
                cache(number, prefix);
            }
        }
        return prefix;
    }

    void clear() {
        for (int i = 0; i < bytesByNumber.length(); i++) {
            bytesByNumber.set(i, null);
        }
        numberByBytes.clear();
    }

    /** The 4-byte big-endian form of a prefix number (the value of a {@link #BY_BYTES} entry). */
    static byte[] numberBytes(int number) {
        return ByteBuffer.allocate(4).putInt(number).array();
    }

    static int number(byte[] value) {
        return ByteBuffer.wrap(value).getInt();
    }
}
