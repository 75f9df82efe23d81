package dev.basalt.sail.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.basalt.store.io.TaskResults;
import dev.basalt.store.quads.QuadOrder;
import dev.basalt.store.quads.QuadSort;

/**
 * External sort of the quads of one load, for every statement index order at once, in bounded
 * memory, with the sorting done beside the caller on a worker thread.
 *
 * <p>Quads are appended (ids in S, P, O, C positions) to a buffer of {@code capacity} quads. A
 * full buffer is handed to the worker, which for each order permutes it into that order's key
 * positions, radix-sorts and deduplicates ({@link QuadSort#sortDistinct}) and writes a sorted <em>run</em> file,
 * while the caller fills a second buffer. At the end {@link #sorted(int)} merges an order's runs
 * into one stream of distinct quads, merged on the worker thread ahead of the caller ({@link PrefetchedQuads}). If nothing was spilled, the buffer is sorted in memory
 * instead, and while the caller consumes order {@code i} the worker already sorts order
 * {@code i + 1}. Memory: at most five arrays of {@code 32 × capacity} bytes (two fill buffers and
 * a sort buffer with its radix scratch while spilling; the buffer and two sorted orders with
 * their scratch at the end of an in-memory sort), each allocated only when first needed.
 *
 * <p>Thread rules: one caller thread uses a sorter; the worker thread is its own and ends with
 * {@link #close()}. An exception of the worker (a full disk while writing a run) is thrown to the
 * caller by its next {@link #add} that needs the worker, or by {@link #sorted}.
 */
final class QuadSorter implements AutoCloseable {
    private final List<QuadOrder> orders;
    private final Path tempDir;
    private final int capacity;
    private final List<List<Path>> runs = new ArrayList<>();
    private final ExecutorService worker;
    private long[] filling;
    private int count;
    private boolean namedGraphs;
    /** The second fill buffer once a spill has been started; owned by the worker while its spill runs. */
    private long[] spare;
    /** Sort buffer and radix scratch of the worker's spills. */
    private long[] sortBuffer;
    private long[] sortScratch;
    private Future<?> pending;
    private long spilledBytes;
    private int runCounter;
    /** In-memory end: the next order sorted ahead by the worker, its array and its distinct count. */
    private Future<Integer> ahead;
    private int aheadOrder = -1;
    private long[][] sortedArrays;
    private long[][] sortedScratch;

