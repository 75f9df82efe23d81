package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.optimizer.MemoryQuadSource;

/**
 * The built side of the hash joins and MINUS: the table of one-id keys ({@link IdKeyedRows}) chains the same rows
 * per key as the map of {@link RowKey}s on random rows (keys clustered so that probes collide, spread over the whole
 * long range, and id 0), and {@link HashJoin} (inner, left outer, driven per key) and {@link MinusOp} over it give a
 * nested loop's rows, in memory and with the build side spilled, for one key slot and for two.
 */
class KeyedRowsTest {
    @TempDir
    Path spillDir;

    @Test
    void idKeysChainTheRowsTheMapOfKeysChains() {
        SplittableRandom r = new SplittableRandom(1838);
        for (int round = 0; round < 40; round++) {
            int slot = r.nextInt(3);
            KeyedRows ids = new IdKeyedRows(new int[] { slot });
            KeyedRows map = new RowKeyedRows(new int[] { slot });
            int n = r.nextInt(0, 5_000);
            List<long[]> rows = randomRows(r, n, 3, round % 3);
            for (long[] row : rows) {
                ids.add(row);
                map.add(row);
            }
            assertEquals(map.rows(), ids.rows());
            assertEquals(map.keys(), ids.keys(), "round " + round);
            assertArrayEquals(map.firstsInKeyOrder(), ids.firstsInKeyOrder(), "round " + round);
            List<long[]> probes = new ArrayList<>(rows);
            probes.addAll(randomRows(r, 500, 3, round % 3));
            for (long[] probe : probes) {
                assertEquals(chain(map, probe), chain(ids, probe), "round " + round + ", key " + probe[slot]);
            }
        }
    }

    @Test
    void keysInUnsignedOrder() {
        KeyedRows ids = new IdKeyedRows(new int[] { 0 });
        long[] keys = { -1L, 5L, Long.MIN_VALUE, 0L, Long.MAX_VALUE, 3L };
        for (long k : keys) {
            ids.add(new long[] { k });
        }
        long[] ordered = Arrays.stream(ids.firstsInKeyOrder()).mapToLong(i -> ids.row(i)[0]).toArray();
        assertArrayEquals(new long[] { 0L, 3L, 5L, Long.MAX_VALUE, Long.MIN_VALUE, -1L }, ordered);
    }

