package dev.basalt.replication;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import dev.basalt.replication.log.LogEntries;

/**
 * Group commit: the change sets that concurrent transactions of one node commit while the node's
 * previous log entry is on its way go to the log together, as one {@link LogEntries#GROUP} entry
 * (docs/FORMAT.md 6.4), so Raft's per-entry costs (the request to the leader, the log append and its
 * sync, the AppendEntries to each follower, the apply's bookkeeping) are paid once per group rather
 * than once per transaction. One entry is in flight at a time, as long as it is moving: once the
 * entries in flight have all been on their way longer than {@code stallMillis} (one attempt of the
 * Raft client: such an entry is retrying, at a dead or frozen leader say), the change sets waiting
 * go in another entry beside them, up to {@link #MAX_IN_FLIGHT} entries, so that one stuck request
 * never holds every commit of the node behind it once the client knows the new leader. Change sets
 * of different transactions need no order between them (each transaction waits for its own entry).
 * A change set that arrives alone goes as a plain change set entry. A group holds change sets up to {@code maxBytes} together (at least
 * one). The transactions of a group succeed or fail together: every member gets the group's log
 * index, or the group's failure. A change set still waiting when the commit timeout has passed
 * since it arrived (the entry ahead of it unacknowledged all that time: no majority) fails unsent,
 * so a commit ends within about twice the commit timeout: its wait in the queue and its entry's own
 * attempts. Grouping changes nothing in what each transaction does: the applier
 * applies the members in order, as entries of their own in that order would be applied, and each
 * change set was computed on its own snapshot (blind writes, docs/replication.md "Isolation").
 *
 * <p>Thread rules: {@link #submit} from any number of threads at once, each waiting for its change
 * set's entry; the entries are sent by this class's own threads (one per entry in flight, at most
 * {@link #MAX_IN_FLIGHT}), which take their groups under this object's lock; {@link #close} from any
 * thread.
 */
final class GroupCommitter implements AutoCloseable {
    /** Sends one log entry through the leader and answers its index (see {@link ReplicaNode#submit}). */
    interface Sender {
        long send(byte[] entry) throws IOException;
    }

    private record Pending(byte[] changeSet, CompletableFuture<Long> index, long queuedNanos) {
    }

    /** Most entries in flight at once (one, unless those in flight are stalled). */
    static final int MAX_IN_FLIGHT = 4;
    /** How often a sender thread looks again whether the entries in flight have stalled. */
    private static final long RECHECK_MILLIS = 50;

    private final Sender sender;
    private final int maxBytes;
    private final long timeoutNanos;
    private final long stallNanos;
    private final List<Thread> threads = new ArrayList<>();
    /** Change sets waiting for the next entry. Guarded by {@code this}. */
    private List<Pending> waiting = new ArrayList<>();
    /** When each entry in flight was handed to the sender (System.nanoTime, one array each). Guarded by {@code this}. */
    private final List<long[]> inFlight = new ArrayList<>();
    private boolean closed;
    /** Entries sent and change sets sent (for tests and the log). */
    private final java.util.concurrent.atomic.AtomicLong entries = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong changeSets = new java.util.concurrent.atomic.AtomicLong();

    /** A group commit that never sends a second entry beside a stalled one. */
    GroupCommitter(String name, Sender sender, int maxBytes, long timeoutMillis) {
        this(name, sender, maxBytes, timeoutMillis, Long.MAX_VALUE / 2_000_000);
    }

