package dev.basalt.optimizer.exec;

/**
 * The keys of a {@link GroupJoinOp}'s partitioned pattern when that pattern has no child and holds no
 * sums (each match is one joined row and carries nothing but its key) and is its parent's only child:
 * a multiset of term ids held as a bitmap in pages of 2^16 ids ({@value #PAGE_LONGS} longs), found
 * through a small open-addressing table of page numbers, with the count past one of an id that comes
 * more than once in an {@link IdSums} beside it. Its parent's matches then test their key's bit (one
 * read in a page, the page table a few kilobytes) and add the count to their out key, instead of both
 * sides being written to hash partitions and joined partition by partition ({@link RowPartitions}).
 * BSBM BI query 3 at 100M: a month's 1.5-2.6M {@code dc:date} subjects (offers, reviews, products)
 * set bits in about 300 pages (20 MB of pages), and the 2.85M {@code :reviewFor} matches test them.
 *
 * <p>The set takes ids while its pages fit in {@code maxLongs} longs and its repeated ids in a
 * table of a sixteenth of that: past either {@link #addAll} takes no more, and the caller writes the
 * set's ids to partitions ({@link #drainTo}) and goes on as before. Not thread-safe: one open's.
 */
final class IdKeySet {
    /** Ids per page: 2^{@value}. */
    static final int PAGE_BITS = 16;
    static final int PAGE_LONGS = 1 << PAGE_BITS - 6;
    /**
     * The estimated matches from which a leaf that is not joined by partitions has its keys in a set
     * rather than in an {@link IdSums} table (a few pages of 8 KB are then no more than that table).
     */
    static final long FROM_MATCHES = 1 << 14;
    private final long maxPages;
    private final long maxRepeated;
    /** Page number + 1 per slot (0: empty). */
    private long[] pageIds = new long[64];
    private long[][] pages = new long[64][];
    private int mask = 63;
    private int used;
    /** The count past one of each id added more than once, or null while none was. */
    private IdSums repeated;
    /** Distinct ids held. */
    private int size;

    /** A set whose pages and repeated ids may take {@code maxLongs} longs in all. */
    IdKeySet(long maxLongs) {
        this.maxPages = Math.max(1, maxLongs / PAGE_LONGS);
        this.maxRepeated = Math.max(64, maxLongs / 16);
    }

    /** Pages held. */
    int pages() {
        return used;
    }

    /**
     * Adds {@code ids[0..n)} (bound ids) in order; returns how many it took: fewer than {@code n} when
     * the next would pass the set's memory, and then it takes no more.
     */
    int addAll(long[] ids, int n) {
        for (int i = 0; i < n; i++) {
            long id = ids[i];
            long[] page = page(id >>> PAGE_BITS, true);
            if (page == null) {
                return i;
            }
            int bit = (int) id & (1 << PAGE_BITS) - 1;
            long mask = 1L << bit;
            int word = bit >>> 6;
            if ((page[word] & mask) == 0) {
                page[word] |= mask;
                size++;
            } else {
                if (repeated == null) {
                    repeated = new IdSums(64);
                } else if (repeated.size() >= maxRepeated) {
                    return i;
                }
                repeated.add(id, 1, 0, 0);
            }
        }
        return n;
    }

    /** Distinct ids held. */
    int size() {
        return size;
    }

    /** The distinct ids held, in id order. */
    long[] ids() {
        long[] out = new long[size];
        int[] n = {0};
        forEachId(id -> out[n[0]++] = id);
        java.util.Arrays.sort(out);
        return out;
    }

    /** Gives {@code action} each distinct id held, page by page. */
    private void forEachId(java.util.function.LongConsumer action) {
        for (int s = 0; s < pageIds.length; s++) {
            if (pageIds[s] == 0) {
                continue;
            }
            long base = pageIds[s] - 1 << PAGE_BITS;
            long[] page = pages[s];
            for (int w = 0; w < PAGE_LONGS; w++) {
                for (long bits = page[w]; bits != 0; bits &= bits - 1) {
                    action.accept(base | (long) w << 6 | Long.numberOfTrailingZeros(bits));
                }
            }
        }
    }