    @Test
    void joinsAndMinusGiveTheNestedLoopsRows() {
        SplittableRandom r = new SplittableRandom(38);
        for (int round = 0; round < 24; round++) {
            int[] keys = round % 2 == 0 ? new int[] { 0 } : new int[] { 0, 1 };
            // slot 2 is shared but may be unbound on either side; slot 3 only the left side binds, slot 4 the right
            int[] shared = Arrays.copyOf(keys, keys.length + 1);
            shared[keys.length] = 2;
            List<long[]> left = sides(r, r.nextInt(0, 400), 3, round % 3, true);
            List<long[]> right = sides(r, r.nextInt(0, 400), 4, round % 3, false);
            for (long budget : new long[] { 1_000_000, 1 + r.nextInt(40) }) {
                ExecContext ctx = new ExecContext(new MemoryQuadSource(), false,
                        ExecLimits.defaults().withHashJoinRows(budget).withSpillDir(spillDir)).withoutStatistics();
                String at = "round " + round + ", budget " + budget;
                for (boolean outer : new boolean[] { false, true }) {
                    HashJoin join = new HashJoin(new RowsOp(left), new RowsOp(right), keys, shared, outer, null);
                    List<List<Long>> expected = sorted(nestedJoin(left, right, shared, outer).stream());
                    assertEquals(expected, rows(join, ctx), at + (outer ? ", left outer" : ", inner"));
                    assertEquals(expected, batchRows(join, ctx), at + (outer ? ", left outer" : ", inner") + ", batches");
                }
                HashJoin driven = new HashJoin(new RowsOp(left), new RowsOp(right), keys, shared, false, null,
                        new KeyDrive(new RowsOp(left), 0, 1));
                List<List<Long>> inner = sorted(nestedJoin(left, right, shared, false).stream());
                assertEquals(inner, rows(driven, ctx), at + ", driven");
                assertEquals(inner, batchRows(driven, ctx), at + ", driven, batches");
                MinusOp minus = new MinusOp(new RowsOp(left), new RowsOp(right), keys, shared);
                assertEquals(sorted(nestedMinus(left, right, shared).stream()), rows(minus, ctx), at + ", minus");
            }
            try (Stream<Path> files = Files.list(spillDir)) {
                assertEquals(0, files.count(), "spill files left");
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static List<Integer> chain(KeyedRows table, long[] probe) {
        List<Integer> c = new ArrayList<>();
        for (int i = table.first(probe); i >= 0; i = table.next(i)) {
            c.add(i);
        }
        return c;
    }

    /** Ids of a few kinds: few distinct values far apart (colliding home slots), any long, or small ones with 0. */
    private static long id(SplittableRandom r, int kind) {
        return switch (kind) {
            case 0 -> 1 + r.nextInt(300) * 4096L;
            case 1 -> r.nextLong();
            default -> r.nextInt(60);
        };
    }

    private static List<long[]> randomRows(SplittableRandom r, int n, int width, int kind) {
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long[] row = new long[width];
            for (int s = 0; s < width; s++) {
                row[s] = id(r, kind);
            }
            rows.add(row);
        }
        return rows;
    }

    /** Rows of width 5 binding the key slots 0 and 1, slot 2 or not, and their own slot (3 or 4). */
    private static List<long[]> sides(SplittableRandom r, int n, int own, int kind, boolean left) {
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long[] row = new long[5];
            // bound ids from 3 on: 2 is the id of a variable a BIND's error left unbound (ExecContext)
            row[0] = 3 + Math.floorMod(id(r, kind), 50);
            row[1] = 3 + r.nextInt(3);
            row[2] = r.nextInt(3) == 0 ? 0 : 3 + r.nextInt(4);
            row[own] = left ? i + 1 : 1000 + r.nextInt(10);
            rows.add(row);
        }
        return rows;
    }

    private static List<long[]> nestedJoin(List<long[]> left, List<long[]> right, int[] shared, boolean outer) {
        List<long[]> out = new ArrayList<>();
        for (long[] l : left) {
            boolean matched = false;
            for (long[] r : right) {
                if (Rows.compatible(l, r, shared)) {
                    out.add(Rows.merge(l, r));
                    matched = true;
                }
            }
            if (outer && !matched) {
                out.add(l);
            }
        }
        return out;
    }

    private static List<long[]> nestedMinus(List<long[]> left, List<long[]> right, int[] shared) {
        List<long[]> out = new ArrayList<>();
        for (long[] l : left) {
            boolean removed = false;
            for (long[] r : right) {
                boolean common = false;
                boolean compatible = true;
                for (int s : shared) {
                    if (l[s] != 0 && r[s] != 0) {
                        compatible &= l[s] == r[s];
                        common = true;
                    }
                }
                removed |= compatible && common;
            }
            if (!removed) {
                out.add(l);
            }
        }
        return out;
    }

    private static List<List<Long>> rows(Operator op, ExecContext ctx) {
        List<long[]> out = new ArrayList<>();
        try (RowCursor c = op.open(new long[5], ctx)) {
            long[] row;
            while ((row = c.next()) != null) {
                out.add(row.clone());
            }
        }
        return sorted(out.stream());
    }

    private static List<List<Long>> batchRows(Operator op, ExecContext ctx) {
        List<long[]> out = new ArrayList<>();
        try (BatchCursor c = op.openBatch(new long[5], ctx)) {
            Batch b;
            while ((b = c.next()) != null) {
                for (int i = 0; i < b.size; i++) {
                    out.add(b.row(i));
                }
            }
        }
        return sorted(out.stream());
    }

    private static List<List<Long>> sorted(Stream<long[]> rows) {
        return rows.map(row -> Arrays.stream(row).boxed().toList())
                .sorted((a, b) -> Arrays.compare(a.stream().mapToLong(Long::longValue).toArray(),
                        b.stream().mapToLong(Long::longValue).toArray()))
                .toList();
    }

    /** Given rows, those compatible with the input row, merged with it; row and batch forms. */
    private static final class RowsOp extends Operator {
        private final List<long[]> rows;

        RowsOp(List<long[]> rows) {
            this.rows = rows;
        }

        @Override
        public List<Operator> children() {
            return List.of();
        }

        @Override
        public String describe() {
            return "Rows";
        }

        @Override
        public boolean batchable() {
            return true;
        }

        @Override
        protected RowCursor doOpen(long[] input, ExecContext ctx) {
            int[] all = { 0, 1, 2, 3, 4 };
            return new RowCursor() {
                int i;

                @Override
                public long[] next() {
                    while (i < rows.size()) {
                        long[] r = rows.get(i++);
                        if (Rows.compatible(input, r, all)) {
                            return Rows.merge(input, r);
                        }
                    }
                    return null;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
            return BatchCursor.of(doOpen(input, ctx), input.length);
        }
    }
}
