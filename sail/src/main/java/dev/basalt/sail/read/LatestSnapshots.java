package dev.basalt.sail.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.optimizer.access.DerivedValues;
import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.access.SpatialIndexReader;
import dev.basalt.store.Store;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.lexicon.DerivedCache;
import dev.basalt.store.lexicon.DerivedNumbers;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.quads.QuadCursor;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * Read views of the newest commit point, shared by every reader until the next commit: opening
 * a snapshot and its trees is paid once per commit, not once per read. A view is closed when it
 * is no longer the newest and its last lease is closed, so a commit point stays pinned only while
 * someone reads it. The sail's writer calls {@link #invalidate()} after each commit. The query engine reads a
 * committed view, the newest one leased here or a past one, through a {@link SnapshotQuadSource} over it.
 *
 * <p>Thread-safe: every method and lease release is synchronized on this object; leases may be closed in
 * any thread. A {@link SnapshotQuadSource} is immutable (its own thread rules are in its comment).
 */
public final class LatestSnapshots implements ReadSource {
    private final Store store;
    private final Lexicon lexicon;
    private final List<QuadOrder> orders;
    private Shared current;
    private boolean closed;

    public LatestSnapshots(Store store, Lexicon lexicon, List<QuadOrder> orders) {
        this.store = store;
        this.lexicon = lexicon;
        this.orders = orders;
    }

    private final class Shared {
        final ReadView view;
        int leases;

        Shared(ReadView view) {
            this.view = view;
        }
    }

    @Override
    public synchronized Lease acquire() {
        if (closed) {
            throw new IllegalStateException("the Basalt store is closed");
        }
        if (current == null) {
            var snapshot = store.snapshot();
            try {
                current = new Shared(new ReadView(snapshot, lexicon, orders));
            } catch (RuntimeException e) {
                snapshot.close();
                throw e;
            }
        }
        return lease(current);
    }

    private synchronized Lease lease(Shared s) {
        s.leases++;
        return new Lease() {
            private boolean released; // guarded by LatestSnapshots.this

            @Override
            public ReadView view() {
                return s.view;
            }

            @Override
            public Lease share() {
                synchronized (LatestSnapshots.this) {
                    if (released) {
                        throw new IllegalStateException("the read lease is closed");
                    }
                    return lease(s);
                }
            }

            @Override
            public void close() {
                synchronized (LatestSnapshots.this) {
                    if (!released) {
                        released = true;
                        release(s);
                    }
                }
            }
        };
    }

    private synchronized void release(Shared s) {
        s.leases--;
        if (s.leases == 0 && s != current) {
            s.view.snapshot().close();
        }
    }

    /** The newest commit point changed: later reads get a fresh view. */
    public synchronized void invalidate() {
        Shared old = current;
        current = null;
        if (old != null && old.leases == 0) {
            old.view.snapshot().close();
        }
    }

    public synchronized void close() {
        invalidate();
        closed = true;
    }

    /**
     * The query engine's {@link QuadSource} over one committed {@link ReadView}: the explicit
     * statement set, plus the inferred one when the query includes inferred statements (a statement
     * is in at most one set, so scans simply concatenate; an inferred set that is empty in the
     * snapshot, as in a store without inferencing, is left out). Counts are exact: read matches for a
     * small count, else range counts of the counted B+trees; samples are entries at evenly spaced ranks of the pattern's key range
     * ({@link BTree#entryAt}), so sampling costs one descent per sampled quad.
     *
     * <p>Thread rules: immutable, over an immutable view, so concurrent queries may share it (the direct runs of kept
     * plans on one commit point share one per statement-set choice, {@code NativeQueries}); the cursors it opens are
     * each read by one thread at a time.
     */
    public static final class SnapshotQuadSource implements QuadSource {
        private final ReadView view;
        private final List<StatementSet> sets;
        /** The statement indices of {@link #sets}, in the same order. */
        private final QuadIndexes[] indexes;
        private final LexiconReader lexicon;
        private final ValueFactory vf;

        public SnapshotQuadSource(ReadView view, boolean includeInferred, ValueFactory vf) {
            this.view = view;
            // an empty set would still cost every scan, probe and count a second index lookup
            this.sets = includeInferred && view.quads(StatementSet.INFERRED).size() > 0
                    ? List.of(StatementSet.EXPLICIT, StatementSet.INFERRED)
                    : List.of(StatementSet.EXPLICIT);
            this.indexes = new QuadIndexes[sets.size()];
            for (int s = 0; s < indexes.length; s++) {
                indexes[s] = view.quads(sets.get(s));
            }
            this.lexicon = view.lexicon();
            this.vf = vf;
        }

