package dev.basalt.store.quads;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The statement indices of one statement set (explicit or inferred): the same quads in several key
 * orders, kept identical. Writes go to every order; a read picks the order in which the pattern's
 * bound positions form the longest key prefix. Term id 0 means "unbound" in a pattern; the default
 * graph has its own reserved context id, so it is never confused with "any graph".
 *
 * <p><b>Default graph only.</b> While every quad of the set is in the default graph, the orders
 * that start with the context and then follow the primary order ({@code cspo} beside
 * {@code spoc}) may be left empty ({@link #QuadIndexes(List, Function, long)}): such an order
 * would hold the primary order's keys with one constant in front. Reads then use the other orders
 * (a pattern's default-graph context selects every quad, a named graph none), and the first quad
 * added in a named graph builds those orders from the primary one, bottom-up in one pass (its keys
 * are already in their order), and tells the listener of {@link #onContextOrdersBuilt}.
 *
 * <p>Threads follow its trees: over a snapshot's read-only trees any number of threads may read at
 * once (the order tables it fills on first use are racy but safe); over a write transaction's
 * trees, one thread at a time reads and writes.
 */
public final class QuadIndexes {
    private static final byte[] NO_VALUE = new byte[0];
    private final List<QuadOrder> orders;
    private final List<BTree> trees = new ArrayList<>();
    /** Marks an entry of the tables below not worked out yet. */
    private static final byte UNKNOWN = -2;
    /**
     * {@link #bestOrder}'s answer for each set of bound positions (bit i set when position i is
     * bound), and {@link #orderFollowing}'s at {@code 4 * set + position}: each worked out on its
     * first use (a view, built per query, meets only a few sets), so the index lookup a join makes
     * per input row does not loop over the orders again. Racy but safe: an entry depends only on
     * the orders, so threads that both work it out write the same byte.
     */
    private final byte[] bestByBound = new byte[16];
    private final byte[] followingByBound = new byte[64];
    /** Per order: left empty while {@link #defaultGraphOnly}. */
    private final boolean[] deferrable;
    /** Every quad is in the default graph and the {@link #deferrable} orders are empty. */
    private boolean defaultGraphOnly;
    /** The default graph's context id while {@link #defaultGraphOnly}. */
    private final long defaultGraph;
    private Runnable onContextOrdersBuilt = () -> { };

    /**
     * @param orders the key orders (the first is the primary one, used for membership tests)
     * @param tree   the B+tree holding a given order, for reading or writing
     */
    public QuadIndexes(List<QuadOrder> orders, Function<QuadOrder, BTree> tree) {
        this(orders, tree, 0);
    }

    /**
     * @param defaultGraphOnly not 0: the default graph's context id, which every quad of the trees
     *                         has, the orders that {@link #isDeferrable} being empty (see the class
     *                         comment); 0: every order is kept
     */
    public QuadIndexes(List<QuadOrder> orders, Function<QuadOrder, BTree> tree, long defaultGraphOnly) {
        if (orders.isEmpty()) {
            throw new IllegalArgumentException("at least one statement index order is needed");
        }
        this.orders = List.copyOf(orders);
        if (this.orders.size() > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("too many statement index orders: " + this.orders.size());
        }
        for (QuadOrder o : this.orders) {
            trees.add(tree.apply(o));
        }
        Arrays.fill(bestByBound, UNKNOWN);
        Arrays.fill(followingByBound, UNKNOWN);
        this.deferrable = new boolean[this.orders.size()];
        boolean any = false;
        for (int i = 1; i < this.orders.size(); i++) {
            deferrable[i] = isDeferrable(this.orders.get(i), this.orders.get(0));
            any |= deferrable[i];
        }
        this.defaultGraphOnly = defaultGraphOnly != 0 && any;
        this.defaultGraph = defaultGraphOnly;
    }

    /**
     * Whether {@code order} may be left empty while every quad is in the default graph: it starts
     * with the context and then takes the other positions in the order {@code primary} does, so
     * with one context its keys come in the primary order's sequence.
     */
    public static boolean isDeferrable(QuadOrder order, QuadOrder primary) {
        if (order.positionAt(0) != QuadOrder.C || primary.positionAt(0) == QuadOrder.C) {
            return false;
        }
        int k = 1;
        for (int i = 0; i < 4; i++) {
            int p = primary.positionAt(i);
            if (p != QuadOrder.C && order.positionAt(k++) != p) {
                return false;
            }
        }
        return true;
    }

    /** Whether the context-first orders are left empty because every quad is in the default graph. */
    public boolean defaultGraphOnly() {
        return defaultGraphOnly;
    }

    /** Calls {@code listener} when a quad in a named graph makes this index set build its context-first orders. */
    public void onContextOrdersBuilt(Runnable listener) {
        this.onContextOrdersBuilt = listener;
    }

    /** Builds the context-first orders now if they were left empty; see the class comment. */
    public void keepContextOrders() {
        if (defaultGraphOnly) {
            buildContextOrders();
        }
    }

    /** Whether order {@code i}'s trees are kept up to date (not left empty while every quad is in the default graph). */
    public boolean kept(int i) {
        return !(defaultGraphOnly && deferrable[i]);
    }

    /** Builds the orders left empty while every quad was in the default graph, before {@code quad} (ids in S, P, O, C) is added. */
    private void beforeAdding(long context) {
        if (defaultGraphOnly && context != defaultGraph) {
            buildContextOrders();
        }
    }

    private void buildContextOrders() {
        QuadOrder primary = orders.get(0);
        for (int i = 1; i < orders.size(); i++) {
            if (!deferrable[i]) {
                continue;
            }
            QuadOrder o = orders.get(i);
            BTree source = trees.get(0);
            BTreeCursor c = source == null ? null : source.cursor(null, null);
            long[] quad = new long[4];
            trees.get(i).bulkLoad(new Iterator<Map.Entry<byte[], byte[]>>() {
                private boolean ahead = c != null && c.next();

                @Override
                public boolean hasNext() {
                    return ahead;
                }

                @Override
                public Map.Entry<byte[], byte[]> next() {
                    if (!ahead) {
                        throw new java.util.NoSuchElementException();
                    }
                    primary.decode(c.key(), quad);
                    Map.Entry<byte[], byte[]> e = new AbstractMap.SimpleImmutableEntry<>(o.key(quad), NO_VALUE);
                    ahead = c.next();
                    return e;
                }
            });
        }
        defaultGraphOnly = false;
        Arrays.fill(bestByBound, UNKNOWN);
        Arrays.fill(followingByBound, UNKNOWN);
        onContextOrdersBuilt.run();
    }

    /**
     * The pattern as the kept orders serve it: while every quad is in the default graph, a bound
     * default-graph context selects every quad (it becomes unbound) and a named one none (null);
     * else the pattern itself.
     */
    private long[] served(long[] pattern) {
        if (!defaultGraphOnly || pattern[3] == 0) {
            return pattern;
        }
        if (pattern[3] != defaultGraph) {
            return null;
        }
        long[] p = pattern.clone();
        p[3] = 0;
        return p;
    }

    /** Bit i set when position i of the pattern is bound (not 0). */
    private static int boundSet(long[] pattern) {
        return (pattern[0] != 0 ? 1 : 0) | (pattern[1] != 0 ? 2 : 0) | (pattern[2] != 0 ? 4 : 0) | (pattern[3] != 0 ? 8 : 0);
    }

    /** Adds a quad (ids in S, P, O, C positions); returns false if it was present. */
    public boolean add(long[] quad) {
        byte[] key = orders.get(0).key(quad);
        if (trees.get(0) != null && trees.get(0).containsKey(key)) {
            return false;
        }
        beforeAdding(quad[3]);
        for (int i = 0; i < orders.size(); i++) {
            if (kept(i)) {
                trees.get(i).put(i == 0 ? key : orders.get(i).key(quad), NO_VALUE);
            }
        }
        return true;
    }

    /**
     * Adds many quads (ids in S, P, O, C positions; duplicates allowed) and returns those that were
     * not present, in primary key order. Each tree is written in its own key order (the batch is
     * radix-sorted per order, {@link QuadSort}), so consecutive inserts land on the same leaf path
     * instead of a random one per quad.
     */
    public List<long[]> addAll(long[][] quads) {
        for (long[] quad : quads) {
            beforeAdding(quad[3]); // before the primary order holds a named graph
        }
        int n = quads.length;
        long[] packed = new long[4 * n];
        long[] scratch = new long[4 * n];
        QuadOrder primary = orders.get(0);
        for (int r = 0; r < n; r++) {
            for (int k = 0; k < 4; k++) {
                packed[4 * r + k] = quads[r][primary.positionAt(k)];
            }
        }
        QuadSort.sort(packed, n, scratch);
        BTree first = trees.get(0);
        List<long[]> added = new ArrayList<>();
        byte[] probe = new byte[QuadOrder.KEY_BYTES];
        for (int r = 0; r < n; r++) {
            if (r > 0 && QuadSort.same(packed, r, packed, r - 1)) {
                continue;
            }
            keyOf(packed, r, probe);
            if (first.containsKey(probe)) {
                continue;
            }
            first.put(probe.clone(), NO_VALUE);
            long[] quad = new long[4];
            for (int k = 0; k < 4; k++) {
                quad[primary.positionAt(k)] = packed[4 * r + k];
            }
            added.add(quad);
        }
        int m = added.size();
        for (int i = 1; i < orders.size(); i++) {
            if (!kept(i)) {
                continue;
            }
            QuadOrder o = orders.get(i);
            for (int r = 0; r < m; r++) {
                long[] quad = added.get(r);
                for (int k = 0; k < 4; k++) {
                    packed[4 * r + k] = quad[o.positionAt(k)];
                }
            }
            QuadSort.sort(packed, m, scratch);
            BTree t = trees.get(i);
            for (int r = 0; r < m; r++) {
                byte[] key = new byte[QuadOrder.KEY_BYTES];
                keyOf(packed, r, key);
                t.put(key, NO_VALUE);
            }
        }
        return added;
    }

    /** The big-endian key of record {@code r} of {@code packed} (ids already in key order). */
    private static void keyOf(long[] packed, int r, byte[] key) {
        for (int k = 0; k < 4; k++) {
            long v = packed[4 * r + k];
            for (int b = 7; b >= 0; b--) {
                key[8 * k + b] = (byte) v;
                v >>>= 8;
            }
        }
    }

    /** Removes a quad; returns false if it was absent. */
    public boolean remove(long[] quad) {
        if (trees.get(0) == null || trees.get(0).remove(orders.get(0).key(quad)) == null) {
            return false;
        }
        for (int i = 1; i < orders.size(); i++) {
            if (kept(i)) {
                trees.get(i).remove(orders.get(i).key(quad));
            }
        }
        return true;
    }

    public boolean contains(long[] quad) {
        return trees.get(0) != null && trees.get(0).containsKey(orders.get(0).key(quad));
    }

    public long size() {
        return trees.get(0) == null ? 0 : trees.get(0).size();
    }

    /** Index of the order serving the pattern with the longest bound prefix. */
    public int bestOrder(long[] pattern) {
        long[] served = served(pattern);
        if (served == null) {
            served = pattern.clone();
            served[3] = 0;
        }
        int set = boundSet(served);
        int best = bestByBound[set];
        if (best == UNKNOWN) {
            // only which positions are bound decides, so this answer serves the whole set
            best = longestPrefixOrder(served);
            bestByBound[set] = (byte) best;
        }
        return best;
    }

    private int longestPrefixOrder(long[] pattern) {
        int best = 0;
        int bestPrefix = -1;
        for (int i = 0; i < orders.size(); i++) {
            int p = kept(i) ? orders.get(i).boundPrefix(pattern) : -1;
            if (p > bestPrefix) {
                best = i;
                bestPrefix = p;
            }
        }
        return best;
    }

    public QuadCursor scan(long[] pattern) {
        long[] served = served(pattern);
        int i = bestOrder(pattern);
        QuadOrder o = orders.get(i);
        BTree t = served == null ? null : trees.get(i);
        return new QuadCursor(t == null ? null : t.prefixCursor(o.prefix(served)), o, pattern);
    }

    /**
     * The order whose keys start with the pattern's bound positions followed by {@code position},
     * so its matches come in ascending (unsigned) order of the id there; -1 if no order does.
     */
    public int orderFollowing(long[] pattern, int position) {
        long[] served = served(pattern);
        if (served == null) {
            served = pattern.clone();
            served[3] = 0;
        }
        int entry = 4 * boundSet(served) + position;
        int following = followingByBound[entry];
        if (following == UNKNOWN) {
            following = firstOrderFollowing(served, position);
            followingByBound[entry] = (byte) following;
        }
        return following;
    }

    private int firstOrderFollowing(long[] pattern, int position) {
        int bound = QuadOrder.boundCount(pattern);
        if (pattern[position] != 0 || bound == 4) {
            return -1;
        }
        for (int i = 0; i < orders.size(); i++) {
            QuadOrder o = orders.get(i);
            if (kept(i) && o.boundPrefix(pattern) == bound && o.positionAt(bound) == position) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Matches of {@code pattern} whose id at {@code position} is at least {@code min} (unsigned), in
     * the key order of {@code orderFollowing(pattern, position)}, reusing {@code previous} (a cursor
     * of that order on this index set) as {@link #rescan} does: a forward seek of a merge join.
     */
    public QuadCursor seek(QuadCursor previous, long[] pattern, int position, long min) {
        int i = orderFollowing(pattern, position);
        if (i < 0) {
            throw new IllegalArgumentException("no index orders this pattern by position " + position);
        }
        QuadOrder o = orders.get(i);
        long[] served = served(pattern);
        BTree t = served == null ? null : trees.get(i);
        if (served == null) {
            served = pattern;
        }
        long[] from = served.clone();
        from[position] = min;
        byte[] lo = o.lowerBound(from);
        byte[] hi = o.upperBound(served);
        if (previous != null && previous.order() == o && previous.reads(t)) {
            previous.resetRange(pattern, lo, hi);
            return previous;
        }
        return new QuadCursor(t == null ? null : t.cursor(lo, hi), o, pattern);
    }

    /**
     * Like {@link #scan}, reusing {@code previous} (a cursor of this index set, no longer needed)
     * when the pattern is served by the same order: its index path is kept where it still leads to
     * the new range, so successive nearby lookups skip most of the descent.
     */
    public QuadCursor rescan(QuadCursor previous, long[] pattern) {
        int i = bestOrder(pattern);
        if (previous == null || previous.order() != orders.get(i) || !previous.reads(trees.get(i))
                || served(pattern) != pattern) {
            return scan(pattern);
        }
        previous.reset(pattern);
        return previous;
    }

    /**
     * Number of quads matching the pattern. Exact and O(log n) when an order has all bound positions
     * as its prefix (the default orders serve every pattern this way); otherwise the prefix range is
     * scanned and checked.
     */
    public long count(long[] pattern) {
        long[] served = served(pattern);
        int i = bestOrder(pattern);
        QuadOrder o = orders.get(i);
        BTree t = trees.get(i);
        if (t == null || served == null) {
            return 0;
        }
        if (o.boundPrefix(served) == QuadOrder.boundCount(served)) {
            // 32-byte keys below the bare prefix are exactly those below lowerBound, so the prefix
            // serves as the lower key without padding it
            return t.rangeCount(o.prefix(served), o.upperBound(served));
        }
        long n = 0;
        QuadCursor c = scan(pattern);
        while (c.next()) {
            n++;
        }
        return n;
    }

    public List<QuadOrder> orders() {
        return orders;
    }
}
