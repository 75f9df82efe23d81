package dev.basalt.optimizer.exec;

import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.QueryEvaluationException;

import dev.basalt.store.lexicon.TermIds;

/**
 * A property path {@code p*}, {@code p+} (RDF4J's ArbitraryLengthPath) or the zero-length part
 * alone ({@code ZeroLengthPath}), as RDF4J 5.0.3 evaluates them: the result is the set of distinct
 * (start, end) pairs, each once.
 *
 * <ul>
 * <li>Start bound (constant or by the input row): breadth-first search from it over ids, the step
 * operator opened with its start slot bound to the node being expanded; each node reached is
 * reported once and expanded once (a visited set, so cycles end). With the end bound too the
 * search stops when it reaches the end.</li>
 * <li>Only the end bound: the same search backwards (step opened with its end slot bound).</li>
 * <li>Neither bound: the step's distinct start nodes, each searched forwards.</li>
 * <li>Zero length (minimum 0): a bound endpoint pairs with itself whether or not the graph holds
 * it; with both ends free, every subject and object of the path's graph (the default graph(s) or
 * the GRAPH constant, dataset applied) pairs with itself, once.</li>
 * </ul>
 * Memory: the visited set and queue of one search, plus with both ends free the set of start
 * nodes (and for zero length the set of the graph's terms), as primitive id sets. Together they
 * hold at most {@link ExecLimits#pathNodes()} ids; past that the query fails with a
 * {@link QueryEvaluationException} naming the limit (a search over a graph that large would
 * otherwise exhaust the heap of the whole server).
 * Thread-safe: its fields are fixed at construction and each open's state lives in its cursor, so the
 * concurrent evaluations of a kept plan may open it at once; a cursor is used by one thread.
 */
public final class PathOp extends Operator {
    private final Value startConstant;
    private final int startSlot;
    private final Value endConstant;
    private final int endSlot;
    private final Operator forward;
    private final Operator backward;
    private final Operator all;
    private final int stepStart;
    private final int stepEnd;
    private final boolean zeroLength;
    private final PatternScan terms;
    private final String label;

    /**
     * @param forward the step with {@code stepStart} bound by its input (null: zero length only)
     * @param backward the step with {@code stepEnd} bound by its input
     * @param all the step with nothing bound
     * @param terms scan of every statement of the path's graph, for zero length with both ends free
     */
    public PathOp(Value startConstant, int startSlot, Value endConstant, int endSlot, Operator forward,
            Operator backward, Operator all, int stepStart, int stepEnd, boolean zeroLength, PatternScan terms,
            String label) {
        this.startConstant = startConstant;
        this.startSlot = startSlot;
        this.endConstant = endConstant;
        this.endSlot = endSlot;
        this.forward = forward;
        this.backward = backward;
        this.all = all;
        this.stepStart = stepStart;
        this.stepEnd = stepEnd;
        this.zeroLength = zeroLength;
        this.terms = terms;
        this.label = label;
    }

    /** Whether the start or the end is known once the given slots are bound. */
    public boolean anchored(Set<Integer> bound) {
        return startConstant != null || endConstant != null || bound.contains(startSlot) || bound.contains(endSlot);
    }

    /** Rough rows per input row given the bound slots: small when anchored. */
    public double estimate(Set<Integer> bound) {
        return anchored(bound) ? 10 : estimate();
    }

    @Override
    public List<Operator> children() {
        return forward == null ? List.of() : List.of(forward);
    }

    @Override
    public String describe() {
        return "Path " + label;
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        long s = startConstant != null ? ctx.idOf(startConstant) : startSlot >= 0 ? input[startSlot] : TermIds.NULL;
        long e = endConstant != null ? ctx.idOf(endConstant) : endSlot >= 0 ? input[endSlot] : TermIds.NULL;
        if (s != TermIds.NULL) {
            return new Search(input, ctx, s, e, true, false, 0);
        }
        if (e != TermIds.NULL) {
            return new Search(input, ctx, e, TermIds.NULL, false, false, 0);
        }
        return new AllPairs(input, ctx);
    }

    private long[] emit(long[] input, long start, long end) {
        long[] row = input.clone();
        if (startSlot >= 0) {
            row[startSlot] = start;
        }
        if (endSlot >= 0) {
            row[endSlot] = end;
        }
        return row;
    }

    /** Breadth-first search from one node; {@code target} 0 = report every node reached. */
    private final class Search implements RowCursor {
        private final long[] input;
        private final ExecContext ctx;
        private final long origin;
        private final long target;
        private final boolean forwards;
        private final IdSet reached = new IdSet();
        private final IdQueue queue = new IdQueue();
        /** Ids the enclosing {@link AllPairs} holds, counted against the limit too. */
        private final long heldOutside;
        private RowCursor step;
        private boolean done;
        private int rows;

