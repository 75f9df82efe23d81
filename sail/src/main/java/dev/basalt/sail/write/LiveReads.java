package dev.basalt.sail.write;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.sail.SailException;
import dev.basalt.sail.read.LiveTransaction;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.ReadView;

/**
 * The {@link ReadSource} of a promoted {@link WriteThroughTransaction}: live views of the store's
 * open write transaction over the commit point it builds on ({@code base}, pinned until
 * {@link #end()}). Leases are counted while open ({@link #open()}), so the transaction's sinks
 * keep full buffers in memory instead of changing the trees under an open read; a lease
 * first waits for the writer's background batch, so it reads everything written so far.
 *
 * <p>Before the transaction writes while leases are open (a flush of the connection's pending
 * changes, which RDF4J runs before every read), {@link #beforeWrite()} tells every tracked reader
 * ({@link #track}) to read the rest of its matches into memory first: an iteration keeps showing
 * the state it started on, as RDF4J's snapshot reads require.
 *
 * <p>A dataset holds an uncounted lease ({@link #datasetLease()}) for its whole life and counts
 * only while it reads: RDF4J keeps an update operation's dataset open as long as its sink, and
 * that must not hold back the sink's writes.
 *
 * <p>Thread rules: used by the transaction's connection, one thread at a time; the views read
 * trees that only that connection's writes change.
 */
final class LiveReads implements ReadSource, LiveTransaction {
    private final StoreWriter writer;
    private final Object owner;
    private final ReadSource.Lease base;
    private int open;
    private boolean ended;
    private volatile boolean killed;
    private ReadView cached;
    private long cachedWrites = -1;
    /** Readers to detach before the next write, in the order they registered. */
    private final Set<Runnable> tracked = new LinkedHashSet<>();

    LiveReads(StoreWriter writer, Object owner, ReadSource.Lease base) {
        this.writer = writer;
        this.owner = owner;
        this.base = base;
    }

    /** Live leases open now. */
    synchronized int open() {
        return open;
    }

    @Override
    public Lease acquire() {
        return counted();
    }

    /** A lease that does not hold back writes itself; its {@link Lease#share()}s do. */
    Lease datasetLease() {
        return new Lease() {
            @Override
            public ReadView view() {
                return current();
            }

            @Override
            public Lease share() {
                return counted();
            }

            @Override
            public void close() {
                // a dataset's lease pins nothing of its own
            }
        };
    }

    private Lease counted() {
        synchronized (this) {
            if (ended || killed) {
                throw new SailException(killed ? WriteThroughTransaction.PREEMPTED
                        : "the large transaction of this Basalt connection has ended");
            }
            open++;
        }
        ReadView view;
        try {
            writer.awaitBackground();
            view = current();
        } catch (RuntimeException e) {
            release();
            throw e;
        }
        return new Lease() {
            private boolean closed;

            @Override
            public ReadView view() {
                return view;
            }

            @Override
            public Lease share() {
                return counted();
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    release();
                }
            }
        };
    }

    private synchronized void release() {
        open--;
    }

    private synchronized ReadView current() {
        long writes = writer.writes();
        if (cached == null || writes != cachedWrites) {
            cached = writer.readView(owner, base.view().snapshot(), this);
            cachedWrites = writes;
        }
        return cached;
    }

    /**
     * Registers a reader that keeps a cursor between calls; {@code detach} is run before the
     * transaction's next write. Returns what unregisters it.
     */
    @Override
    public synchronized Runnable track(Runnable detach) {
        tracked.add(detach);
        return () -> {
            synchronized (LiveReads.this) {
                tracked.remove(detach);
            }
        };
    }

    /** The transaction is about to write: tracked readers stop reading the trees. */
    void beforeWrite() {
        List<Runnable> detach;
        synchronized (this) {
            detach = new ArrayList<>(tracked);
            tracked.clear();
        }
        detach.forEach(Runnable::run);
    }

    @Override
    public synchronized boolean isEnded() {
        return ended || killed;
    }

    /**
     * The transaction lost its writes (its writer group was taken): views become unreadable at
     * once. Takes no lock, as it is called under the writer's monitor.
     */
    void kill() {
        killed = true;
    }

    /** The transaction ended: views become unreadable and the base commit point is released. */
    synchronized void end() {
        if (!ended) {
            ended = true;
            cached = null;
            tracked.clear();
            base.close();
        }
    }
}
