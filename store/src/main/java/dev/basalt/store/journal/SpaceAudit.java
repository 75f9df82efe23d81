package dev.basalt.store.journal;

import dev.basalt.store.io.LongArray;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Checks an RW allocator against what a commit point uses (see {@link Journal#auditSpace}): every
 * record reachable from it, every deferred free and every piece of allocator metadata must be in
 * use exactly once, and together they must be all the space in use, so nothing leaks and nothing
 * is shared. Used by one thread under the journal's monitor.
 */
final class SpaceAudit {
    private final SlotAllocator alloc;
    private final Set<Long> seen = new HashSet<>();
    private long bytes;

    private SpaceAudit(SlotAllocator alloc) {
        this.alloc = alloc;
    }

    /** Returns the bytes accounted for; throws naming the address or the leaked amount. */
    static long run(SlotAllocator alloc, DeferredFrees deferred, LongArray pendingFrees, long stateRecord,
                    LongArray reachable, RecordFraming records, Path path) {
        SpaceAudit a = new SpaceAudit(alloc);
        for (int i = 0; i < reachable.size(); i++) {
            a.account(reachable.get(i), "reachable");
        }
        for (DeferredFrees.Group g : deferred.all()) {
            for (long address : DeferredFrees.decodeAddresses(records.read(g.record(), g.recordCrc()), g)) {
                a.account(address, "deferred free of commit " + g.commit());
            }
            a.account(g.record(), "deferred-free list of commit " + g.commit());
        }
        for (DeferredFrees.Segment s : deferred.sealed) {
            a.account(s.address, "deferred-free segment");
        }
        for (int i = 0; i < pendingFrees.size(); i++) {
            a.account(pendingFrees.get(i), "record freed since the last commit");
        }
        if (stateRecord != RecordStore.NULL) {
            a.account(stateRecord, "allocator state");
        }
        for (Region r : alloc.regions.values()) {
            a.account(r.bitmapAddress, "region bitmap");
        }
        for (RegionTable.PageRef page : alloc.table.pages.values()) {
            a.account(page.address(), "allocator table page");
        }
        long inUse = alloc.bytesInUse();
        if (a.bytes != inUse) {
            throw new StoreException(path + ": " + inUse + " bytes are in use but only " + a.bytes
                    + " are reachable, deferred or metadata (" + (inUse - a.bytes) + " bytes leaked)");
        }
        return a.bytes;
    }

    private void account(long address, String what) {
        if (!seen.add(address)) {
            throw new CorruptRecordException(address, what + " is referenced twice (double free or shared record)");
        }
        if (!alloc.isInUse(address)) {
            throw new CorruptRecordException(address, what + " lies in space the allocator counts as free");
        }
        bytes += Addresses.span(address);
    }
}
