package dev.basalt.sail.read;

/**
 * Hands out {@link ReadView}s for read operations. Every {@link #acquire()} must be matched by
 * one {@link Lease#close()}; a lease keeps its view's snapshot open.
 *
 * <p>Implementations are thread-safe: any thread may acquire, and a lease may be closed in another thread
 * than the one that acquired it.
 */
public interface ReadSource {
    Lease acquire();

    /** One reader's hold on a view. Closing twice is harmless. */
    interface Lease extends AutoCloseable {
        ReadView view();

        /**
         * Another lease on the same view, independent of this one: the view stays open until
         * both are closed. Lets an iteration outlive the dataset that opened it without the
         * dataset's snapshot closing under it.
         */
        Lease share();

        @Override
        void close();
    }
}
