package dev.basalt.optimizer.exec;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.QueryInterruptedException;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;

/**
 * State of one evaluation of a plan: the data it reads, whether operators time themselves, and
 * cancellation. Closing the result from another thread (RDF4J's query timeout does) or
 * interrupting the evaluating thread stops every operator at its next row check.
 *
 * <p>Terms: operators turn values into ids with {@link #idOf} and back with {@link #resolve}, never
 * through the source directly, so values the query computed (query-local ids, see
 * {@link TermIds#FIRST_LOCAL}) and stored terms mix in one row.
 */
public final class ExecContext {
    /**
     * Row value of a variable whose BIND / SELECT expression was in error: RDF4J keeps such a name
     * with no value, so it is unbound in results and conditions but matches nothing in later
     * patterns and joins (RDF4J's SES-2250 behaviour). An id of the reserved kind-0 range below
     * {@link TermIds#FIRST_LOCAL}: never stored, never issued as a query-local id; it resolves to null.
     */
    public static final long UNBOUND_BY_ERROR = 2L;

    /** Whether a row value is a term: neither {@link TermIds#NULL} nor {@link #UNBOUND_BY_ERROR}. */
    public static boolean isBound(long id) {
        return id != TermIds.NULL && id != UNBOUND_BY_ERROR;
    }

    /**
     * {@code row} itself, or a copy with {@link #UNBOUND_BY_ERROR} replaced by {@link TermIds#NULL}
     * where it holds one: for operators whose right side sees the row as a solution, where such a
     * variable is simply outside the domain (EXISTS substitution, MINUS compatibility).
     */
    public static long[] withErrorsUnbound(long[] row) {
        long[] out = row;
        for (int i = 0; i < row.length; i++) {
            if (row[i] == UNBOUND_BY_ERROR) {
                if (out == row) {
                    out = row.clone();
                }
                out[i] = TermIds.NULL;
            }
        }
        return out;
    }

    private final QuadSource source;
    /** {@code source}'s {@link QuadSource#resolver}: what {@link #resolve} and {@link #idOf} read terms through. */
    private final QuadSource resolver;
    private final boolean trackTime;
    private final ExecLimits limits;
    /** The context this one was forked from for a helper thread, or null; it holds cancellation and local terms. */
    private final ExecContext root;
    private volatile boolean cancelled;
    /** Helper threads working for this evaluation now (root context only). */
    private final java.util.concurrent.atomic.AtomicInteger helpers = new java.util.concurrent.atomic.AtomicInteger();
    private boolean statistics = true;
    private boolean parallel;
    /** Query-local terms, of the root context only; guarded by its monitor when helpers may run. */
    private LocalTerms locals;
    /** Probers not in use, per operator (an operator open twice at once gets a second one). */
    private final Map<Object, ArrayDeque<QuadSource.Prober>> idleProbers = new IdentityHashMap<>();
    /** Per-evaluation state of operators and conditions shared by the threads of a query, one per thread. */
    private final Map<Object, Object> scratch = new IdentityHashMap<>();
    private Object feedOwner;
    private Object feed;
    /** Values built once per evaluation and input row for all its threads (root context only), guarded by itself. */
    private final Map<Object, Object[]> shared = new IdentityHashMap<>();
    /** This evaluation's constant for each sentinel value a plan kept for a query shape holds (root context only), or null. */
    private Map<Value, Value> parameterValues;

    public ExecContext(QuadSource source, boolean trackTime) {
        this(source, trackTime, ExecLimits.defaults());
    }

    public ExecContext(QuadSource source, boolean trackTime, ExecLimits limits) {
        this(source, trackTime, limits, null);
    }

    private ExecContext(QuadSource source, boolean trackTime, ExecLimits limits, ExecContext root) {
        this.source = source;
        this.resolver = source.resolver();
        this.trackTime = trackTime;
        this.limits = limits;
        this.root = root;
    }