    QuadSorter(List<QuadOrder> orders, Path tempDir, int capacity) {
        this.orders = List.copyOf(orders);
        this.tempDir = tempDir;
        this.capacity = capacity;
        for (int i = 0; i < orders.size(); i++) {
            runs.add(new ArrayList<>());
        }
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "basalt-load-sorter");
            t.setDaemon(true);
            return t;
        });
    }

    /** Appends a quad with ids in S, P, O, C positions. */
    void add(long[] quad) {
        namedGraphs |= quad[3] != dev.basalt.store.lexicon.TermIds.DEFAULT_GRAPH;
        if (filling == null) {
            filling = new long[4 * capacity];
        } else if (count == capacity) {
            spill();
        }
        System.arraycopy(quad, 0, filling, 4 * count, 4);
        count++;
    }

    /** Whether a quad added so far is in a named graph. */
    boolean namedGraphs() {
        return namedGraphs;
    }

    /**
     * Call after the last {@link #add}: if runs were spilled, starts writing the buffered quads as
     * the last runs on the worker, so the caller can do other work before {@link #sorted}.
     */
    void finishAdding() {
        if (spare != null && count > 0) {
            spill();
        }
    }

    /** Bytes written to run files so far (complete once {@link #sorted} was called). */
    long spilledBytes() {
        return spilledBytes;
    }

    /** Number of run files per order so far (complete once {@link #sorted} was called). */
    int runs() {
        return runs.get(0).size();
    }

    /** Hands the full buffer to the worker (after its previous spill ended) and continues in the other one. */
    private void spill() {
        await(pending);
        long[] full = filling;
        int n = count;
        filling = spare != null ? spare : new long[4 * capacity];
        spare = full;
        count = 0;
        if (sortBuffer == null) {
            sortBuffer = new long[4 * capacity];
            sortScratch = new long[4 * capacity];
        }
        pending = worker.submit(() -> writeRuns(full, n));
    }

    /**
     * Worker: one sorted run per order from records {@code [0, n)} of {@code quads}. An order
     * that sorts like one already sorted once the columns constant in this buffer are left out
     * (with every quad in one graph, {@code cspo} sorts as {@code spoc}) is not sorted again: its
     * run is the sorted records with their columns moved.
     */
    private void writeRuns(long[] quads, int n) {
        boolean[] constant = constantColumns(quads, n);
        boolean[] written = new boolean[orders.size()];
        for (int i = 0; i < orders.size(); i++) {
            if (written[i]) {
                continue;
            }
            int distinct = permuteAndSort(quads, n, orders.get(i), sortBuffer, sortScratch);
            writeRun(i, distinct);
            QuadOrder layout = orders.get(i);
            for (int j = i + 1; j < orders.size(); j++) {
                if (!written[j] && variableColumns(layout, constant).equals(variableColumns(orders.get(j), constant))) {
                    moveColumns(sortBuffer, distinct, layout, orders.get(j));
                    layout = orders.get(j);
                    writeRun(j, distinct);
                    written[j] = true;
                }
            }
        }
    }

    private void writeRun(int order, int distinct) {
        Path file = tempDir.resolve("run-" + orders.get(order).name() + "-" + (runCounter++) + ".quads");
        spilledBytes += SortRuns.write(file, sortBuffer, distinct);
        runs.get(order).add(file);
    }

    /** Per S, P, O, C position: true if every record of {@code [0, n)} has the same id there. */
    static boolean[] constantColumns(long[] quads, int n) {
        boolean[] constant = { true, true, true, true };
        for (int k = 0; k < 4; k++) {
            long first = quads[k];
            for (int r = 1; r < n && constant[k]; r++) {
                constant[k] = quads[4 * r + k] == first;
            }
        }
        return constant;
    }

    /** The order's key positions without the constant ones, as S, P, O, C letters. */
    static String variableColumns(QuadOrder order, boolean[] constant) {
        StringBuilder out = new StringBuilder(4);
        for (char c : order.name().toCharArray()) {
            if (!constant["spoc".indexOf(c)]) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Rewrites records {@code [0, n)} of {@code q} from the key positions of {@code from} to those of {@code to}. */
    static void moveColumns(long[] q, int n, QuadOrder from, QuadOrder to) {
        int[] source = positions(from);
        int[] target = positions(to);
        long[] spoc = new long[4];
        for (int r = 0; r < n; r++) {
            int b = 4 * r;
            for (int i = 0; i < 4; i++) {
                spoc[source[i]] = q[b + i];
            }
            for (int i = 0; i < 4; i++) {
                q[b + i] = spoc[target[i]];
            }
        }
    }

    /** Sorts records {@code [0, n)} of {@code quads} into {@code out} in the order's key positions, without repeats; returns the count. */
    private static int permuteAndSort(long[] quads, int n, QuadOrder order, long[] out, long[] scratch) {
        return QuadSort.sortDistinct(quads, n, positions(order), out, scratch);
    }

    /** positions[i] = which S, P, O, C position stands i-th in the order's key. */
    private static int[] positions(QuadOrder order) {
        int[] p = new int[4];
        for (int i = 0; i < 4; i++) {
            p[i] = "spoc".indexOf(order.name().charAt(i));
        }
        return p;
    }

    /**
     * The distinct quads of the load in key order of order {@code i}. Call once per order, in
     * ascending order, after the last {@link #add}; close one stream before asking for the next.
     */
    SortedQuads sorted(int i) {
        await(pending);
        pending = null;
        if (runs.get(0).isEmpty() && count <= capacity && spare == null) {
            return inMemory(i);
        }
        if (count > 0) {
            writeRunsNow();
        }
        filling = null; // the merge needs none of the fill and sort buffers
        spare = null;
        sortBuffer = null;
        sortScratch = null;
        return new PrefetchedQuads(SortRuns.merge(runs.get(i)), worker);
    }

    private void writeRunsNow() {
        if (sortBuffer == null) {
            sortBuffer = new long[4 * capacity];
            sortScratch = new long[4 * capacity];
        }
        pending = worker.submit(() -> writeRuns(filling, count));
        await(pending);
        pending = null;
        count = 0;
        spare = null;
        filling = null;
        sortBuffer = null;
        sortScratch = null;
    }

    private SortedQuads inMemory(int i) {
        if (sortedArrays == null) {
            spare = null; // never used: nothing was spilled
            int n = Math.max(count, 1);
            sortedArrays = new long[][] {new long[4 * n], orders.size() > 1 ? new long[4 * n] : null};
            sortedScratch = new long[][] {new long[4 * n], orders.size() > 1 ? new long[4 * n] : null};
        }
        int slot = i & 1;
        int distinct;
        if (aheadOrder == i) {
            distinct = await(ahead);
            sortAhead(i + 1);
        } else {
            sortAhead(i + 1); // the worker sorts the next order while this thread sorts this one
            distinct = permuteAndSort(filling == null ? new long[0] : filling, count, orders.get(i), sortedArrays[slot],
                    sortedScratch[slot]);
        }
        return SortRuns.of(sortedArrays[slot], distinct);
    }

    /** Has the worker sort order {@code next} (if there is one) into its slot, for the next {@link #inMemory} call. */
    private void sortAhead(int next) {
        ahead = null;
        aheadOrder = -1;
        if (next >= orders.size()) {
            return;
        }
        int nextSlot = next & 1;
        QuadOrder order = orders.get(next);
        long[] quads = filling;
        int n = count;
        aheadOrder = next;
        ahead = worker.submit(() -> quads == null ? 0
                : permuteAndSort(quads, n, order, sortedArrays[nextSlot], sortedScratch[nextSlot]));
    }

    private static <T> T await(Future<T> f) {
        if (f == null) {
            return null;
        }
        try {
            return TaskResults.await(f, "sorting on the sort thread", LoadException::new);
        } catch (CancellationException e) {
            throw new IllegalStateException("the sort thread was cancelled", e);
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (List<Path> files : runs) {
            for (Path f : files) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException ignored) {
                    // the loader deletes its temporary directory as a whole afterwards
                }
            }
        }
    }
}
