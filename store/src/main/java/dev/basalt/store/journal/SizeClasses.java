package dev.basalt.store.journal;

/**
 * The slot sizes of the RW allocator. Steps of at most 1.25x (64 bytes apart up to 512) keep the
 * space lost to rounding near 10% on average; a record needs its payload plus the 8-byte record header. Anything larger than the
 * largest slot is stored in a contiguous extent. See docs/FORMAT.md, "RW allocation".
 *
 * <p>Constants and pure functions; any thread may call it.
 */
final class SizeClasses {
    static final int[] SLOT_BYTES = {64, 128, 192, 256, 320, 384, 448, 512, 640, 768, 896, 1024, 1280, 1536, 1792,
            2048, 2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192};
    static final int MAX_SLOT = SLOT_BYTES[SLOT_BYTES.length - 1];
    /** Extents are rounded up to this many bytes so freed ones fit later ones more often. */
    static final int EXTENT_GRAIN = 4096;
    /** A region's bitmap must fit one 4 KiB slot: at most 32,768 slots a region. */
    static final int MAX_SLOTS_PER_REGION = 32_768;
    static final long MIN_REGION_BYTES = 64 * 1024;
    static final long MAX_REGION_BYTES = 4L * 1024 * 1024;

    private SizeClasses() {
    }

    /** Index of the smallest class holding {@code span} bytes, or -1 if it needs an extent. */
    static int classFor(int span) {
        for (int i = 0; i < SLOT_BYTES.length; i++) {
            if (SLOT_BYTES[i] >= span) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Slots for the next region of a class that already has {@code bytesInClass} bytes of regions
     * in a file of {@code fileBytes}: an eighth of the class and at most a 32nd of the file, between
     * {@link #MIN_REGION_BYTES} and {@link #MAX_REGION_BYTES}, so small stores stay small (a new
     * region is free space until it fills) and large ones keep their region table short.
     */
    static int slotsForNewRegion(int classIndex, long bytesInClass, long fileBytes) {
        int slot = SLOT_BYTES[classIndex];
        long bytes = Math.max(MIN_REGION_BYTES, Math.min(MAX_REGION_BYTES, Math.min(bytesInClass / 8, fileBytes / 32)));
        long slots = Math.max(8, Math.min(MAX_SLOTS_PER_REGION, bytes / slot));
        return (int) slots;
    }
}
