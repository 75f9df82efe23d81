package dev.basalt.optimizer.exec;

import dev.basalt.optimizer.access.QuadSource;

/**
 * The matches of a pattern whose object id lies in one of a list of intervals ({@link ObjectRanges}): where
 * the source can order the pattern by its object ({@link QuadSource#canOrder}, e.g. {@code posc} for
 * {@code ?s :p ?o}), an ordered scan that seeks to each interval's start and stops past its end, so only the
 * matches in the intervals are read; otherwise the pattern's scan with the others dropped. Matches come in
 * object order (ordered) or the scan's order. Not thread-safe: one cursor of one scan.
 */
final class RangeScan implements QuadSource.Scan {
    private static final int OBJECT = 2;
    private final long[] intervals;
    private final QuadSource.OrderedScan ordered;
    private final QuadSource.Scan plain;
    private final long[] quad = new long[4];
    /** The ordered scan's matches read and not yet given, four ids each. */
    private long[] buf;
    private int bufAt;
    private int bufLen;
    /** The interval the next match must reach. */
    private int interval;
    private boolean started;
    /** The object of the last match the ordered scan gave. */
    private long lastObject;
    private boolean done;

    private RangeScan(long[] intervals, QuadSource.OrderedScan ordered, QuadSource.Scan plain) {
        this.intervals = intervals;
        this.ordered = ordered;
        this.plain = plain;
    }

    /** The matches of {@code pattern} (object free) whose object lies in {@code intervals}. */
    static QuadSource.Scan open(QuadSource source, long[] pattern, long[] intervals) {
        if (source.canOrder(pattern, OBJECT)) {
            QuadSource.OrderedScan o = source.orderedScan(pattern, OBJECT);
            if (o != null) {
                return new RangeScan(intervals, o, null);
            }
        }
        return new RangeScan(intervals, null, source.scan(pattern));
    }

    @Override
    public boolean next(long[] out) {
        return nextBlock(quad, 1) == 1 && copy(out);
    }

    private boolean copy(long[] out) {
        System.arraycopy(quad, 0, out, 0, 4);
        return true;
    }

    @Override
    public int nextBlock(long[] quads, int max) {
        if (plain != null) {
            return filtered(quads, max);
        }
        if (buf == null) {
            buf = new long[4 * Math.max(max, 64)];
        }
        int n = 0;
        while (n < max && !done) {
            if (bufAt == bufLen && !refill()) {
                break;
            }
            // the buffered matches in object order: skip those below the interval, give those in it
            while (bufAt < bufLen && n < max) {
                long o = buf[4 * bufAt + OBJECT];
                while (Long.compareUnsigned(o, intervals[2 * interval + 1]) > 0) {
                    if (++interval == intervals.length / 2) {
                        done = true;
                        return n;
                    }
                }
                if (Long.compareUnsigned(o, intervals[2 * interval]) >= 0) {
                    System.arraycopy(buf, 4 * bufAt, quads, 4 * n++, 4);
                }
                bufAt++;
            }
        }
        return n;
    }

    /**
     * Reads the next matches into the buffer: a seek to the current interval's start when nothing was read
     * yet or every match given so far lies below it, else the ordered scan's next block. False at the end.
     */
    private boolean refill() {
        bufAt = 0;
        bufLen = 0;
        long lo = intervals[2 * interval];
        if (!started || Long.compareUnsigned(lastObject, lo) < 0) {
            started = true;
            if (!ordered.seek(lo, quad)) {
                done = true;
                return false;
            }
            System.arraycopy(quad, 0, buf, 0, 4);
            bufLen = 1;
        } else {
            bufLen = ordered.nextBlock(buf, buf.length / 4);
            if (bufLen == 0) {
                done = true;
                return false;
            }
        }
        lastObject = buf[4 * (bufLen - 1) + OBJECT];
        return true;
    }

    private int filtered(long[] quads, int max) {
        int n = 0;
        while (n == 0) {
            int got = plain.nextBlock(quads, max);
            if (got == 0) {
                return 0;
            }
            for (int e = 0; e < got; e++) {
                if (ObjectRanges.contains(intervals, quads[4 * e + OBJECT])) {
                    if (n != e) {
                        System.arraycopy(quads, 4 * e, quads, 4 * n, 4);
                    }
                    n++;
                }
            }
        }
        return n;
    }

    @Override
    public void close() {
        done = true;
        if (ordered != null) {
            ordered.close();
        } else {
            plain.close();
        }
    }
}
