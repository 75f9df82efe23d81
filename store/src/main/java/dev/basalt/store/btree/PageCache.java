package dev.basalt.store.btree;

import dev.basalt.store.cache.ClockCache;

/**
 * Clean decoded pages shared by every tree of one store, keyed by record address and bounded by
 * the approximate heap size of the decoded pages. Records are immutable, so a cached page is
 * safe to share between the writer and any number of concurrent readers.
 *
 * <p>An address can be reused after its record is freed, so a hit counts only if the page's
 * CRC32C equals the one the caller holds from the parent pointer; otherwise the caller reads the
 * record again and replaces the entry. Trees also drop an entry when they free its record.
 * Thread-safe.
 */
public final class PageCache {
    /** A page's usual decoded size, for the cache's segment count. */
    private static final int TYPICAL_PAGE_WEIGHT = 8192;

    private final ClockCache<Page> pages;

    public PageCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        this.pages = new ClockCache<>(maxBytes, TYPICAL_PAGE_WEIGHT, Page::weight);
    }

    public long maxBytes() {
        return pages.maxWeight();
    }

    /** Approximate bytes of decoded pages held now. */
    public long weightedSize() {
        return pages.weightedSize();
    }

    public void invalidateAll() {
        pages.invalidateAll();
    }

    Page get(long address, int checksum) {
        Page page = pages.get(address);
        return page != null && page.checksum() == checksum ? page : null;
    }

    /** The cache entry of {@code address}, or null; see {@link ClockCache.Handle}. */
    ClockCache.Handle<Page> handle(long address) {
        return pages.handle(address);
    }

    /** Caches {@code page} under its address; returns its entry, or null if it is not cached. */
    ClockCache.Handle<Page> put(Page page) {
        return pages.put(page.address(), page);
    }

    void invalidate(long address) {
        pages.invalidate(address);
    }
}
