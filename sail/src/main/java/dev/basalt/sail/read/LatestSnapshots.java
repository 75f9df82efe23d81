package dev.basalt.sail.read;

import java.util.List;

import dev.basalt.store.Store;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.quads.QuadOrder;

/**
 * Read views of the newest commit point, shared by every reader until the next commit: opening
 * a snapshot and its trees is paid once per commit, not once per read. A view is closed when it
 * is no longer the newest and its last lease is closed, so a commit point stays pinned only while
 * someone reads it. The sail's writer calls {@link #invalidate()} after each commit.
 *
 * <p>Thread-safe: every method and lease release is synchronized on this object; leases may be closed in
 * any thread.
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
}
