package dev.basalt.store.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Positioned reads and writes on the journal file, holding the OS lock that keeps a second process
 * (or a second open in this one) away. Every I/O failure becomes a {@link StoreException} naming
 * the file and offset; a failed write or force leaves the last commit intact because commits only
 * ever become visible through a root block written after everything it points to.
 */
final class JournalFile implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;

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

    void truncate(long size) {
        try {
            channel.truncate(size);
        } catch (IOException e) {
            throw new StoreException("cannot truncate " + path + " to " + size + " bytes: " + e, e);
        }
    }

    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException ignored) {
            // closing the channel releases the lock too
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing more to release
        }
    }
}
