package dev.basalt.store.btree;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;

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
    private final Cache<AddressKey, Page> pages;
    private final long maxBytes;

    public PageCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.pages = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((AddressKey address, Page page) -> page.weight())
                .recordStats()
                // maintenance (LRU reordering, eviction) runs on the calling thread, amortized over
                // accesses: handing it to the common pool woke a thread on most page hits, which
                // profiles of short queries showed as a large share of their time
                .executor(Runnable::run)
                .build();
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Approximate bytes of decoded pages held now. */
    public long weightedSize() {
        return pages.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    public CacheStats stats() {
        return pages.stats();
    }

    public void invalidateAll() {
        pages.invalidateAll();
    }

    Page get(AddressKey address, int checksum) {
        Page page = pages.getIfPresent(address);
        return page != null && page.checksum() == checksum ? page : null;
    }

    void put(Page page) {
        pages.put(new AddressKey(page.address()), page);
    }

    /** Caches {@code page} under {@code address}, which must be the page's own. */
    void put(AddressKey address, Page page) {
        assert address.address() == page.address();
        pages.put(address, page);
    }

    void invalidate(long address) {
        pages.invalidate(new AddressKey(address));
    }
}