        /**
         * The spatial index of a committed view whose index covers its dictionary; null for a live view
         * (its transaction's index entries are not final until commit) and a stale index.
         */
        @Override
        public SpatialIndexReader spatialIndex() {
            return view.spatialIndex();
        }

        /** A committed snapshot is immutable; its page cache and dictionary caches are thread-safe. */
        @Override
        public boolean concurrentReads() {
            return true;
        }

        @Override
        public Scan scan(long[] pattern) {
            QuadCursor[] cursors = new QuadCursor[sets.size()];
            for (int s = 0; s < cursors.length; s++) {
                cursors[s] = indexes[s].scan(pattern);
            }
            return new Concatenation(cursors);
        }

        /** Reuses one cursor per statement set from scan to scan ({@link QuadIndexes#rescan}). */
        @Override
        public Prober prober() {
            QuadCursor[] cursors = new QuadCursor[sets.size()];
            return pattern -> {
                for (int s = 0; s < cursors.length; s++) {
                    cursors[s] = indexes[s].rescan(cursors[s], pattern);
                }
                return new Concatenation(cursors);
            };
        }

        /** The statement sets' matches one set after the other (a statement is in one set only). */
        private static final class Concatenation implements Scan {
            private final QuadCursor[] cursors;
            private int i;

            Concatenation(QuadCursor[] cursors) {
                this.cursors = cursors;
            }

            @Override
            public boolean next(long[] quad) {
                while (i < cursors.length) {
                    QuadCursor c = cursors[i];
                    if (c.next()) {
                        System.arraycopy(c.quad(), 0, quad, 0, 4);
                        return true;
                    }
                    i++;
                }
                return false;
            }

            @Override
            public int nextBlock(long[] quads, int max) {
                while (i < cursors.length) {
                    int n = cursors[i].nextBlock(quads, max);
                    if (n > 0) {
                        return n;
                    }
                    i++;
                }
                return 0;
            }

            @Override
            public boolean columnar() {
                return true;
            }

            @Override
            public int nextColumns(long[][] cols, int off, int max) {
                while (i < cursors.length) {
                    int n = cursors[i].nextColumns(cols, off, max);
                    if (n > 0) {
                        return n;
                    }
                    i++;
                }
                return 0;
            }

            @Override
            public void close() {
                i = cursors.length;
            }
        }

        /** Entries a merge join's seek steps over before it repositions the cursor instead. */
        private static final int STEP_AHEAD = 8;

        @Override
        public boolean canOrder(long[] pattern, int position) {
            for (StatementSet set : sets) {
                if (view.quads(set).orderFollowing(pattern, position) < 0) {
                    return false;
                }
            }
            return true;
        }

        /**
         * One cursor per statement set on the index ordering the pattern by {@code position}, merged
         * by that position's id (a statement is in one set only, but the same subject may be in both).
         */
        @Override
        public OrderedScan orderedScan(long[] pattern, int position) {
            if (!canOrder(pattern, position)) {
                return null;
            }
            long[] constants = pattern.clone();
            int n = sets.size();
            return new OrderedScan() {
                final QuadCursor[] cursors = new QuadCursor[n];
                final long[][] heads = new long[n][4];
                final boolean[] live = new boolean[n];
                int last = -1;
                boolean done;

                @Override
                public boolean seek(long min, long[] quad) {
                    if (last < 0 || done) {
                        done = false;
                        for (int s = 0; s < n; s++) {
                            reposition(s, min);
                        }
                        return emit(quad);
                    }
                    for (int s = 0; s < n; s++) {
                        // a target a few entries ahead is reached by stepping; farther, by a (finger) seek
                        int steps = 0;
                        while (live[s] && Long.compareUnsigned(heads[s][position], min) < 0 && steps++ < STEP_AHEAD) {
                            advance(s);
                        }
                        if (live[s] && Long.compareUnsigned(heads[s][position], min) < 0) {
                            reposition(s, min);
                        }
                    }
                    return emit(quad);
                }

                private void reposition(int s, long min) {
                    cursors[s] = indexes[s].seek(cursors[s], constants, position, min);
                    advance(s);
                }

                @Override
                public boolean next(long[] quad) {
                    if (done) {
                        return false;
                    }
                    if (last < 0) {
                        return seek(0, quad);
                    }
                    advance(last);
                    return emit(quad);
                }

                /**
                 * With one statement set, the cursor's next keys a leaf run at a time
                 * ({@link QuadCursor#nextBlock}); the last of them becomes the head that {@link #seek}
                 * steps on from. With two, the merge of their heads match by match.
                 */
                @Override
                public int nextBlock(long[] quads, int max) {
                    if (n > 1 || done || last < 0 || max <= 0) {
                        return OrderedScan.super.nextBlock(quads, max);
                    }
                    int got = cursors[0].nextBlock(quads, max);
                    if (got == 0) {
                        live[0] = false;
                        done = true;
                        return 0;
                    }
                    System.arraycopy(quads, 4 * (got - 1), heads[0], 0, 4);
                    return got;
                }

                private void advance(int s) {
                    live[s] = cursors[s].next();
                    if (live[s]) {
                        System.arraycopy(cursors[s].quad(), 0, heads[s], 0, 4);
                    }
                }

                private boolean emit(long[] quad) {
                    int best = -1;
                    for (int s = 0; s < n; s++) {
                        if (live[s] && (best < 0 || Long.compareUnsigned(heads[s][position], heads[best][position]) < 0)) {
                            best = s;
                        }
                    }
                    last = best;
                    if (best < 0) {
                        done = true;
                        return false;
                    }
                    System.arraycopy(heads[best], 0, quad, 0, 4);
                    return true;
                }

                @Override
                public void close() {
                    done = true;
                }
            };
        }

