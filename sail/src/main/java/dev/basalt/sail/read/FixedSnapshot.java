package dev.basalt.sail.read;

/**
 * A read source that always hands out one view: a past commit point opened for a read-as-of
 * connection. The owner closes the view's snapshot when the connection closes.
 *
 * <p>Thread-safe: it hands the same read-only view to any thread and keeps no other state.
 */
public final class FixedSnapshot implements ReadSource {
    private final ReadView view;

    public FixedSnapshot(ReadView view) {
        this.view = view;
    }

    public ReadView view() {
        return view;
    }

    @Override
    public Lease acquire() {
        return new Lease() {
            @Override
            public ReadView view() {
                return view;
            }

            @Override
            public Lease share() {
                return this;
            }

            @Override
            public void close() {
                // the snapshot lives as long as the connection
            }
        };
    }

    public void close() {
        view.snapshot().close();
    }
}
