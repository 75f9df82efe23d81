package dev.basalt.store.lexicon;

import java.util.Arrays;
import java.util.function.IntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

import dev.basalt.store.io.NativePool;
import dev.basalt.store.journal.StoreException;

/**
 * The compressed forms of an ID2TERM value (docs/FORMAT.md §4.5). Without a dictionary: tag
 * {@link #TAG}, varint n (length of the full term key), then one Zstandard frame (RFC 8878, level
 * {@link #LEVEL}, no content size field, no checksum: the B+tree record's CRC32C covers the bytes)
 * whose content is the n-byte full key. With one of the store's trained dictionaries
 * ({@link TermDictionary}): tag {@link #DICTIONARY_TAG}, varint dictionary number, varint n, then
 * one magicless Zstandard frame (no magic number, dictionary id, content size or checksum)
 * compressed with that dictionary at level {@link #DICTIONARY_LEVEL}.
 *
 * <p>Why Zstandard through zstd-jni: on BSBM's review texts (random words of a vocabulary, each
 * value short) LZ4 saves 0-8 %, Zstandard 21-42 % at 2-3 µs per value to decompress; the figures
 * are in docs/benchmarks-dictionary.md.
 *
 * <p>Contexts: creating one per call costs about 8 µs, more than decompressing a review, so calls
 * borrow one from a small pool and return it. A context holds native memory that zstd-jni frees
 * only on {@code close()} (no cleaner), so the pool is bounded and a context that does not fit
 * back is closed; per-thread contexts would leak with every thread that ends. Thread-safe.
 */
final class TermCompression {
    static final byte TAG = 0x09;
    /** Full keys longer than this many bytes are tried compressed; shorter ones gain too little. */
    static final int THRESHOLD = 128;
    static final int LEVEL = 1;
    static final byte DICTIONARY_TAG = 0x0A;
    /** Full keys longer than this many bytes are tried compressed when the store has a dictionary. */
    static final int DICTIONARY_THRESHOLD = 32;
    /** Level of dictionary compression: on BSBM 1M's literals level 3 stores 22 % fewer bytes than level 1. */
    static final int DICTIONARY_LEVEL = 3;

    /** Contexts kept for reuse, of each kind ({@link NativePool}: enough for every core at once). */
    private static final NativePool<ZstdCompressCtx> COMPRESSORS = new NativePool<>(() -> {
        ZstdCompressCtx ctx = new ZstdCompressCtx();
        ctx.setLevel(LEVEL);
        ctx.setChecksum(false);
        ctx.setContentSize(false);
        return ctx;
    });
    private static final NativePool<ZstdDecompressCtx> DECOMPRESSORS = new NativePool<>(ZstdDecompressCtx::new);
    /** Magicless contexts for the dictionary form; each call references its dictionary anew. */
    private static final NativePool<ZstdCompressCtx> DICTIONARY_COMPRESSORS = new NativePool<>(() -> {
        ZstdCompressCtx ctx = new ZstdCompressCtx();
        ctx.setMagicless(true);
        ctx.setDictID(false);
        ctx.setChecksum(false);
        ctx.setContentSize(false);
        return ctx;
    });
    private static final NativePool<ZstdDecompressCtx> DICTIONARY_DECOMPRESSORS = new NativePool<>(() -> {
        ZstdDecompressCtx ctx = new ZstdDecompressCtx();
        ctx.setMagicless(true);
        return ctx;
    });
    private static final Logger LOG = LoggerFactory.getLogger(TermCompression.class);
    private static volatile boolean unavailable;

    private TermCompression() {
    }

    /**
     * The compressed value of a full key, or null if it is not shorter than the key itself or
     * zstd-jni has no native library for this platform (the key is then stored whole, which every
     * reader reads; the first such case is logged).
     */
    static byte[] compress(byte[] fullKey) {
        if (unavailable) {
            return null;
        }
        int head = 1 + TermKeys.varintLength(fullKey.length);
        byte[] out;
        int n;
        try {
            out = new byte[head + (int) Zstd.compressBound(fullKey.length)];
            ZstdCompressCtx ctx = COMPRESSORS.take();
            try {
                n = ctx.compressByteArray(out, head, out.length - head, fullKey, 0, fullKey.length);
            } finally {
                COMPRESSORS.give(ctx);
            }
        } catch (ZstdException e) {
            throw new StoreException("compressing a term key of " + fullKey.length + " bytes failed: " + e.getMessage(), e);
        } catch (LinkageError e) {
            unavailable = true;
            LOG.warn("Zstandard is not available on {} {} ({}); long dictionary terms are stored uncompressed",
                    System.getProperty("os.name"), System.getProperty("os.arch"), e.toString());
            return null;
        }
        if (head + n >= fullKey.length) {
            return null;
        }
        out[0] = TAG;
        TermKeys.writeVarint(out, 1, fullKey.length);
        return Arrays.copyOf(out, head + n);
    }

