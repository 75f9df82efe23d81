package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.basalt.store.lexicon.TermIds;

/**
 * MINUS (Difference) as a hash anti-join with SPARQL's semantics: a left row is removed when some
 * right row is compatible with it and both bind at least one common variable; a right row that
 * shares no bound variable with it removes nothing. The right side is evaluated once with the
 * operator's input row and hashed on {@code keySlots} (variables both sides always bind; with
 * none, every right row is a candidate). Slots the input row binds count as shared, as in RDF4J's
 * evaluator, where both sides carry the incoming bindings.
 */
public final class MinusOp extends Operator {
    private final Operator left;
    private final Operator right;
    private final int[] keySlots;
    private final int[] sharedSlots;

    /**
     * @param keySlots variables both sides always bind
     * @param sharedSlots variables both sides mention (a superset of the keys)
     */
    public MinusOp(Operator left, Operator right, int[] keySlots, int[] sharedSlots) {
        this.left = left;
        this.right = right;
        this.keySlots = keySlots.clone();
        this.sharedSlots = sharedSlots.clone();
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "Minus keys " + Arrays.toString(keySlots) + " shared " + Arrays.toString(sharedSlots);
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        int[] shared = withInputSlots(input);
        Map<RowKey, List<long[]>> table = new HashMap<>();
        try (RowCursor build = right.open(input, ctx)) {
            long[] r;
            int n = 0;
            while ((r = build.next()) != null) {
                if (++n % 1024 == 0) {
                    ctx.checkCancelled();
                }
                table.computeIfAbsent(new RowKey(r, keySlots), k -> new ArrayList<>()).add(r);
            }
        }
        RowCursor probe = left.open(input, ctx);
        return new RowCursor() {
            @Override
            public long[] next() {
                long[] l;
                while ((l = probe.next()) != null) {
                    List<long[]> bucket = table.get(new RowKey(l, keySlots));
                    if (bucket == null || !removes(l, bucket, shared)) {
                        return l;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                probe.close();
            }
        };
    }

    private static boolean removes(long[] l, List<long[]> bucket, int[] shared) {
        for (long[] r : bucket) {
            boolean common = false;
            boolean compatible = true;
            for (int s : shared) {
                if (l[s] != TermIds.NULL && r[s] != TermIds.NULL) {
                    common = true;
                    if (l[s] != r[s]) {
                        compatible = false;
                        break;
                    }
                }
            }
            if (common && compatible) {
                return true;
            }
        }
        return false;
    }

    private int[] withInputSlots(long[] input) {
        int[] out = Arrays.copyOf(sharedSlots, sharedSlots.length + input.length);
        int n = sharedSlots.length;
        for (int s = 0; s < input.length; s++) {
            if (input[s] != TermIds.NULL && !contains(sharedSlots, s)) {
                out[n++] = s;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static boolean contains(int[] slots, int slot) {
        for (int s : slots) {
            if (s == slot) {
                return true;
            }
        }
        return false;
    }

}
