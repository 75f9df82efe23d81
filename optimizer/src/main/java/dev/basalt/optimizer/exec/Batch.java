package dev.basalt.optimizer.exec;

/**
 * Up to {@link #CAPACITY} solution rows of one width held by columns: {@code cols[slot][i]} is the id
 * of row {@code i} in that slot (0 = unbound), as a {@link RowCursor} row would hold it. The batch
 * operators ({@link Operator#openBatch}) pass these between them so that a join step or an
 * aggregate handles arrays of ids in a loop instead of one row object per call.
 * Not thread-safe: a batch belongs to the cursor that fills it and is read by the one thread that
 * called that cursor, until its next call.
 */
public final class Batch {
    /** Rows per batch: the columns of a few slots stay in the first-level cache. */
    public static final int CAPACITY = 1024;
    final long[][] cols;
    int size;

    Batch(int width) {
        cols = new long[width][CAPACITY];
    }

    public int size() {
        return size;
    }

    public int width() {
        return cols.length;
    }

    /** The id of row {@code row} in {@code slot}. */
    public long id(int row, int slot) {
        return cols[slot][row];
    }

    /** The number of rows with at least one bound slot (COUNT(*) counts only those). */
    public int nonEmptyRows() {
        return nonEmptyRows(0, size);
    }

    /** The number of rows {@code from} to {@code to - 1} with at least one bound slot. */
    public int nonEmptyRows(int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            for (long[] col : cols) {
                if (col[i] != 0) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    boolean full() {
        return size == CAPACITY;
    }

    /** Appends {@code row} (of this batch's width). */
    void add(long[] row) {
        int n = size++;
        for (int c = 0; c < cols.length; c++) {
            cols[c][n] = row[c];
        }
    }

    /** Appends row {@code i} of {@code from} (of the same width); returns its index here. */
    int addCopy(Batch from, int i) {
        int n = size++;
        long[][] src = from.cols;
        for (int c = 0; c < cols.length; c++) {
            cols[c][n] = src[c][i];
        }
        return n;
    }

    /** Writes row {@code i} into {@code row} (of this batch's width). */
    void copyRow(int i, long[] row) {
        for (int c = 0; c < cols.length; c++) {
            row[c] = cols[c][i];
        }
    }

    /** A copy of this batch, its columns cut to its rows. */
    Batch copy() {
        Batch b = new Batch(cols.length, size);
        for (int c = 0; c < cols.length; c++) {
            System.arraycopy(cols[c], 0, b.cols[c], 0, size);
        }
        b.size = size;
        return b;
    }

    private Batch(int width, int rows) {
        cols = new long[width][rows];
    }

    /** Row {@code i} as a new array. */
    long[] row(int i) {
        long[] row = new long[cols.length];
        copyRow(i, row);
        return row;
    }
}
