package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.junit.jupiter.api.Test;

/** Chunks hold whole lines, put back together give the input, and know their first line's number. */
class LineChunksTest {
    @Test
    void chunksAreWholeLinesWithTheirLineNumbers() throws IOException {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        for (int round = 0; round < 200; round++) {
            StringBuilder text = new StringBuilder();
            int lines = rnd.nextInt(300);
            String[] ends = { "\n", "\r\n", "\r" };
            for (int i = 0; i < lines; i++) {
                text.append("line").append(i).append("x".repeat(rnd.nextInt(rnd.nextInt(10) == 0 ? 500 : 40)));
                text.append(ends[rnd.nextInt(10) == 0 ? rnd.nextInt(3) : 0]);
            }
            if (rnd.nextBoolean()) {
                text.append("last line without a terminator");
            }
            check(text.toString(), 1 + rnd.nextInt(200), rnd, "seed=" + seed + " round " + round);
        }
    }

    private static void check(String text, int size, Random rnd, String ctx) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        LineChunks chunks = new LineChunks(trickle(bytes, rnd), size);
        StringBuilder joined = new StringBuilder();
        for (LineChunks.Chunk c = chunks.next(); c != null; c = chunks.next()) {
            String part = new String(c.bytes(), 0, c.length(), StandardCharsets.UTF_8);
            assertEquals(lineNumberAt(text, joined.length()), c.firstLine(), ctx + " chunk at " + joined.length());
            boolean last = joined.length() + part.length() == text.length();
            char end = part.charAt(part.length() - 1);
            if (!last) {
                assertEquals(true, end == '\n' || end == '\r', ctx + ": a chunk that is not the last ends a line");
            }
            joined.append(part);
        }
        assertEquals(text, joined.toString(), ctx);
    }

    /** The number of the line that byte {@code offset} of {@code text} is on, counting \n, \r\n and \r as one terminator. */
    private static long lineNumberAt(String text, int offset) {
        long line = 1;
        for (int i = 0; i < offset; i++) {
            char ch = text.charAt(i);
            if (ch == '\n' || (ch == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                line++;
            }
        }
        return line;
    }

    /** A stream that returns short reads, as a pipe or a gzip stream does. */
    private static InputStream trickle(byte[] bytes, Random rnd) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + rnd.nextInt(64)));
            }
        };
    }

    @Test
    void newlinesAreCountedEightBytesAtATime() {
        long seed = Long.getLong("basalt.seed", 17);
        Random rnd = new Random(seed);
        for (int round = 0; round < 2000; round++) {
            byte[] b = new byte[rnd.nextInt(100)];
            for (int i = 0; i < b.length; i++) {
                int r = rnd.nextInt(10);
                b[i] = (byte) (r == 0 ? '\n' : r == 1 && round % 2 == 0 ? '\r' : rnd.nextInt(256));
            }
            int length = b.length == 0 ? 0 : rnd.nextInt(b.length + 1);
            int expected = 0;
            for (int i = 0; i < length && expected >= 0; i++) {
                expected = b[i] == '\r' ? -1 : b[i] == '\n' ? expected + 1 : expected;
            }
            assertEquals(expected, LineChunks.countNewlinesWithoutCr(b, length), "seed=" + seed + " round " + round);
        }
    }

    @Test
    void recycledArraysGiveTheSameChunks() throws IOException {
        long seed = Long.getLong("basalt.seed", 17);
        Random rnd = new Random(seed);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            text.append("line ").append(i).append("y".repeat(rnd.nextInt(90))).append(i % 97 == 0 ? "\r\n" : "\n");
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        BlockingQueue<byte[]> spares = new ArrayBlockingQueue<>(2);
        LineChunks chunks = new LineChunks(trickle(bytes, rnd), 1024, spares);
        StringBuilder joined = new StringBuilder();
        for (LineChunks.Chunk c = chunks.next(); c != null; c = chunks.next()) {
            assertEquals(lineNumberAt(text.toString(), joined.length()), c.firstLine(), "seed=" + seed);
            joined.append(new String(c.bytes(), 0, c.length(), StandardCharsets.UTF_8));
            Arrays.fill(c.bytes(), (byte) '?'); // a user done with the chunk may leave anything in it
            LineChunks.recycle(c, 1024, spares);
        }
        assertEquals(text.toString(), joined.toString(), "seed=" + seed);
    }
}