    /** The full key of a compressed value; {@code id} names the term in errors. */
    static byte[] decompress(byte[] stored, long id) {
        int[] pos = { 1 };
        int length;
        try {
            length = TermKeys.readVarint(stored, pos);
        } catch (IllegalArgumentException e) {
            throw new StoreException("the compressed ID2TERM value of term id " + TermIds.describe(id) + " is truncated", e);
        }
        return frame(stored, pos[0], length, null, id, "");
    }

    /** True unless zstd-jni failed to load its native library on this platform. */
    static boolean available() {
        return !unavailable;
    }

    /**
     * The dictionary-compressed value of a full key, or null if it is not shorter than
     * {@code shortest} bytes (the best other form's length).
     */
    static byte[] compress(byte[] fullKey, TermDictionary dictionary, int shortest) {
        int head = 1 + TermKeys.varintLength(dictionary.number) + TermKeys.varintLength(fullKey.length);
        byte[] out = new byte[head + (int) Zstd.compressBound(fullKey.length)];
        int n;
        try {
            ZstdCompressCtx ctx = DICTIONARY_COMPRESSORS.take();
            try {
                ctx.loadDict(dictionary.compressor());
                n = ctx.compressByteArray(out, head, out.length - head, fullKey, 0, fullKey.length);
            } finally {
                DICTIONARY_COMPRESSORS.give(ctx);
            }
        } catch (ZstdException e) {
            throw new StoreException("compressing a term key of " + fullKey.length + " bytes with dictionary "
                    + dictionary.number + " failed: " + e.getMessage(), e);
        }
        if (head + n >= shortest) {
            return null;
        }
        out[0] = DICTIONARY_TAG;
        int pos = TermKeys.writeVarint(out, 1, dictionary.number);
        TermKeys.writeVarint(out, pos, fullKey.length);
        return Arrays.copyOf(out, head + n);
    }

    /** The full key of a dictionary-compressed value; {@code dictionaries} gives a dictionary by number. */
    static byte[] decompress(byte[] stored, long id, IntFunction<TermDictionary> dictionaries) {
        int[] pos = { 1 };
        int number;
        int length;
        try {
            number = TermKeys.readVarint(stored, pos);
            length = TermKeys.readVarint(stored, pos);
        } catch (IllegalArgumentException e) {
            throw new StoreException("the dictionary-compressed ID2TERM value of term id " + TermIds.describe(id)
                    + " is truncated", e);
        }
        return frame(stored, pos[0], length, dictionaries.apply(number), id, ", compressed with dictionary " + number);
    }

    /**
     * Decompresses the frame at {@code from} to the end of {@code stored}, which must hold exactly
     * {@code length} bytes: a standard frame if {@code dictionary} is null, else a magicless one
     * compressed with it. {@code id} and {@code what} describe the value in errors.
     */
    private static byte[] frame(byte[] stored, int from, int length, TermDictionary dictionary, long id, String what) {
        NativePool<ZstdDecompressCtx> pool = dictionary == null ? DECOMPRESSORS : DICTIONARY_DECOMPRESSORS;
        try {
            byte[] key = new byte[length];
            ZstdDecompressCtx ctx = pool.take();
            int n;
            try {
                if (dictionary != null) {
                    ctx.loadDict(dictionary.decompressor());
                }
                n = ctx.decompressByteArray(key, 0, length, stored, from, stored.length - from);
            } finally {
                pool.give(ctx);
            }
            if (n != length) {
                throw new IllegalArgumentException("frame holds " + n + " bytes, the value says " + length);
            }
            return key;
        } catch (IllegalArgumentException | ZstdException e) {
            throw new StoreException("the compressed ID2TERM value of term id " + TermIds.describe(id) + " ("
                    + stored.length + " bytes" + what + ") is corrupt: " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new StoreException("term id " + TermIds.describe(id) + " is stored Zstandard-compressed, but zstd-jni"
                    + " has no native library for " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                    + " (" + e + "); read this store on a platform that zstd-jni supports", e);
        }
    }
}
