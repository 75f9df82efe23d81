package dev.basalt.store.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.StampedLock;

/**
 * Positioned reads and writes on the journal file, holding the OS lock that keeps a second process
 * (or a second open in this one) away. Every I/O failure becomes a {@link StoreException} naming
 * the file and offset; a failed write or force leaves the last commit intact because commits only
 * ever become visible through a root block written after everything it points to.
 *
 * <p>Threads: any number of threads read at once (positioned reads, and mappings published through
 * a volatile array, made under this object's monitor); reads through a mapping hold
 * {@link #beginMappedRead}'s shared stamp, so {@link #shrink} and {@link #close}, which hold the
 * mapping lock exclusively, never unmap bytes a read is copying. Writes, forces and truncation come
 * from the {@link Journal} under its monitor.
 */
final class JournalFile implements AutoCloseable {
    /** Bytes one read-only mapping of the file covers; mappings start at multiples of it. */
    static final long MAP_SIZE = 1L << 30;
    /**
     * Records are read through read-only memory mappings of the file (a copy from the OS page
     * cache, no system call), unless the system property {@code basalt.journal.mapReads} is
     * {@code false}. A positioned read cost ~17 µs a page on the benchmark machine.
     */
    static final boolean MAP_READS = !"false".equals(System.getProperty("basalt.journal.mapReads"));

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    /** Mapping i covers the file from i * MAP_SIZE to the file's size when it was made (at most MAP_SIZE). */
    private volatile MappedByteBuffer[] maps = new MappedByteBuffer[0];
    /**
     * Reads of a mapping hold it shared; {@link #close} holds it exclusively while it unmaps, so
     * that a volume can be unmounted after a store closes and no read touches unmapped memory.
     */
    private final StampedLock mapping = new StampedLock();
    private boolean unmapped;
    /** Mappings replaced by larger ones as the file grew; readers may still use them, so unmapped at close. */
    private final List<MappedByteBuffer> retired = new ArrayList<>();
    /** A mapping of the file's growing end is replaced only after the file grew by this much. */
    private static final long REMAP_GROWTH = 64L << 20;

    private JournalFile(Path path, FileChannel channel, FileLock lock) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
    }

    static JournalFile open(Path path, boolean create) {
        FileChannel ch;
        try {
            ch = create
                    ? FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StoreException("cannot open journal " + path + ": " + e, e);
        }
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            closeQuietly(ch);
            throw new StoreException("cannot lock journal " + path + ": " + e, e);
        }
        if (lock == null) {
            closeQuietly(ch);
            throw new JournalLockedException(path);
        }
        return new JournalFile(path, ch, lock);
    }

    Path path() {
        return path;
    }

    long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new StoreException("cannot read the size of " + path + ": " + e, e);
        }
    }

    /** Reads exactly {@code dst.remaining()} bytes at {@code offset}, or fewer at end of file. */
    int read(ByteBuffer dst, long offset) {
        int total = 0;
        try {
            while (dst.hasRemaining()) {
                int n = channel.read(dst, offset + total);
                if (n < 0) {
                    break;
                }
                total += n;
            }
        } catch (IOException e) {
            throw new StoreException("read failed in " + path + " at offset " + offset + ": " + e, e);
        }
        return total;
    }

    /**
     * The read-only mapping holding the file's bytes {@code [offset, offset + length)}, to be read
     * with absolute gets at {@code offset % MAP_SIZE}; null if that range is not mappable (mapping
     * off, beyond the end of the file, across two mappings, or the map call failed): the caller
     * then uses {@link #read}. Mappings never cover bytes beyond the end of the file as it was
     * when they were made, and the file only shrinks through {@link #shrink}, which drops every
     * mapping first, so a mapped byte is always backed by the file.
     */
    ByteBuffer mapped(long offset, int length) {
        if (!MAP_READS || offset < 0 || length < 0 || unmapped) {
            return null;
        }
        int index = (int) (offset / MAP_SIZE);
        long start = index * MAP_SIZE;
        long end = offset + length;
        if (end > start + MAP_SIZE) {
            return null;
        }
        MappedByteBuffer[] current = maps;
        MappedByteBuffer map = index < current.length ? current[index] : null;
        return map != null && end <= start + map.capacity() ? map : remap(index, end);
    }

    /** Starts reading through mappings: hold the returned stamp until the bytes are copied. */
    long beginMappedRead() {
        return mapping.readLock();
    }

    void endMappedRead(long stamp) {
        mapping.unlockRead(stamp);
    }

    private synchronized ByteBuffer remap(int index, long end) {
        long start = index * MAP_SIZE;
        MappedByteBuffer[] current = maps;
        MappedByteBuffer map = index < current.length ? current[index] : null;
        if (map != null && end <= start + map.capacity()) {
            return map;
        }
        long size = size();
        if (end > size || !channel.isOpen()) {
            return null;
        }
        if (map != null) {
            // the file grew past this mapping: read the new end with system calls until it grew
            // enough to be worth another mapping (bounds the mappings a growing file makes)
            if (size - (start + map.capacity()) < REMAP_GROWTH && size - start < MAP_SIZE) {
                return null;
            }
            retired.add(map);
        }
        try {
            map = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(MAP_SIZE, size - start));
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
        MappedByteBuffer[] next = Arrays.copyOf(current, Math.max(current.length, index + 1));
        next[index] = map;
        maps = next;
        return map;
    }

    void write(ByteBuffer src, long offset) {
        long pos = offset;
        try {
            while (src.hasRemaining()) {
                pos += channel.write(src, pos);
            }
        } catch (IOException e) {
            throw new StoreException("write failed in " + path + " at offset " + pos
                    + " (" + e.getMessage() + "); is the disk full? The last commit is intact; the open transaction must be rolled back", e);
        }
    }

    void force() {
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new StoreException("flushing " + path + " to disk failed: " + e + "; the last commit before this one is intact", e);
        }
    }

    /**
     * Cuts the file to {@code size} bytes. Every mapping is unmapped first, while no mapped read
     * runs (the mapping lock is held exclusively), so none covers bytes that are gone; later reads
     * map the file again.
     */
    void shrink(long size) {
        long stamp = mapping.writeLock();
        try {
            unmapAll();
            truncate(size);
        } finally {
            mapping.unlockWrite(stamp);
        }
    }

    /** Unmaps every mapping; the caller holds {@link #mapping} exclusively, so no mapped read runs. */
    private synchronized void unmapAll() {
        for (MappedByteBuffer map : maps) {
            if (map != null) {
                unmap(map);
            }
        }
        retired.forEach(JournalFile::unmap);
        retired.clear();
        maps = new MappedByteBuffer[0];
    }

    void truncate(long size) {
        try {
            channel.truncate(size);
        } catch (IOException e) {
            throw new StoreException("cannot truncate " + path + " to " + size + " bytes: " + e, e);
        }
    }

    @Override
    public void close() {
        long stamp = mapping.writeLock();
        try {
            unmapped = true;
            unmapAll();
        } finally {
            mapping.unlockWrite(stamp);
        }
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException ignored) {
            // closing the channel releases the lock too
        }
        closeQuietly(channel);
    }

    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;

    static {
        Object unsafe = null;
        Method invokeCleaner = null;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = field.get(null);
            invokeCleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // no explicit unmapping: mappings go when collected
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = invokeCleaner;
    }

    /** Unmaps now (no reader holds it: see {@link #mapping}), else leaves it to the collector. */
    private static void unmap(MappedByteBuffer map) {
        if (INVOKE_CLEANER != null) {
            try {
                INVOKE_CLEANER.invoke(UNSAFE, map);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // left to the collector
            }
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
