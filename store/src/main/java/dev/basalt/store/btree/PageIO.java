package dev.basalt.store.btree;

import dev.basalt.store.cache.ClockCache;
import dev.basalt.store.io.Checksums;
import dev.basalt.store.journal.CorruptRecordException;
import dev.basalt.store.journal.RecordStore;

import java.nio.ByteBuffer;

/**
 * Reads, decodes and writes the records of one tree: pages through the shared {@link PageCache}
 * (or straight from the store when verifying) and large values. Every read passes the checksum of
 * the parent pointer to the store, so a stale, misdirected or corrupt record surfaces as a
 * {@link CorruptRecordException} naming its address. Thread-safe when the store and cache are.
 */
final class PageIO {
    private final RecordStore store;
    private final PageCache cache;
    /** Whether pages are written compressed where that is shorter ({@link BTreeConfig#compressPages()}). */
    private final boolean compress;

    /** @param cache the shared page cache, or null to decode on every read */
    PageIO(RecordStore store, PageCache cache) {
        this(store, cache, false);
    }

    /**
     * @param cache    the shared page cache, or null to decode on every read
     * @param compress write each page as a compressed record ({@link PageCompression}) when that is
     *                 shorter; pages of either form are read regardless
     */
    PageIO(RecordStore store, PageCache cache, boolean compress) {
        this.store = store;
        this.cache = cache;
        this.compress = compress;
    }

    RecordStore store() {
        return store;
    }

    /** The clean page at {@code address}, from the cache or read, checked and decoded. */
    Node load(long address, int checksum) {
        if (cache != null) {
            Page page = cache.get(address, checksum);
            if (page != null) {
                return (Node) page;
            }
        }
        Page page = readUncached(address, checksum);
        if (cache != null) {
            cache.put(page);
        }
        return (Node) page;
    }

    /**
     * Child {@code index} of a clean page, as {@link #load(long, int)}; the parent keeps the
     * child's cache entry, so the next descent through it reaches a cached child without a
     * lookup in the cache's table.
     */
    Node loadChild(InternalPage parent, int index) {
        long address = parent.childAddress(index);
        int checksum = parent.childChecksum(index);
        if (cache == null) {
            return (Node) readUncached(address, checksum);
        }
        ClockCache.Handle<Page> handle = parent.childHandle(index);
        Page page = handle == null ? null : handle.get();
        if (page != null && page.checksum() == checksum) {
            return (Node) page;
        }
        handle = cache.handle(address);
        page = handle == null ? null : handle.get();
        if (page == null || page.checksum() != checksum) {
            page = readUncached(address, checksum);
            handle = cache.put(page);
        }
        if (handle != null) {
            parent.holdHandle(index, handle);
        }
        return (Node) page;
    }

    /** Reads and decodes the page at {@code address} from the store, bypassing the cache. */
    Page readUncached(long address, int checksum) {
        return decode(address, checksum, readBytes(address, checksum));
    }

    byte[] readBytes(long address, int checksum) {
        ByteBuffer buf = store.read(address, checksum);
        if (buf.hasArray() && buf.arrayOffset() == 0 && buf.position() == 0 && buf.remaining() == buf.array().length) {
            // the journal hands over an array of exactly the payload: no second copy
            return buf.array();
        }
        byte[] bytes = new byte[buf.remaining()];
        buf.duplicate().get(bytes);
        return bytes;
    }

    static Page decode(long address, int checksum, byte[] bytes) {
        if (bytes.length > 0 && bytes[0] == PageFormat.COMPRESSED_PAGE) {
            bytes = PageCompression.decompress(address, bytes);
        }
        try {
            if (bytes.length > 0 && bytes[0] == PageFormat.LEAF) {
                return LeafPage.decode(address, checksum, bytes);
            }
            if (bytes.length > 0 && bytes[0] == PageFormat.INTERNAL) {
                return InternalPage.decode(address, checksum, bytes);
            }
            if (bytes.length > 0 && bytes[0] == PageFormat.ID_TUPLE_LEAF) {
                return IdTupleLeafPage.decode(address, checksum, bytes);
            }
        } catch (IllegalStateException e) {
            throw new CorruptRecordException(address, "malformed B+tree page: " + e.getMessage());
        }
        throw new CorruptRecordException(address, "not a B+tree page of formats 1 to " + PageFormat.FORMAT_VERSION
                + " (kind byte " + (bytes.length == 0 ? "missing" : String.format("0x%02x", bytes[0])) + ")");
    }

    /** The record of a coded page: compressed if this tree compresses and that is shorter. */
    private byte[] record(byte[] encoded) {
        return compress ? PageCompression.compress(encoded) : encoded;
    }

    /** Writes an encoded page, caches its decoded form and returns it. */
    Page writePage(byte[] encoded) {
        byte[] record = record(encoded);
        long address = store.write(ByteBuffer.wrap(record));
        Page page = decode(address, Checksums.crc32c(record, 0, record.length), encoded);
        if (cache != null) {
            cache.put(page);
        }
        return page;
    }

    /** Where {@link #writeUncached} put a page: its address and the checksum its parent keeps. */
    record Written(long address, int checksum) {
    }

    /**
     * Writes an encoded page that is neither decoded nor cached (a bulk build's pages, which the
     * building thread never reads back); cheaper than {@link #writePage} by the decoding.
     */
    Written writeUncached(byte[] encoded) {
        byte[] record = record(encoded);
        long address = store.write(ByteBuffer.wrap(record));
        return new Written(address, Checksums.crc32c(record, 0, record.length));
    }

    LargeValue writeLargeValue(byte[] value) {
        byte[] record = new byte[value.length + 1];
        record[0] = PageFormat.LARGE_VALUE;
        System.arraycopy(value, 0, record, 1, value.length);
        long address = store.write(ByteBuffer.wrap(record));
        return new LargeValue(address, Checksums.crc32c(record, 0, record.length), value.length);
    }

    byte[] readLargeValue(LargeValue ref) {
        ByteBuffer buf = store.read(ref.address(), ref.checksum());
        if (buf.remaining() != ref.length() + 1 || buf.get(0) != PageFormat.LARGE_VALUE) {
            throw new CorruptRecordException(ref.address(), "not a large value of " + ref.length() + " bytes (record has "
                    + buf.remaining() + " bytes)");
        }
        byte[] value = new byte[ref.length()];
        buf.duplicate().position(1).get(value);
        return value;
    }

    /** Frees a record now and drops its cached page. */
    void free(long address) {
        if (cache != null) {
            cache.invalidate(address);
        }
        store.free(address);
    }
}
