package dev.basalt.sail.load;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Cuts a line-based RDF input (N-Triples, N-Quads) into chunks of whole lines, so that each chunk
 * can be parsed on its own thread. A chunk is about {@code size} bytes and ends after its last
 * line terminator ({@code \n} or {@code \r}); the bytes after it start the next chunk. Each chunk
 * knows the number of its first line (1-based), counted as Rio's line-based parsers count them:
 * {@code \n}, {@code \r} and {@code \r\n} each end one line. A line longer than a chunk makes that
 * chunk grow until the line ends. Not thread-safe: one reading thread.
 */
final class LineChunks {
    /** Bytes {@code [0, length)} of {@code bytes}, whole lines, the first one numbered {@code firstLine}. */
    record Chunk(byte[] bytes, int length, long firstLine) {
    }

    private final InputStream in;
    private final int size;
    private byte[] carry = new byte[0];
    private int carryLength;
    private long nextLine = 1;
    /** The previous chunk ended with {@code \r}: a {@code \n} starting this one ends no new line. */
    private boolean afterCr;
    private boolean eof;

    LineChunks(InputStream in, int size) {
        this.in = in;
        this.size = size;
    }

    /** The next chunk, or null at the end of the input. */
    Chunk next() throws IOException {
        if (eof && carryLength == 0) {
            return null;
        }
        byte[] buf = new byte[Math.max(size, carryLength + size / 2)];
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