    /**
     * Ends per-operator row counts for this evaluation (nobody will read them: they are EXPLAIN's)
     * and, over a source that may be read from several threads at once
     * ({@link QuadSource#concurrentReads}), lets {@link ParallelJoin} hand work to helper threads,
     * whose count updates would otherwise contend on the shared operators. Counting is on by default.
     */
    public ExecContext withoutStatistics() {
        this.statistics = false;
        this.parallel = source.concurrentReads();
        return this;
    }

    /** True if operators count their rows and opens (EXPLAIN). */
    public boolean statistics() {
        return statistics;
    }

    public boolean parallelAllowed() {
        return parallel;
    }

    /**
     * Takes one of the helper threads this evaluation may use ({@link ExecLimits#helperThreads});
     * false if it uses them all. Pair a true answer with {@link #releaseHelper}.
     */
    boolean takeHelper() {
        ExecContext r = root != null ? root : this;
        while (true) {
            int n = r.helpers.get();
            if (n >= limits.helperThreads()) {
                return false;
            }
            if (r.helpers.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void releaseHelper() {
        (root != null ? root : this).helpers.decrementAndGet();
    }

    /**
     * A context for a helper thread of this evaluation: same source, limits and local terms, and
     * cancelled with this one; its own probers and scratch state. A fork never forks again.
     */
    ExecContext fork() {
        ExecContext f = new ExecContext(source, trackTime, limits, root != null ? root : this);
        f.statistics = statistics;
        return f;
    }

    /** This thread's state of {@code owner} (e.g. a condition's batch of values), made on first use. */
    @SuppressWarnings("unchecked")
    public <T> T scratch(Object owner, Supplier<T> make) {
        Object s = scratch.get(owner);
        if (s == null) {
            s = make.get();
            scratch.put(owner, s);
        }
        return (T) s;
    }

    /**
     * The value of {@code owner} for {@code input}, made by {@code make} on first use and shared by
     * every thread of this evaluation (the root context and its forks); null when it was made for
     * another input row (one value per owner and evaluation: an operator opened per row of an outer
     * join does not make one per row). Threads asking while it is made wait for it.
     */
    @SuppressWarnings("unchecked")
    <T> T shared(Object owner, long[] input, Supplier<T> make) {
        Map<Object, Object[]> m = (root != null ? root : this).shared;
        synchronized (m) {
            Object[] held = m.get(owner);
            if (held != null) {
                return Arrays.equals((long[]) held[0], input) ? (T) held[1] : null;
            }
            T v = make.get();
            m.put(owner, new Object[] { input.clone(), v });
            return v;
        }
    }

    /** Hands {@code feed} to the next {@link #takeFeed} of {@code owner}, which its open makes at once. */
    void offerFeed(Object owner, Object feed) {
        this.feedOwner = owner;
        this.feed = feed;
    }

    Object takeFeed(Object owner) {
        if (feedOwner != owner) {
            throw new IllegalStateException("no rows were offered to " + owner);
        }
        Object f = feed;
        feedOwner = null;
        feed = null;
        return f;
    }

    /** Bounds of this evaluation (rows per sort, DISTINCT, hash join; spill directory; helper threads). */
    public ExecLimits limits() {
        return limits;
    }

    public QuadSource source() {
        return source;
    }

    public boolean trackTime() {
        return trackTime;
    }

    /** A prober of the source for {@code owner}'s scans; give it back with {@link #releaseProber} when its scan is done. */
    public QuadSource.Prober prober(Object owner) {
        ArrayDeque<QuadSource.Prober> idle = idleProbers.get(owner);
        QuadSource.Prober p = idle == null ? null : idle.poll();
        return p != null ? p : source.prober();
    }

    public void releaseProber(Object owner, QuadSource.Prober prober) {
        idleProbers.computeIfAbsent(owner, k -> new ArrayDeque<>(2)).push(prober);
    }

    /**
     * Gives this evaluation's constants to a plan compiled once for a query shape: {@link #idOf} takes the value
     * {@code values} holds for a sentinel of the shape in its place.
     */
    public ExecContext withParameterValues(Map<Value, Value> values) {
        this.parameterValues = values;
        return this;
    }

    /**
     * This evaluation's constant for each sentinel value of a plan kept for a query shape ({@link #withParameterValues}),
     * or null for a plan of one query.
     */
    public Map<Value, Value> parameterValues() {
        return root != null ? root.parameterValues : parameterValues;
    }

    /** The id of a value: its stored id (inline or dictionary), else a query-local id. Null stays {@link TermIds#NULL}. */
    public long idOf(Value value) {
        if (value == null) {
            return TermIds.NULL;
        }
        Map<Value, Value> parameters = root != null ? root.parameterValues : parameterValues;
        if (parameters != null) {
            value = parameters.getOrDefault(value, value);
        }
        long id = resolver.lookup(value);
        return id != TermIds.NULL ? id : queryLocalId(value);
    }

    /**
     * An id for a value this evaluation only orders or compares by value, such as an ORDER BY expression's result
     * kept in a sort's own column: its inline id where {@link TermIds} gives it one, else a query-local id, without
     * the dictionary lookup {@link #idOf} makes for a term the store may hold (a computed value mostly is not, so
     * that lookup descends the dictionary to find nothing, per row). Such an id never reaches a join, a sameTerm
     * test or an answer, where a stored term must carry its dictionary id.
     */
    public long comparableIdOf(Value value) {
        if (value == null) {
            return TermIds.NULL;
        }
        long inline = InlineValues.encode(value);
        return inline != TermIds.NULL ? inline : queryLocalId(value);
    }

    /** The query-local id of a value, kept by the root context where this one is a parallel part's. */
    private long queryLocalId(Value value) {
        if (root != null) {
            return root.localId(value);
        }
        return parallel ? localId(value) : localIdUnlocked(value);
    }

    private synchronized long localId(Value value) {
        return localIdUnlocked(value);
    }

    private long localIdUnlocked(Value value) {
        if (locals == null) {
            locals = new LocalTerms();
        }
        return locals.id(value);
    }

    private Value localValue(long id) {
        if (root != null) {
            return root.localValue(id);
        }
        if (!parallel) {
            return locals.value(id);
        }
        synchronized (this) {
            return locals.value(id);
        }
    }

    private boolean hasLocals() {
        if (root != null) {
            return root.hasLocals();
        }
        if (!parallel) {
            return locals != null;
        }
        synchronized (this) {
            return locals != null;
        }
    }

    /** Values of many ids at once (index-aligned); null for {@link TermIds#NULL} and the default graph. */
    public Value[] resolve(long[] ids) {
        long[] stored = ids.clone();
        for (int i = 0; i < stored.length; i++) {
            if (TermIds.isLocal(stored[i]) || stored[i] == UNBOUND_BY_ERROR) {
                stored[i] = TermIds.NULL;
            }
        }
        Value[] out = resolver.resolve(stored);
        if (!hasLocals()) {
            return out;
        }
        for (int i = 0; i < ids.length; i++) {
            if (TermIds.isLocal(ids[i])) {
                out[i] = localValue(ids[i]);
            }
        }
        return out;
    }

    /** The value of one id (see {@link #resolve(long[])}). */
    public Value resolve(long id) {
        if (id == UNBOUND_BY_ERROR) {
            return null;
        }
        return TermIds.isLocal(id) ? localValue(id) : resolver.resolve(new long[] { id })[0];
    }

    public void cancel() {
        cancelled = true;
    }

    /** Throws if the evaluation was cancelled or its thread interrupted; operators call it per batch of rows. */
    public void checkCancelled() {
        if (cancelled || root != null && root.cancelled) {
            throw new QueryInterruptedException("the query was closed or timed out");
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new QueryInterruptedException("the query thread was interrupted");
        }
    }
}
