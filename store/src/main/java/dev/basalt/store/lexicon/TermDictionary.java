package dev.basalt.store.lexicon;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.journal.StoreException;

/**
 * One Zstandard dictionary of a store (docs/FORMAT.md §4.5, §5.2): its number (1, 2, …) and its
 * bytes, as stored in tree {@value Lexicon#PREFIXES} under key {@code 0x02} + number (4 bytes,
 * big-endian). ID2TERM values of the dictionary-compressed form name the number of the dictionary
 * their frame was compressed with. Dictionaries are never changed or removed once committed, so a
 * committed one is valid for every commit point that has it.
 *
 * <p>Immutable; the digested forms zstd-jni compresses and decompresses with are made on first
 * use (a benign race may make one twice) and shared by every thread.
 */
final class TermDictionary {
    static final byte KEY_TAG = 0x02;

    final int number;
    final byte[] bytes;
    private volatile ZstdDictCompress compressor;
    private volatile ZstdDictDecompress decompressor;

    TermDictionary(int number, byte[] bytes) {
        this.number = number;
        this.bytes = bytes;
    }

    ZstdDictCompress compressor() {
        ZstdDictCompress c = compressor;
        if (c == null) {
            c = new ZstdDictCompress(bytes, TermCompression.DICTIONARY_LEVEL);
            compressor = c;
        }
        return c;
    }

    ZstdDictDecompress decompressor() {
        ZstdDictDecompress d = decompressor;
        if (d == null) {
            d = new ZstdDictDecompress(bytes);
            decompressor = d;
        }
        return d;
    }

    static byte[] key(int number) {
        return ByteBuffer.allocate(5).put(KEY_TAG).putInt(number).array();
    }

    /** The highest dictionary number in a prefix tree (null = no tree), or 0 if it holds none. */
    static int latestNumber(BTree tree) {
        if (tree == null) {
            return 0;
        }
        int last = 0;
        BTreeCursor c = tree.cursor(new byte[] { KEY_TAG }, new byte[] { KEY_TAG + 1 });
        while (c.next()) {
            last = ByteBuffer.wrap(c.key(), 1, 4).getInt();
        }
        return last;
    }

    /**
     * The {@link Lexicon}'s cache of committed dictionaries by number; thread-safe. A dictionary a
     * transaction trains stays its writer's own until the transaction commits.
     */
    static final class Cache {
        private final ConcurrentHashMap<Integer, TermDictionary> byNumber = new ConcurrentHashMap<>();

        /**
         * Dictionary {@code number}, from the cache or {@code tree}; {@code id} names the term
         * being decoded in errors. What it reads from the tree is cached: callers pass a tree in
         * which every dictionary but their own uncommitted one (which they never ask for here) is committed.
         */
        TermDictionary get(int number, BTree tree, long id) {
            TermDictionary d = byNumber.get(number);
            if (d == null) {
                byte[] bytes = tree == null ? null : tree.get(key(number));
                if (bytes == null) {
                    throw new StoreException("the ID2TERM value of term id " + TermIds.describe(id)
                            + " is compressed with Zstandard dictionary " + number + ", which tree '" + Lexicon.PREFIXES
                            + "' does not hold; the lexicon trees disagree");
                }
                d = new TermDictionary(number, bytes);
                byNumber.putIfAbsent(number, d);
            }
            return d;
        }

        /** Publishes a committed dictionary. */
        void cache(TermDictionary d) {
            byNumber.putIfAbsent(d.number, d);
        }

        void clear() {
            byNumber.clear();
        }
    }
}
