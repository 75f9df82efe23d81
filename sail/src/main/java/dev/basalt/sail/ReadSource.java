package dev.basalt.sail;

/**
 * Hands out {@link ReadView}s for read operations. Every {@link #acquire()} must be matched by
 * one {@link Lease#close()}; a lease keeps its view's snapshot open.
 */
interface ReadSource {
    Lease acquire();

    /** One reader's hold on a view. Closing twice is harmless. */
    interface Lease extends AutoCloseable {
        ReadView view();

        @Override
        void close();
    }
}
