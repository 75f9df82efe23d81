package dev.basalt.store.btree;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.basalt.store.io.TaskResults;

/**
 * Builds a tree bottom-up from strictly ascending input: leaves are filled to their limit and
 * written as soon as the next one starts, and each level passes (separator, child) pairs to the
 * level above. Each level holds one finished page back so that at the end an underfull last page
 * can be merged with it (and split evenly if needed); every page but those two is full. A leaf
 * whose exact coded size {@link LeafSizer} knows is full when its record (payload and 8 bytes of
 * framing) would pass {@link BTreeConfig#maxPageBytes()}, so a page size equal to a slot class
 * (docs/FORMAT.md 1.5) gives leaves that fill their slots; other leaves stop at the estimate.
 * Memory is one or two pages per level. On any failure the records written so far are freed.
 *
 * <p>Coding a full leaf into its page bytes is most of a build's work, so finished leaves are
 * coded on helper threads while the building thread goes on filling the next ones; the coded
 * pages are still written, and passed to the level above, by the building thread in key order, so
 * the tree is the one a single thread would build. At most {@link #LEAVES_IN_FLIGHT} leaves wait.
 *
 * <p>Thread rules: one thread builds; the helper threads only code leaves it no longer touches,
 * and end with the build.
 */
final class BulkBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(BulkBuilder.class);

    /** One level of the tree under construction. */
    private static final class Level {
        DirtyNode pending;
        byte[] pendingSeparator;
        DirtyNode current;
        byte[] currentSeparator;
    }

    static final byte[] NO_VALUE = new byte[0];
    /** Bytes of a record's framing (length and CRC32C, docs/FORMAT.md 1.4) besides its payload. */
    private static final int RECORD_FRAMING = 8;

    /** Finished leaves handed to the helper threads and not yet written. */
    private static final int LEAVES_IN_FLIGHT = 16;

    /** A leaf being coded, with what its parent needs once it is written. */
    private record CodingLeaf(Future<byte[]> page, byte[] separator, long entries) {
    }

    private final PageIO io;
    private final ArrayDeque<CodingLeaf> coding = new ArrayDeque<>();
    private ExecutorService coders;
    private final BTreeConfig config;
    private final List<Level> levels = new ArrayList<>();
    private final List<Long> written = new ArrayList<>();
    private byte[] lastKey;
    private long count;
    /** The current leaf's exact encoded size. */
    private final LeafSizer sizer;

    BulkBuilder(PageIO io, BTreeConfig config) {
        this.io = io;
        this.config = config;
        this.sizer = new LeafSizer(config);
    }

    BTreeCheckpoint build(Iterator<? extends Map.Entry<byte[], byte[]>> entries) {
        try {
            Level leaves = level(0);
            leaves.current = new DirtyLeaf(config.leafMaxEntries() + 1);
            while (entries.hasNext()) {
                Map.Entry<byte[], byte[]> e = entries.next();
                add(leaves, e.getKey(), e.getValue());
            }
            BTreeCheckpoint checkpoint = finish();
            LOG.debug("bulk build wrote {} entries in {} records: {}", count, written.size(), checkpoint);
            return checkpoint;
        } catch (RuntimeException e) {
            for (long address : written) {
                try {
                    io.free(address);
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        } finally {
            if (coders != null) {
                coders.shutdownNow();
            }
        }
    }

    private Level level(int i) {
        while (levels.size() <= i) {
            levels.add(new Level());
        }
        return levels.get(i);
    }

    private void add(Level leaves, byte[] key, byte[] value) {
        if (key == null || value == null) {
            throw new IllegalArgumentException("null key or value at input entry " + count);
        }
        if (key.length > BTreeConfig.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("key of " + key.length + " bytes at input entry " + count + " exceeds "
                    + BTreeConfig.MAX_KEY_BYTES);
        }
        if (lastKey != null && Arrays.compareUnsigned(lastKey, key) >= 0) {
            throw new IllegalArgumentException("bulk build input is not strictly ascending at entry " + count
                    + (Arrays.equals(lastKey, key) ? " (duplicate key)" : ""));
        }
        Object stored;
        if (value.length > config.inlineValueThreshold()) {
            LargeValue large = io.writeLargeValue(value);
            written.add(large.address());
            stored = large;
        } else {
            stored = value.length == 0 ? NO_VALUE : value.clone(); // the statement indices' keys have no value
        }
        byte[] ownKey = key.clone();
        DirtyLeaf current = (DirtyLeaf) leaves.current;
        // a leaf whose exact size is known is cut where its record (payload and framing) still fits
        // maxPageBytes, so that it fills the slot class of that size; else by the estimate
        long sized = sizer.bytesWith(ownKey, stored);
        boolean full = current.width() >= config.leafMaxEntries() || current.width() > 0
                && (sized != LeafSizer.UNKNOWN ? sized + RECORD_FRAMING > config.maxPageBytes()
                        : current.estimatedBytes() + DirtyLeaf.entryBytes(ownKey, stored) > config.maxPageBytes());
        if (full) {
            rotate(0, leaves, PageFormat.shortestSeparator(current.lastKey(), ownKey),
                    new DirtyLeaf(config.leafMaxEntries() + 1));
            sizer.reset();
            sized = sizer.bytesWith(ownKey, stored);
        }
        ((DirtyLeaf) leaves.current).append(ownKey, stored);
        sizer.add(ownKey, sized);
        lastKey = ownKey;
        count++;
    }

    /** Sends the held-back page up, holds back the current one and starts {@code next}. */
    private void rotate(int depth, Level level, byte[] separator, DirtyNode next) {
        if (level.pending != null) {
            flush(depth, level.pending, level.pendingSeparator);
        }
        level.pending = level.current;
        level.pendingSeparator = level.currentSeparator;
        level.current = next;
        level.currentSeparator = separator;
    }

    private void flush(int depth, DirtyNode node, byte[] separator) {
        if (node instanceof DirtyLeaf leaf) {
            if (coders == null) {
                int threads = Math.max(1, Math.min(3, Runtime.getRuntime().availableProcessors() - 1));
                coders = Executors.newFixedThreadPool(threads, r -> {
                    Thread t = new Thread(r, "basalt-bulk-leaf-coder");
                    t.setDaemon(true);
                    return t;
                });
            }
            coding.add(new CodingLeaf(coders.submit(() -> leaf.encode(config)), separator, leaf.entryCount()));
            if (coding.size() > LEAVES_IN_FLIGHT) {
                writeCodedLeaf();
            }
            return;
        }
        byte[] encoded = node instanceof DirtyLeaf leaf ? leaf.encode(config) : ((DirtyInternal) node).encode();
        PageIO.Written page = io.writeUncached(encoded);
        written.add(page.address());
        addChild(depth + 1, separator, page.address(), page.checksum(), node.entryCount());
    }

    /** Writes the oldest leaf handed to the coders and adds it to the level above. */
    private void writeCodedLeaf() {
        CodingLeaf leaf = coding.poll();
        byte[] encoded = TaskResults.await(leaf.page(), "coding a leaf page of a bulk build");
        PageIO.Written page = io.writeUncached(encoded);
        written.add(page.address());
        addChild(1, leaf.separator(), page.address(), page.checksum(), leaf.entries());
    }

    private void addChild(int depth, byte[] separator, long address, int checksum, long entries) {
        Level level = level(depth);
        if (level.current == null) {
            level.current = new DirtyInternal(config.internalMaxEntries() + 1);
        }
        DirtyInternal current = (DirtyInternal) level.current;
        boolean full = current.width() >= config.internalMaxEntries() || current.width() >= 2
                && current.estimatedBytes() + separator.length + 26 > config.maxPageBytes();
        if (full) {
            rotate(depth, level, separator, new DirtyInternal(config.internalMaxEntries() + 1));
            current = (DirtyInternal) level.current;
        }
        current.appendClean(current.width() == 0 ? null : separator, address, checksum, entries);
    }

    /** Calls {@code action} with the address of every record the last successful build wrote. */
    void forEachWritten(java.util.function.LongConsumer action) {
        for (long address : written) {
            action.accept(address);
        }
    }

    private BTreeCheckpoint finish() {
        for (int depth = 0; ; depth++) {
            while (!coding.isEmpty()) {
                writeCodedLeaf(); // the level above is complete before it is finished
            }
            Level level = levels.get(depth);
            if (level.current.width() == 0) {
                return BTreeCheckpoint.EMPTY;
            }
            if (level.pending != null && level.current.underflows(config)) {
                DirtyNode merged = level.pending;
                if (merged instanceof DirtyLeaf leaf) {
                    leaf.absorb((DirtyLeaf) level.current);
                } else {
                    ((DirtyInternal) merged).absorb((DirtyInternal) level.current, level.currentSeparator);
                }
                level.current = merged;
                level.currentSeparator = level.pendingSeparator;
                level.pending = null;
                if (merged.overflows(config)) {
                    DirtyNode.Split split = merged.split(config);
                    level.pending = merged;
                    level.pendingSeparator = level.currentSeparator;
                    level.current = split.right();
                    level.currentSeparator = split.separator();
                }
            }
            if (level.pending == null && depth == levels.size() - 1) {
                byte[] encoded = level.current instanceof DirtyLeaf leaf
                        ? leaf.encode(config) : ((DirtyInternal) level.current).encode();
                PageIO.Written root = io.writeUncached(encoded);
                written.add(root.address());
                return new BTreeCheckpoint(root.address(), root.checksum(), count, depth + 1);
            }
            if (level.pending != null) {
                flush(depth, level.pending, level.pendingSeparator);
            }
            flush(depth, level.current, level.currentSeparator);
        }
    }
}
