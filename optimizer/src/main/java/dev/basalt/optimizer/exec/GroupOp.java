package dev.basalt.optimizer.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * GROUP BY with aggregates (hash aggregation): rows are grouped on the ids of the group slots (id
 * equality is term equality, and an unbound slot is its own group value, as in RDF4J) and each
 * group's {@link Aggregation.Accumulator}s see its rows in input order. One row per group is
 * yielded: the operator's input row, the group slots of the group's first row, and the aggregate
 * results (unbound where an aggregate is in error). Without group slots and with no input row at
 * all there is still one group (COUNT gives 0), as SPARQL defines. Cancellation is checked per
 * input batch.
 *
 * <p>Memory: at most {@link ExecLimits#groupRows} groups are held. Past that, rows of groups
 * already held still go to them, and rows of any other group are written to one of
 * {@value #PARTITIONS} hash partitions on disk (all rows of a group to the same one, in input
 * order); once the input ends the held groups are yielded, then each partition is aggregated the
 * same way, partitioning again (on another hash) if it holds too many groups itself. Each pass
 * holds at least one group, so the passes end. Groups come in the order they first appeared
 * within their pass.
 * Thread-safe like every operator (fields fixed at construction, each open's state in its cursor);
 * the spill figures EXPLAIN shows are {@link LongAdder}s that concurrent evaluations of a kept plan
 * add to.
 */
public final class GroupOp extends Operator {
    private static final int BATCH = 256;
    private static final int PARTITIONS = 32;
    private final Operator input;
    private final int[] groupSlots;
    private final Aggregation aggregation;
    private final String label;
    private final LongAdder spilledRows = new LongAdder();
    /** Whether batch execution was allowed (the store's {@code basalt:batches}). */
    private final boolean batchesAllowed;
    /** Whether the input is read in batches: allowed, every operator under it has a batch form, and so do the aggregates. */
    private final boolean batches;

    /** {@code batchesAllowed}: whether the input may be read in batches (the plan's {@code OrderingPolicy}). */
    public GroupOp(Operator input, int[] groupSlots, Aggregation aggregation, String label, boolean batchesAllowed) {
        this.input = input;
        this.groupSlots = groupSlots.clone();
        this.aggregation = aggregation;
        this.label = label;
        this.batchesAllowed = batchesAllowed;
        this.batches = batchesAllowed && input.batchable() && aggregation.batchable();
    }

    /** Whether the input is read in {@link Batch}es. */
    public boolean batches() {
        return batches;
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        return "Group " + label + " " + aggregation.describe()
                + (batches ? " [batches of " + Batch.CAPACITY + " rows: every operator below has a batch form]"
                        : " [rows: " + (batchesAllowed ? rowReason() : "batches switched off") + "]")
                + (spilledRows.sum() > 0 ? " (spilled " + spilledRows.sum() + " rows)" : "");
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        return new RowCursor() {
            final ArrayDeque<Partition> pending = new ArrayDeque<>();
            List<long[]> out;
            int pos;

            @Override
            public long[] next() {
                if (out == null) {
                    if (batches) {
                        try (BatchCursor in = input.openBatch(row, ctx)) {
                            out = aggregateBatches(in, row, ctx, pending);
                        }
                    } else {
                        try (RowCursor in = input.open(row, ctx)) {
                            out = aggregate(in::next, row, ctx, 0, pending);
                        }
                    }
                }
                while (pos >= out.size()) {
                    Partition p = pending.poll();
                    if (p == null) {
                        return null;
                    }
                    try (SpillFile file = p.file(); SpillFile.Reader reader = file.reader()) {
                        out = aggregate(reader::next, row, ctx, p.level(), pending);
                    }
                    pos = 0;
                }
                return out.get(pos++);
            }

            @Override
            public void close() {
                out = List.of();
                for (Partition p : pending) {
                    p.file().close();
                }
                pending.clear();
            }
        };
    }

    /** Why the input is read row by row: the first operator below without a batch form, or the aggregates. */
    private String rowReason() {
        if (!aggregation.batchable()) {
            return "an aggregate keeps its rows";
        }
        Operator at = input;
        while (true) {
            Operator next = null;
            for (Operator c : at.children()) {
                if (!c.batchable()) {
                    next = c;
                }
            }
            if (next == null) {
                return at.getClass().getSimpleName() + " has no batch form";
            }
            at = next;
        }
    }

    /** A partition written in pass {@code level - 1}, to aggregate in pass {@code level}. */
    private record Partition(SpillFile file, int level) {
    }

    /**
     * One pass: groups the rows of {@code source}, holding at most the limit of groups and writing
     * the rows of other groups to partitions added to {@code pending}; returns the held groups' rows.
     */
    private List<long[]> aggregate(Supplier<long[]> source, long[] row, ExecContext ctx, int level,
            ArrayDeque<Partition> pending) {
        Pass pass = new Pass(row, ctx, level);
        try {
            List<long[]> batch = new ArrayList<>(BATCH);
            boolean done = false;
            while (!done) {
                batch.clear();
                long[] r;
                while (batch.size() < BATCH && (r = source.get()) != null) {
                    batch.add(r);
                }
                done = batch.size() < BATCH;
                ctx.checkCancelled();
                aggregation.prepare(batch, ctx);
                for (long[] b : batch) {
                    pass.add(b, false);
                }
            }
            pass.handOver(pending);
        } finally {
            pass.discard();
        }
        return pass.results();
    }

    /** The first pass over the input's batches: like {@link #aggregate}, each row read into one reused array. */
    private List<long[]> aggregateBatches(BatchCursor source, long[] row, ExecContext ctx, ArrayDeque<Partition> pending) {
        Pass pass = new Pass(row, ctx, 0);
        try {
            long[] scratch = new long[row.length];
            Batch b;
            while ((b = source.next()) != null) {
                ctx.checkCancelled();
                aggregation.prepare(b, ctx);
                if (groupSlots.length == 0) {
                    pass.addAll(b, scratch);
                } else if (groupSlots.length == 1) {
                    pass.addByOneSlot(b, scratch);
                } else {
                    for (int i = 0; i < b.size; i++) {
                        b.copyRow(i, scratch);
                        pass.add(scratch, true);
                    }
                }
            }
            pass.handOver(pending);
        } finally {
            pass.discard();
        }
        return pass.results();
    }

    /** The groups of one pass and its partitions on disk. Not thread-safe: one open's. */
    private final class Pass {
        final Map<RowKey, Group> groups = new LinkedHashMap<>();
        final long[] row;
        final ExecContext ctx;
        final int level;
        final long limit;
        SpillFile[] partitions;
        /** The one group when there are no group slots. */
        Group all;
        /** The held groups by the id of the one group slot (batches grouped on one slot), or null. */
        IdGroupIndex<Group> byId;

        Pass(long[] row, ExecContext ctx, int level) {
            this.row = row;
            this.ctx = ctx;
            this.level = level;
            this.limit = groupSlots.length == 0 ? Long.MAX_VALUE : ctx.limits().groupRows();
        }

        /**
         * Adds a row; {@code reused}: the array is refilled after the call, so a group keeps a copy.
         * Returns the row's group, or null when the row went to a partition on disk.
         */
        Group add(long[] b, boolean reused) {
            if (groupSlots.length == 0) {
                if (all == null) {
                    all = new Group(reused ? b.clone() : b, aggregation.start());
                }
                for (Aggregation.Accumulator a : all.accumulators) {
                    a.add(b, ctx);
                }
                return all;
            }
            RowKey k = RowKey.solution(b, groupSlots);
            Group g = groups.get(k);
            if (g == null && groups.size() >= limit) {
                if (partitions == null) {
                    partitions = new SpillFile[PARTITIONS];
                }
                int part = partition(k, level);
                if (partitions[part] == null) {
                    partitions[part] = SpillFile.create(ctx.limits(), "group", b.length);
                }
                partitions[part].write(b);
                spilledRows.increment();
                return null;
            }
            if (g == null) {
                g = new Group(reused ? b.clone() : b, aggregation.start());
                groups.put(k, g);
            }
            for (Aggregation.Accumulator a : g.accumulators) {
                a.add(b, ctx);
            }
            return g;
        }

        /** Adds every row of a batch to the one group (no group slots), each accumulator a batch at a time. */
        void addAll(Batch b, long[] scratch) {
            if (b.size == 0) {
                return;
            }
            if (all == null) {
                b.copyRow(0, scratch);
                all = new Group(scratch.clone(), aggregation.start());
            }
            for (Aggregation.Accumulator a : all.accumulators) {
                a.addAll(b, scratch, ctx);
            }
        }

        /**
         * Adds every row of a batch grouped on one slot: a row whose id was seen finds its group by
         * {@link #byId} without a key object; the others take {@link #add}, which also spills.
         */
        void addByOneSlot(Batch b, long[] scratch) {
            if (byId == null) {
                byId = new IdGroupIndex<>();
            }
            long[] keys = b.cols[groupSlots[0]];
            // rows of one key often come in runs (a merge join's, in key order): one group lookup per run
            for (int i = 0; i < b.size; ) {
                long key = keys[i];
                int end = i + 1;
                while (end < b.size && keys[end] == key) {
                    end++;
                }
                Group g = byId.get(key);
                if (g == null) {
                    b.copyRow(i, scratch);
                    g = add(scratch, true);
                    i++;
                    if (g == null) {
                        // the group went to a partition on disk: so do the rest of its run
                        for (; i < end; i++) {
                            b.copyRow(i, scratch);
                            add(scratch, true);
                        }
                        continue;
                    }
                    byId.put(key, g);
                }
                for (Aggregation.Accumulator a : g.accumulators) {
                    a.addRun(b, i, end, scratch, ctx);
                }
                i = end;
            }
        }

        void handOver(ArrayDeque<Partition> pending) {
            if (partitions != null) {
                for (SpillFile f : partitions) {
                    if (f != null) {
                        f.finish();
                        pending.add(new Partition(f, level + 1));
                    }
                }
                partitions = null;
            }
        }

        /** Closes the partitions not handed over (failed or cancelled). */
        void discard() {
            if (partitions != null) {
                for (SpillFile f : partitions) {
                    if (f != null) {
                        f.close();
                    }
                }
                partitions = null;
            }
        }

        List<long[]> results() {
            if (all != null) {
                groups.put(RowKey.solution(row, groupSlots), all);
            }
            if (level == 0 && groups.isEmpty() && groupSlots.length == 0) {
                groups.put(RowKey.solution(row, groupSlots), new Group(row, aggregation.start()));
            }
            int[] targets = aggregation.targetSlots();
            List<long[]> out = new ArrayList<>(groups.size());
            int n = 0;
            for (Group g : groups.values()) {
                if (++n % BATCH == 0) {
                    ctx.checkCancelled();
                }
                long[] result = row.clone();
                for (int s : groupSlots) {
                    result[s] = g.first[s];
                }
                for (int i = 0; i < targets.length; i++) {
                    result[targets[i]] = g.accumulators[i].result(ctx);
                }
                out.add(result);
            }
            return out;
        }
    }

    /** The partition of a group key in pass {@code level}: each pass hashes differently, so a partition too large splits again. */
    private static int partition(RowKey k, int level) {
        int h = k.hashCode() * 0x9E3779B9 + (level + 1) * 0x85EBCA6B;
        h ^= h >>> 15;
        h *= 0x2C1B3C6D;
        h ^= h >>> 13;
        return (h & 0x7fffffff) % PARTITIONS;
    }

    private record Group(long[] first, Aggregation.Accumulator[] accumulators) {
    }

}
