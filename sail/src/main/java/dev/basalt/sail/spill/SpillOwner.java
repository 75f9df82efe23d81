package dev.basalt.sail.spill;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The spill stores of one connection's transaction, so a rollback deletes them at once instead of
 * waiting for the garbage collector. A connection runs its write operations under its owner
 * ({@link #call}); a model created meanwhile belongs to the connection's private branch of RDF4J's
 * snapshot layer, and if it spills later its store is {@linkplain #adopt adopted}. When the
 * connection starts to commit it {@linkplain #handOver hands them over}: from then on RDF4J's shared
 * layer may reference them, and they are released after the store has written them (or by the
 * cleaner). Connections at isolation NONE write into the shared layer and must not use an owner.
 *
 * <p>Thread-safe: the list of releases is guarded by this object's monitor, since the connection's thread
 * adopts stores while the committing thread or the cleaner releases them; the current owner is a
 * per-thread hand-off that relies on RDF4J's call order (listed in {@code
 * dev.basalt.sail.Rdf4jInternals}).
 */
public final class SpillOwner {
    /** Relies on RDF4J creating change-set models in the writing thread: dev.basalt.sail.Rdf4jInternals, dependency 6. */
    private static final ThreadLocal<SpillOwner> CURRENT = new ThreadLocal<>();
    private final List<Runnable> releases = new ArrayList<>();
    private boolean handedOver;

    static SpillOwner current() {
        return CURRENT.get();
    }

    /** Runs a write operation of the owning connection with this owner as the current one. */
    public <T> T call(Supplier<T> operation) {
        SpillOwner outer = CURRENT.get();
        CURRENT.set(this);
        try {
            return operation.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    public void run(Runnable operation) {
        call(() -> {
            operation.run();
            return null;
        });
    }

    /** Takes the release action of a new spill store; false once the owner has handed over or released its stores. */
    synchronized boolean adopt(Runnable release) {
        if (handedOver) {
            return false;
        }
        releases.add(release);
        return true;
    }

    /** The transaction is committing: its models may now be shared, so no longer delete them here. */
    public synchronized void handOver() {
        handedOver = true;
        releases.clear();
    }

    /** The transaction was rolled back: deletes its spill stores now. */
    public synchronized void releaseAll() {
        handedOver = true;
        for (Runnable r : releases) {
            r.run();
        }
        releases.clear();
    }
}