    /** How many times {@code id} was added (0: never). */
    long count(long id) {
        long[] page = page(id >>> PAGE_BITS, false);
        if (page == null) {
            return 0;
        }
        int bit = (int) id & (1 << PAGE_BITS) - 1;
        if ((page[bit >>> 6] & 1L << bit) == 0) {
            return 0;
        }
        if (repeated == null) {
            return 1;
        }
        int at = repeated.entry(id);
        return at < 0 ? 1 : 1 + repeated.count(at);
    }

    /**
     * Adds, per row {@code i < n} whose {@code keys[i]} the set holds, that many joined rows to
     * {@code outKeys[i]} in {@code out}: with {@code numbers} (packed as {@link JoinedAggregation}
     * packs them) the row's number times the count as the sum, else no sum. A run of equal out keys
     * without numbers adds once.
     */
    void probe(long[] keys, long[] outKeys, long[] numbers, int n, IdSums out) {
        long runKey = 0;
        long runCount = 0;
        for (int i = 0; i < n; i++) {
            long c = count(keys[i]);
            if (c == 0) {
                continue;
            }
            if (numbers != null) {
                long packed = numbers[i];
                out.add(outKeys[i], c, Math.multiplyExact(packed >> 6, c), packed & 63);
                continue;
            }
            if (outKeys[i] != runKey) {
                if (runCount > 0) {
                    out.add(runKey, runCount, 0, 0);
                }
                runKey = outKeys[i];
                runCount = 0;
            }
            runCount = Math.addExact(runCount, c);
        }
        if (runCount > 0) {
            out.add(runKey, runCount, 0, 0);
        }
    }

    /** Appends every id the set holds to {@code rows} (one-long rows: an id added twice twice), and drops the pages. */
    void drainTo(RowPartitions rows) {
        long[] buffer = new long[Batch.CAPACITY];
        int[] m = {0};
        forEachId(id -> {
            for (long c = count(id); c > 0; c--) {
                buffer[m[0]++] = id;
                if (m[0] == buffer.length) {
                    rows.addAll(buffer, null, null, m[0]);
                    m[0] = 0;
                }
            }
        });
        if (m[0] > 0) {
            rows.addAll(buffer, null, null, m[0]);
        }
        pageIds = new long[1];
        pages = new long[1][];
        mask = 0;
        used = 0;
        size = 0;
        repeated = null;
    }

    /** The page of {@code number}: made where {@code make} and there is room, else null where there is none. */
    private long[] page(long number, boolean make) {
        long key = number + 1;
        long h = key * 0x9E3779B97F4A7C15L;
        int slot = (int) (h ^ h >>> 32) & mask;
        while (true) {
            long k = pageIds[slot];
            if (k == key) {
                return pages[slot];
            }
            if (k == 0) {
                break;
            }
            slot = slot + 1 & mask;
        }
        if (!make || used >= maxPages) {
            return null;
        }
        long[] page = new long[PAGE_LONGS];
        pageIds[slot] = key;
        pages[slot] = page;
        if (++used * 4 > pageIds.length * 3) {
            grow();
        }
        return page;
    }

    private void grow() {
        long[] oldIds = pageIds;
        long[][] oldPages = pages;
        pageIds = new long[oldIds.length * 2];
        pages = new long[oldIds.length * 2][];
        mask = pageIds.length - 1;
        for (int s = 0; s < oldIds.length; s++) {
            if (oldIds[s] == 0) {
                continue;
            }
            long h = oldIds[s] * 0x9E3779B97F4A7C15L;
            int slot = (int) (h ^ h >>> 32) & mask;
            while (pageIds[slot] != 0) {
                slot = slot + 1 & mask;
            }
            pageIds[slot] = oldIds[s];
            pages[slot] = oldPages[s];
        }
    }
}