    GroupCommitter(String name, Sender sender, int maxBytes, long timeoutMillis, long stallMillis) {
        this.sender = sender;
        this.maxBytes = maxBytes;
        this.timeoutNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.stallNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(stallMillis);
        for (int i = 0; i < MAX_IN_FLIGHT; i++) {
            Thread t = new Thread(this::run, i == 0 ? name : name + "-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    /**
     * Commits {@code changeSet} (one encoded change set, at most {@code maxBytes}) with whatever else
     * is waiting, and returns the index of the log entry that holds it, once committed by a majority.
     */
    long submit(byte[] changeSet) throws IOException {
        Pending p = new Pending(changeSet, new CompletableFuture<>(), System.nanoTime());
        synchronized (this) {
            if (closed) {
                throw new IOException("the replica is closing");
            }
            waiting.add(p);
            notifyAll();
        }
        try {
            return p.index().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the commit (its outcome is unknown)");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? new IOException(io.getMessage(), io)
                    : new IOException("commit failed: " + cause, cause);
        }
    }

    /** One line for a diagnosis: what waits, and for how long the entry in flight has been on its way. */
    String describe() {
        int queued;
        long oldest;
        StringBuilder flying = new StringBuilder();
        long now = System.nanoTime();
        synchronized (this) {
            queued = waiting.size();
            oldest = waiting.isEmpty() ? 0 : waiting.get(0).queuedNanos();
            for (long[] since : inFlight) {
                flying.append(flying.length() == 0 ? "" : " ").append((now - since[0]) / 1_000_000).append(" ms");
            }
        }
        return "groupCommit{entries=" + entries + ", changeSets=" + changeSets + ", waiting=" + queued
                + (queued == 0 ? "" : " (oldest " + (now - oldest) / 1_000_000 + " ms)")
                + ", inFlight=" + (flying.length() == 0 ? "none" : flying) + "}";
    }

    /** Log entries sent, and change sets in them. */
    long[] counts() {
        return new long[] {entries.get(), changeSets.get()};
    }

    private void run() {
        while (true) {
            List<Pending> group;
            long[] since = new long[1];
            synchronized (this) {
                while (!closed && !mayStart()) {
                    try {
                        if (waiting.isEmpty()) {
                            wait();
                        } else {
                            wait(RECHECK_MILLIS);
                        }
                    } catch (InterruptedException e) {
                        closed = true;
                    }
                }
                if (closed) {
                    fail(waiting, new IOException("the replica is closing"));
                    waiting = new ArrayList<>();
                    notifyAll();
                    return;
                }
                group = take();
                if (group.isEmpty()) {
                    continue;
                }
                since[0] = System.nanoTime();
                inFlight.add(since);
            }
            try {
                send(group);
            } finally {
                synchronized (this) {
                    inFlight.remove(since);
                    notifyAll();
                }
            }
        }
    }

    /**
     * True if a change set waits and may go now: no entry is in flight, or fewer than
     * {@link #MAX_IN_FLIGHT} are and each has been on its way longer than the stall time. Caller
     * holds {@code this}.
     */
    private boolean mayStart() {
        if (waiting.isEmpty()) {
            return false;
        }
        if (inFlight.isEmpty()) {
            return true;
        }
        if (inFlight.size() >= MAX_IN_FLIGHT) {
            return false;
        }
        long now = System.nanoTime();
        for (long[] since : inFlight) {
            if (now - since[0] < stallNanos) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes the waiting change sets that fit one entry, in arrival order, after failing those that
     * waited longer than the commit timeout behind an earlier entry: they were never sent, so their
     * transactions are not committed. Caller holds {@code this}.
     */
    private List<Pending> take() {
        long now = System.nanoTime();
        while (!waiting.isEmpty() && now - waiting.get(0).queuedNanos() >= timeoutNanos) {
            waiting.remove(0).index().completeExceptionally(new IOException("commit not sent: an earlier log entry"
                    + " of this node was still unacknowledged after the commit timeout; the transaction is not"
                    + " committed"));
        }
        if (waiting.isEmpty()) {
            return List.of();
        }
        int bytes = 0;
        int n = 0;
        while (n < waiting.size() && (n == 0 || bytes + waiting.get(n).changeSet().length + 5 <= maxBytes)) {
            bytes += waiting.get(n).changeSet().length + 5;
            n++;
        }
        List<Pending> group = new ArrayList<>(waiting.subList(0, n));
        waiting.subList(0, n).clear();
        return group;
    }

    private void send(List<Pending> group) {
        byte[] entry;
        if (group.size() == 1) {
            entry = group.get(0).changeSet();
        } else {
            List<byte[]> members = new ArrayList<>(group.size());
            group.forEach(p -> members.add(p.changeSet()));
            entry = LogEntries.group(members);
        }
        try {
            long index = sender.send(entry);
            entries.incrementAndGet();
            changeSets.addAndGet(group.size());
            group.forEach(p -> p.index().complete(index));
        } catch (IOException | RuntimeException e) {
            fail(group, e);
        }
    }

    private static void fail(List<Pending> group, Throwable cause) {
        group.forEach(p -> p.index().completeExceptionally(cause));
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            for (Thread t : threads) {
                t.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