        /** Matches {@link #count} reads itself before it asks for a range count. */
        private static final int SCANNED_COUNT = 8;

        /**
         * A pattern with few matches (one subject's values of a property, the usual constant pattern of
         * a short query) is counted by reading them: one descent of the index, where a range count
         * descends twice and sums child counts at every level. Beyond {@value #SCANNED_COUNT} matches
         * the range count answers.
         */
        @Override
        public long count(long[] pattern) {
            long n = 0;
            for (StatementSet set : sets) {
                QuadIndexes quads = view.quads(set);
                QuadCursor c = quads.scan(pattern);
                int read = 0;
                while (read <= SCANNED_COUNT && c.next()) {
                    read++;
                }
                n += read <= SCANNED_COUNT ? read : quads.count(pattern);
            }
            return n;
        }

        @Override
        public long[][] sample(long[] pattern, int k) {
            List<Range> ranges = new ArrayList<>();
            long total = 0;
            for (StatementSet set : sets) {
                QuadIndexes quads = view.quads(set);
                QuadOrder order = quads.orders().get(quads.bestOrder(pattern));
                BTree tree = view.snapshot().tree(set.treeName(order));
                if (tree == null) {
                    continue;
                }
                if (order.boundPrefix(pattern) != QuadOrder.boundCount(pattern)) {
                    return firstMatches(pattern, k);
                }
                byte[] lo = order.lowerBound(pattern);
                long from = tree.rank(lo);
                long n = tree.rangeCount(lo, order.upperBound(pattern));
                ranges.add(new Range(tree, order, from, n));
                total += n;
            }
            int m = (int) Math.min(k, total);
            long[][] out = new long[m][];
            for (int i = 0; i < m; i++) {
                long pos = total <= k ? i : (long) ((i + 0.5) * total / m);
                for (Range r : ranges) {
                    if (pos < r.count) {
                        Map.Entry<byte[], byte[]> e = r.tree.entryAt(r.from + pos);
                        long[] q = new long[4];
                        r.order.decode(e.getKey(), q);
                        out[i] = q;
                        break;
                    }
                    pos -= r.count;
                }
            }
            return out;
        }

        private record Range(BTree tree, QuadOrder order, long from, long count) {
        }

        @Override
        public long lookup(Value value) {
            return lexicon.lookup(value);
        }

        @Override
        public Value[] resolve(long[] ids) {
            return lexicon.resolveAll(ids, vf);
        }

        /**
         * One cache per function for the life of the store's lexicon ({@code Lexicon#derivedCache}), all
         * within the lexicon's derived-value budget; none for a view of a write transaction, whose ids
         * may be uncommitted.
         */
        @Override
        public DerivedValues derivedValues(Object function) {
            DerivedCache cache = lexicon.derivedCache(function);
            DerivedNumbers numbers = cache == null ? null : lexicon.derivedNumbers(function);
            return cache == null ? null : new DerivedValues() {
                @Override
                public DerivedNumbers numbers() {
                    return numbers;
                }

                @Override
                public Value get(long id) {
                    return cache.get(id);
                }

                @Override
                public void put(long id, Value value) {
                    cache.put(id, value);
                }
            };
        }

        @Override
        public ValueFactory valueFactory() {
            return vf;
        }
    }
}
