package dev.basalt.store.btree;

import java.util.Arrays;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;

import dev.basalt.store.io.NativePool;
import dev.basalt.store.journal.CorruptRecordException;

/**
 * The compressed page record (kind {@link PageFormat#COMPRESSED_PAGE}, page format 3,
 * docs/FORMAT.md section 3): the kind byte, a varint <i>n</i> (the length of the page it holds),
 * then one magicless Zstandard frame (level {@link #LEVEL}; no magic number, dictionary id,
 * content size or checksum: the parent's CRC32C covers the record) whose content is the
 * <i>n</i>-byte coding of a leaf or internal page of format 1 or 2. A tree configured with
 * {@link BTreeConfig#compressPages()} writes each page in this form when it is shorter, else as it
 * is; readers take either form in any tree.
 *
 * <p>Why whole pages through Zstandard: on BSBM 1M its statement leaves (already delta-coded) take
 * 2.4x fewer bytes and the TERM2ID leaves 2.5x, at a few microseconds a page to decompress, paid
 * only when a page enters the page cache (docs/benchmarks-size.md).
 *
 * <p>Contexts hold native memory that zstd-jni frees only on {@code close()}, so calls borrow one
 * from a small bounded {@link NativePool}. Thread-safe.
 */
final class PageCompression {
    /** Level 1: on BSBM 1M's pages level 3 saves under 1 % more and compresses at half the speed. */
    static final int LEVEL = 1;
    /** Longest page held (the varint must fit 31 bits; pages are far smaller). */
    static final int MAX_PAGE_BYTES = 1 << 26;

    private static final NativePool<ZstdCompressCtx> COMPRESSORS = new NativePool<>(() -> {
        ZstdCompressCtx ctx = new ZstdCompressCtx();
        ctx.setLevel(LEVEL);
        ctx.setMagicless(true);
        ctx.setDictID(false);
        ctx.setChecksum(false);
        ctx.setContentSize(false);
        return ctx;
    });
    private static final NativePool<ZstdDecompressCtx> DECOMPRESSORS = new NativePool<>(() -> {
        ZstdDecompressCtx ctx = new ZstdDecompressCtx();
        ctx.setMagicless(true);
        return ctx;
    });
    private static final Logger LOG = LoggerFactory.getLogger(PageCompression.class);
    private static volatile boolean unavailable;

    private PageCompression() {
    }

    /**
     * The record to write for the coded page {@code page}: its compressed form if that is shorter,
     * else {@code page} itself (also when zstd-jni has no native library for this platform, which
     * is logged once).
     */
    static byte[] compress(byte[] page) {
        if (unavailable || page.length > MAX_PAGE_BYTES) {
            return page;
        }
        int head = 1 + PageFormat.varintSize(page.length);
        byte[] out = new byte[head + (int) Zstd.compressBound(page.length)];
        int n;
        try {
            ZstdCompressCtx ctx = COMPRESSORS.take();
            try {
                n = ctx.compressByteArray(out, head, out.length - head, page, 0, page.length);
            } finally {
                COMPRESSORS.give(ctx);
            }
        } catch (ZstdException e) {
            throw new IllegalStateException("compressing a page of " + page.length + " bytes failed: " + e.getMessage(), e);
        } catch (LinkageError e) {
            unavailable = true;
            LOG.warn("Zstandard is not available on {} {} ({}); B+tree pages are written uncompressed",
                    System.getProperty("os.name"), System.getProperty("os.arch"), e.toString());
            return page;
        }
        if (head + n >= page.length) {
            return page;
        }
        out[0] = PageFormat.COMPRESSED_PAGE;
        PageFormat.writeVarint(out, 1, page.length);
        return Arrays.copyOf(out, head + n);
    }

    /**
     * The page a compressed record at {@code address} holds; refuses (naming the address) a
     * truncated header, a length out of range, a frame that is corrupt or holds another number of
     * bytes, or a page that is itself compressed.
     */
    static byte[] decompress(long address, byte[] record) {
        int length;
        int from;
        try {
            long packed = PageFormat.readVarint(record, 1);
            length = PageFormat.value(packed);
            from = PageFormat.next(packed);
        } catch (IllegalStateException | ArrayIndexOutOfBoundsException e) {
            throw new CorruptRecordException(address, "compressed B+tree page with a malformed length");
        }
        if (length < 1 || length > MAX_PAGE_BYTES || from >= record.length) {
            throw new CorruptRecordException(address, "compressed B+tree page of " + record.length
                    + " bytes says it holds " + length + " bytes");
        }
        byte[] page = new byte[length];
        int n;
        try {
            ZstdDecompressCtx ctx = DECOMPRESSORS.take();
            try {
                n = ctx.decompressByteArray(page, 0, length, record, from, record.length - from);
            } finally {
                DECOMPRESSORS.give(ctx);
            }
        } catch (ZstdException e) {
            throw new CorruptRecordException(address, "compressed B+tree page is corrupt: " + e.getMessage());
        } catch (LinkageError e) {
            throw new CorruptRecordException(address, "B+tree page is stored Zstandard-compressed, but zstd-jni has no"
                    + " native library for " + System.getProperty("os.name") + " " + System.getProperty("os.arch")
                    + " (" + e + "); read this store on a platform that zstd-jni supports");
        }
        if (n != length) {
            throw new CorruptRecordException(address, "compressed B+tree page holds " + n + " bytes, its header says "
                    + length);
        }
        if (page[0] == PageFormat.COMPRESSED_PAGE || page[0] == PageFormat.LARGE_VALUE) {
            throw new CorruptRecordException(address, "compressed B+tree page holds a record of kind "
                    + String.format("0x%02x", page[0]) + ", not a page");
        }
        return page;
    }
}
