package dev.basalt.sail.load;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Cuts a line-based RDF input (N-Triples, N-Quads) into chunks of whole lines, so that each chunk
 * can be parsed on its own thread. A chunk is about {@code size} bytes and ends after its last
 * line terminator ({@code \n} or {@code \r}); the bytes after it start the next chunk. Each chunk
 * knows the number of its first line (1-based), counted as Rio's line-based parsers count them:
 * {@code \n}, {@code \r} and {@code \r\n} each end one line. A line longer than a chunk makes that
 * chunk grow until the line ends. Not thread-safe: one reading thread (the queue of spare arrays
 * is shared with the threads that use the chunks).
 */
final class LineChunks {
    /** Bytes {@code [0, length)} of {@code bytes}, whole lines, the first one numbered {@code firstLine}. */
    record Chunk(byte[] bytes, int length, long firstLine) {
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final InputStream in;
    private final int size;
    /** Spare arrays of {@code size} bytes, handed back by the chunks' users once they are done. */
    private final BlockingQueue<byte[]> spares;
    private byte[] carry = new byte[0];
    private int carryLength;
    private long nextLine = 1;
    /** The previous chunk ended with {@code \r}: a {@code \n} starting this one ends no new line. */
    private boolean afterCr;
    private boolean eof;

    LineChunks(InputStream in, int size) {
        this(in, size, new ArrayBlockingQueue<>(1));
    }

    /**
     * Chunks that take their arrays from {@code spares} where one fits, so a user that hands a
     * chunk's array back ({@link #recycle}) once done saves allocating (and collecting) a large
     * array per chunk.
     */
    LineChunks(InputStream in, int size, BlockingQueue<byte[]> spares) {
        this.in = in;
        this.size = size;
        this.spares = spares;
    }

    /** Hands {@code chunk}'s array to {@code spares} for a later chunk, if it has the usual size and there is room. */
    static void recycle(Chunk chunk, int size, BlockingQueue<byte[]> spares) {
        if (chunk.bytes().length == size) {
            spares.offer(chunk.bytes());
        }
    }

    /** The next chunk, or null at the end of the input. */
    Chunk next() throws IOException {
        if (eof && carryLength == 0) {
            return null;
        }
        int want = Math.max(size, carryLength + size / 2);
        byte[] buf = want == size ? spares.poll() : null;
        if (buf == null) {
            buf = new byte[want];
        }
        System.arraycopy(carry, 0, buf, 0, carryLength);
        int length = carryLength;
        int cut = -1;
        int searched = 0;
        while (cut < 0) {
            if (eof) {
                cut = length;
                break;
            }
            if (length == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            int n = in.read(buf, length, buf.length - length);
            if (n < 0) {
                eof = true;
                continue;
            }
            length += n;
            if (length >= size) {
                cut = lastTerminator(buf, searched, length);
                searched = length;
            }
        }
        if (cut == 0 && eof) {
            carryLength = 0;
            return null;
        }
        carryLength = length - cut;
        if (carry.length < carryLength) {
            carry = new byte[Math.max(carryLength, size / 4)];
        }
        System.arraycopy(buf, cut, carry, 0, carryLength);
        Chunk chunk = new Chunk(buf, cut, nextLine);
        nextLine += countLines(buf, cut);
        return chunk;
    }

    /**
     * The number of {@code \n} bytes in {@code buf[0, length)}, or -1 if it holds a {@code \r}:
     * eight bytes at a time (a byte equal to {@code c} is a zero byte of {@code word ^ c * 0x0101…},
     * found exactly by {@link #zeroBytes}).
     */
    static int countNewlinesWithoutCr(byte[] buf, int length) {
        int lines = 0;
        long cr = 0;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long w = (long) LONGS.get(buf, i);
            lines += Long.bitCount(zeroBytes(w ^ 0x0A0A0A0A0A0A0A0AL));
            cr |= zeroBytes(w ^ 0x0D0D0D0D0D0D0D0DL);
        }
        if (cr != 0) {
            return -1;
        }
        for (; i < length; i++) {
            if (buf[i] == '\r') {
                return -1;
            }
            if (buf[i] == '\n') {
                lines++;
            }
        }
        return lines;
    }

    /** The high bit of each byte of {@code w} that is zero, and no other bit. */
    private static long zeroBytes(long w) {
        long low7 = 0x7F7F7F7F7F7F7F7FL;
        return ~(((w & low7) + low7) | w | low7);
    }

    /**
     * One past the last line terminator in {@code buf[from, to)}, or -1 if there is none. A
     * {@code \r} counts only when the byte after it is known and is not {@code \n}, so a chunk
     * never starts with the second byte of a {@code \r\n}.
     */
    private static int lastTerminator(byte[] buf, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < to && buf[i + 1] != '\n')) {
                return i + 1;
            }
        }
        return -1;
    }

    /** Line terminators in {@code buf[0, length)}, continuing the previous chunk's state. */
    private int countLines(byte[] buf, int length) {
        if (!afterCr) {
            int lines = countNewlinesWithoutCr(buf, length);
            if (lines >= 0) {
                return lines; // afterCr stays false: the chunk has no \r
            }
        }
        int lines = 0;
        boolean cr = afterCr;
        for (int i = 0; i < length; i++) {
            byte b = buf[i];
            if (b == '\n') {
                if (!cr) {
                    lines++;
                }
                cr = false;
            } else if (b == '\r') {
                lines++;
                cr = true;
            } else {
                cr = false;
            }
        }
        afterCr = cr;
        return lines;
    }
}