        /**
         * @param skipZero the zero-length pair of the origin was reported already
         * @param heldOutside ids the caller holds for this operator (counted against the limit)
         */
        Search(long[] input, ExecContext ctx, long origin, long target, boolean forwards, boolean skipZero,
                long heldOutside) {
            this.heldOutside = heldOutside;
            this.input = input;
            this.ctx = ctx;
            this.origin = origin;
            this.target = target;
            this.forwards = forwards;
            if (skipZero) {
                reached.add(origin);
            }
            queue.add(origin);
        }

        @Override
        public long[] next() {
            if (done) {
                return null;
            }
            if (zeroLength && !reached.contains(origin)) {
                reached.add(origin);
                if (target == TermIds.NULL || target == origin) {
                    done = target != TermIds.NULL;
                    return pair(origin);
                }
            }
            if (forward == null) {
                return finish();
            }
            while (true) {
                if (step == null) {
                    if (queue.isEmpty()) {
                        return finish();
                    }
                    long node = queue.poll();
                    long[] row = new long[input.length];
                    row[forwards ? stepStart : stepEnd] = node;
                    step = (forwards ? forward : backward).open(row, ctx);
                }
                long[] r = step.next();
                if (r == null) {
                    step.close();
                    step = null;
                    continue;
                }
                if (++rows % 1024 == 0) {
                    ctx.checkCancelled();
                }
                long x = r[forwards ? stepEnd : stepStart];
                if (x == TermIds.NULL || !reached.add(x)) {
                    continue;
                }
                if (x != origin) {
                    queue.add(x);
                }
                checkHeld(heldOutside + reached.size() + queue.size(), ctx);
                if (target == TermIds.NULL || target == x) {
                    if (target != TermIds.NULL) {
                        finish();
                        done = true;
                    }
                    return pair(x);
                }
            }
        }

        private long[] pair(long x) {
            return forwards ? emit(input, origin, x) : emit(input, x, origin);
        }

        private long[] finish() {
            done = true;
            close();
            return null;
        }

        @Override
        public void close() {
            if (step != null) {
                step.close();
                step = null;
            }
            queue.clear();
        }
    }

    private void checkHeld(long ids, ExecContext ctx) {
        long limit = ctx.limits().pathNodes();
        if (ids > limit) {
            throw new QueryEvaluationException("the property path " + label + " reached more than " + limit
                    + " nodes in one search, the limit of ids a path search holds in memory; narrow the path"
                    + " (bind an end, or add patterns) or raise the repository's setting pathNodes (default: system property "
                    + ExecLimits.PATH_NODES + ")");
        }
    }

    /** Both ends free: zero-length pairs of the graph's terms, then a search from every start node. */
    private final class AllPairs implements RowCursor {
        private final long[] input;
        private final ExecContext ctx;
        private final IdSet zero = new IdSet();
        private final IdSet starts = new IdSet();
        private RowCursor source;
        private boolean termsDone;
        private long pendingObject = TermIds.NULL;
        private Search search;

        AllPairs(long[] input, ExecContext ctx) {
            this.input = input;
            this.ctx = ctx;
            termsDone = !zeroLength || terms == null;
            if (!termsDone) {
                source = terms.open(new long[input.length], ctx);
            } else if (all != null) {
                source = all.open(new long[input.length], ctx);
            }
        }

        @Override
        public long[] next() {
            while (!termsDone) {
                if (pendingObject != TermIds.NULL) {
                    long o = pendingObject;
                    pendingObject = TermIds.NULL;
                    if (o != TermIds.NULL && zero.add(o)) {
                        checkHeld(zero.size(), ctx);
                        return emit(input, o, o);
                    }
                    continue;
                }
                long[] r = source.next();
                if (r == null) {
                    source.close();
                    termsDone = true;
                    source = all == null ? null : all.open(new long[input.length], ctx);
                    break;
                }
                pendingObject = r[terms.slots()[2]];
                long sub = r[terms.slots()[0]];
                if (sub != TermIds.NULL && zero.add(sub)) {
                    checkHeld(zero.size(), ctx);
                    return emit(input, sub, sub);
                }
            }
            while (true) {
                if (search != null) {
                    long[] r = search.next();
                    if (r != null) {
                        return r;
                    }
                    search = null;
                }
                if (source == null) {
                    return null;
                }
                long[] r = source.next();
                if (r == null) {
                    source.close();
                    source = null;
                    return null;
                }
                long start = r[stepStart];
                if (start != TermIds.NULL && starts.add(start)) {
                    checkHeld(zero.size() + starts.size(), ctx);
                    search = new Search(input, ctx, start, TermIds.NULL, true, zero.contains(start) || zeroLength,
                            zero.size() + starts.size());
                }
            }
        }

        @Override
        public void close() {
            if (search != null) {
                search.close();
                search = null;
            }
            if (source != null) {
                source.close();
                source = null;
            }
        }
    }
}
