package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GROUP BY with aggregates (hash aggregation): rows are grouped on the ids of the group slots (id
 * equality is term equality, and an unbound slot is its own group value, as in RDF4J) and each
 * group's {@link Aggregation.Accumulator}s see its rows in input order. One row per group is
 * yielded, in the order the groups first appeared: the operator's input row, the group slots of
 * the group's first row, and the aggregate results (unbound where an aggregate is in error).
 * Without group slots and with no input row at all there is still one group (COUNT gives 0), as
 * SPARQL defines. Groups are held in memory; cancellation is checked per input batch.
 */
public final class GroupOp extends Operator {
    private static final int BATCH = 256;
    private final Operator input;
    private final int[] groupSlots;
    private final Aggregation aggregation;
    private final String label;

    public GroupOp(Operator input, int[] groupSlots, Aggregation aggregation, String label) {
        this.input = input;
        this.groupSlots = groupSlots.clone();
        this.aggregation = aggregation;
        this.label = label;
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        return "Group " + label + " " + aggregation.describe();
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        return new RowCursor() {
            List<long[]> out;
            int pos;

            @Override
            public long[] next() {
                if (out == null) {
                    out = aggregate(row, ctx);
                }
                return pos < out.size() ? out.get(pos++) : null;
            }

            @Override
            public void close() {
                out = List.of();
            }
        };
    }

    private List<long[]> aggregate(long[] row, ExecContext ctx) {
        Map<RowKey, Group> groups = new LinkedHashMap<>();
        try (RowCursor in = input.open(row, ctx)) {
            List<long[]> batch = new ArrayList<>(BATCH);
            boolean done = false;
            while (!done) {
                batch.clear();
                long[] r;
                while (batch.size() < BATCH && (r = in.next()) != null) {
                    batch.add(r);
                }
                done = batch.size() < BATCH;
                ctx.checkCancelled();
                aggregation.prepare(batch, ctx);
                for (long[] b : batch) {
                    RowKey k = new RowKey(b, groupSlots);
                    Group g = groups.get(k);
                    if (g == null) {
                        g = new Group(b, aggregation.start());
                        groups.put(k, g);
                    }
                    for (Aggregation.Accumulator a : g.accumulators) {
                        a.add(b, ctx);
                    }
                }
            }
        }
        if (groups.isEmpty() && groupSlots.length == 0) {
            groups.put(new RowKey(row, groupSlots), new Group(row, aggregation.start()));
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

    private record Group(long[] first, Aggregation.Accumulator[] accumulators) {
    }

}
