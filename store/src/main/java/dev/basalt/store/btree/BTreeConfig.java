package dev.basalt.store.btree;

/**
 * Shape and write behaviour of one B+tree index; immutable, set per index.
 *
 * <p>A page splits when it holds more than its maximum entries (leaf) or children (internal), or
 * when its estimated encoded size exceeds {@link #maxPageBytes()} and it holds at least two
 * entries. The entry limit fixes the fan-out for small keys (quads: 32-byte keys), the byte limit
 * keeps pages of long keys (lexicon) near the journal's largest slot size. A non-root page whose
 * entry count falls below a quarter of the maximum while it is smaller than a quarter of
 * {@code maxPageBytes} is merged with a sibling (and split again if the union is too large).
 *
 * @param leafMaxEntries         most entries in a leaf page (at least 2)
 * @param internalMaxEntries     most children of an internal page (at least 3)
 * @param maxPageBytes           soft upper bound of a page's encoded size, in bytes
 * @param restartInterval        a leaf stores a full key every this many keys (1..255); a lookup
 *                               scans at most this many front-coded keys (in an id-tuple leaf,
 *                               every this many keys are kept whole in memory once the page is
 *                               decoded, and a lookup decodes at most this many entries)
 * @param inlineValueThreshold   values longer than this many bytes are stored as separate
 *                               records and the leaf keeps their address, checksum and length
 * @param writeRetentionCapacity dirty pages held in memory before the eldest writable one is
 *                               coded and written
 * @param idTupleWidth           0 for trees with any keys; 1..4 for trees whose keys are that many
 *                               8-byte ids (statement indices: 4), whose leaves are then written
 *                               as id-tuple leaves (delta-coded ids, docs/FORMAT.md); a leaf
 *                               holding a key of another length is still written front-coded
 * @param compressPages          write each page as a Zstandard-compressed record where that is
 *                               shorter (page format 3, docs/FORMAT.md); readers take either form
 *                               whatever this says. The page size limits above are of the coded
 *                               page before compression
 */
public record BTreeConfig(int leafMaxEntries, int internalMaxEntries, int maxPageBytes, int restartInterval,
                          int inlineValueThreshold, int writeRetentionCapacity, int idTupleWidth,
                          boolean compressPages) {

    /** Longest key a tree accepts; longer keys belong in a hash or a large value. */
    public static final int MAX_KEY_BYTES = 16 * 1024;

    public static final BTreeConfig DEFAULT = builder().build();

    public BTreeConfig {
        require(leafMaxEntries >= 2, "leafMaxEntries must be at least 2: " + leafMaxEntries);
        require(internalMaxEntries >= 3, "internalMaxEntries must be at least 3: " + internalMaxEntries);
        require(maxPageBytes >= 256 && maxPageBytes <= (1 << 24), "maxPageBytes must be in 256..16 MiB: " + maxPageBytes);
        require(restartInterval >= 1 && restartInterval <= 255, "restartInterval must be in 1..255: " + restartInterval);
        require(inlineValueThreshold >= 0 && inlineValueThreshold <= maxPageBytes / 4,
                "inlineValueThreshold must be in 0..maxPageBytes/4: " + inlineValueThreshold);
        require(writeRetentionCapacity >= 1, "writeRetentionCapacity must be at least 1: " + writeRetentionCapacity);
        require(idTupleWidth >= 0 && idTupleWidth <= IdTupleCoding.MAX_WIDTH,
                "idTupleWidth must be in 0.." + IdTupleCoding.MAX_WIDTH + ": " + idTupleWidth);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    int minLeafEntries() {
        return Math.max(1, leafMaxEntries / 4);
    }

    int minInternalEntries() {
        return Math.max(2, internalMaxEntries / 4);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder().leafMaxEntries(leafMaxEntries).internalMaxEntries(internalMaxEntries)
                .maxPageBytes(maxPageBytes).restartInterval(restartInterval).inlineValueThreshold(inlineValueThreshold)
                .writeRetentionCapacity(writeRetentionCapacity).idTupleWidth(idTupleWidth)
                .compressPages(compressPages);
    }

    /**
     * Builder with the defaults: 128/128 entries, 16 KiB pages, restarts every 8 keys, 256-byte
     * inline values, 1024 retained dirty pages, any keys (front-coded leaves), pages uncompressed.
     */
    public static final class Builder {
        private int leafMaxEntries = 128;
        private int internalMaxEntries = 128;
        private int maxPageBytes = 16 * 1024;
        // 8 rather than 16: a lookup's scan of one run of front-coded entries is the part of a
        // search that touches the page's bytes; on the 10M BSBM mix, 3 % less CPU per mix for
        // 4 % more bytes on disk (docs/FORMAT.md, "Leaf pages")
        private int restartInterval = 8;
        private int inlineValueThreshold = 256;
        private int writeRetentionCapacity = 1024;
        private int idTupleWidth;
        private boolean compressPages;

        public Builder leafMaxEntries(int n) {
            this.leafMaxEntries = n;
            return this;
        }

        public Builder internalMaxEntries(int n) {
            this.internalMaxEntries = n;
            return this;
        }

        public Builder maxPageBytes(int n) {
            this.maxPageBytes = n;
            return this;
        }

        public Builder restartInterval(int n) {
            this.restartInterval = n;
            return this;
        }

        public Builder inlineValueThreshold(int n) {
            this.inlineValueThreshold = n;
            return this;
        }

        public Builder writeRetentionCapacity(int n) {
            this.writeRetentionCapacity = n;
            return this;
        }

        /** Keys are {@code ids} 8-byte ids (1..4): leaves are written as id-tuple leaves; 0 for any keys. */
        public Builder idTupleWidth(int ids) {
            this.idTupleWidth = ids;
            return this;
        }

        /** Pages are written Zstandard-compressed where that is shorter (page format 3). */
        public Builder compressPages(boolean compress) {
            this.compressPages = compress;
            return this;
        }

        public BTreeConfig build() {
            return new BTreeConfig(leafMaxEntries, internalMaxEntries, maxPageBytes, restartInterval,
                    inlineValueThreshold, writeRetentionCapacity, idTupleWidth, compressPages);
        }
    }
}
