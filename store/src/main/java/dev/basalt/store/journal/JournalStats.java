package dev.basalt.store.journal;

/**
 * What a journal reports about itself; cheap to take.
 *
 * <p>Immutable; safe to share between threads.
 *
 * @param fileBytes          length of the file
 * @param bytesInUse         space in slots and extents in use (live, deferred and metadata)
 * @param bytesDeferred      space freed by commits but still visible to retained or pinned commit points
 * @param bytesPinned        of that, space held back only by open readers
 * @param openReaders        pinned commit points (readers) open now
 * @param oldestPinnedCommit commit counter of the oldest pinned commit point, or -1 if none
 * @param oldestReadableCommit oldest commit point that can still be opened
 * @param regions            slot regions of the RW allocator (0 in WORM)
 * @param tablePages         pages of the stored region table at the last commit (0 in WORM or before the first RW commit)
 */
public record JournalStats(JournalMode mode, long commitCounter, long commitTimeMillis, long fileBytes,
                           long bytesInUse, long bytesDeferred, long bytesPinned, int openReaders,
                           long oldestPinnedCommit, long oldestReadableCommit, int regions,
                           int tablePages) {
}
