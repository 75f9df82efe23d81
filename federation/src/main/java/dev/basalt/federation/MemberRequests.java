package dev.basalt.federation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.function.UnaryOperator;

import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.query.BindingSet;

/**
 * Runs a call's requests to the members ({@link MemberSource}s) for {@link StarEvaluator}: a request is
 * a {@link FutureTask} made by {@link #task} or {@link #split}, and {@link #start} starts a batch of them
 * so that every member works at once while the calling thread does what it would otherwise only wait
 * for. A request to a source that splits sending from reading ({@link MemberSource#send}) is sent by the
 * calling thread and read there afterwards; any other request runs whole, on the request pool or, the
 * last of a batch with no split request, on the calling thread.
 *
 * <p>Thread rules: thread-safe, it keeps no state but the pool. A request made here is started once, by
 * {@link #start}, and then read ({@link FutureTask#get}) or cancelled by the thread that started it;
 * cancelling a split request before it is read gives the sent request up (its connection is closed
 * unread).
 */
final class MemberRequests {
    private final ExecutorService pool;

    MemberRequests(ExecutorService pool) {
        this.pool = pool;
    }

    /**
     * A request of {@code text} to {@code source}, not started, waiting at most {@code timeoutMillis}:
     * split into send and read when the source can and {@code info} (FedX's query) is null.
     */
    static FutureTask<List<BindingSet>> task(MemberSource source, String text, QueryInfo info, long timeoutMillis) {
        return info == null ? new SplitTask(source, text, timeoutMillis, rows -> rows)
                : new FutureTask<>(() -> source.select(text, info, timeoutMillis));
    }

    /**
     * A request of {@code text} to {@code source}, not started, its answer passed through {@code then}
     * (which may ask the source again) on the thread that reads it.
     */
    static FutureTask<List<BindingSet>> split(MemberSource source, String text, long timeoutMillis,
            UnaryOperator<List<BindingSet>> then) {
        return new SplitTask(source, text, timeoutMillis, then);
    }

    /**
     * Starts requests. Those whose source splits sending from reading ({@link MemberSource#send}) are all
     * sent by the calling thread first and then read by it in turn, so a star asked of every member costs
     * no thread handoff: the members work in parallel while the front waits for the first answer. Of the
     * others, all but the last run on the request pool and the last on the calling thread, which would
     * otherwise only wait.
     */
    void start(List<FutureTask<List<BindingSet>>> tasks) {
        List<SplitTask> split = new ArrayList<>();
        List<FutureTask<List<BindingSet>>> whole = new ArrayList<>();
        for (FutureTask<List<BindingSet>> task : tasks) {
            if (task instanceof SplitTask s && s.send()) {
                split.add(s);
            } else {
                whole.add(task);
            }
        }
        int onPool = split.isEmpty() ? Math.max(0, whole.size() - 1) : whole.size();
        for (int i = 0; i < onPool; i++) {
            pool.execute(whole.get(i));
        }
        if (onPool < whole.size()) {
            whole.get(whole.size() - 1).run();
        }
        split.forEach(SplitTask::run);
    }

    /**
     * A request that {@link #start} sends on the calling thread and reads there afterwards, its answer then
     * passed through {@code then}; a source that cannot split ({@link MemberSource#send} null) asks as a
     * whole when run. Cancelling it before it is read gives the sent request up.
     */
    private static final class SplitTask extends FutureTask<List<BindingSet>> {
        private final MemberSource endpoint;
        private final String text;
        private final long timeoutMillis;
        private final UnaryOperator<List<BindingSet>> then;
        private MemberSource.Sent sent;
        private RuntimeException failed;

        SplitTask(MemberSource endpoint, String text, long timeoutMillis, UnaryOperator<List<BindingSet>> then) {
            this(endpoint, text, timeoutMillis, then, new SplitTask[1]);
        }

        private SplitTask(MemberSource endpoint, String text, long timeoutMillis,
                UnaryOperator<List<BindingSet>> then, SplitTask[] self) {
            super(() -> self[0].answer());
            self[0] = this;
            this.endpoint = endpoint;
            this.text = text;
            this.timeoutMillis = timeoutMillis;
            this.then = then;
        }

        /** Sends the request now; false when the source cannot split (the task then asks as a whole). */
        boolean send() {
            try {
                sent = endpoint.send(text, timeoutMillis);
            } catch (RuntimeException e) {
                failed = e; // reported when the task runs, as a failed select would be
                return true;
            }
            return sent != null;
        }

        private List<BindingSet> answer() {
            if (failed != null) {
                throw failed;
            }
            return then.apply(sent != null ? sent.read() : endpoint.select(text, null, timeoutMillis));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled && sent != null) {
                sent.abort();
            }
            return cancelled;
        }
    }
}
