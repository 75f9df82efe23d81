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
 * than once per transaction. One entry is in flight at a time; a change set that arrives alone goes
 * as a plain change set entry. A group holds change sets up to {@code maxBytes} together (at least
 * one). The transactions of a group succeed or fail together: every member gets the group's log
 * index, or the group's failure. A change set still waiting when the commit timeout has passed
 * since it arrived (the entry ahead of it unacknowledged all that time: no majority) fails unsent,
 * so a commit ends within about twice the commit timeout: its wait in the queue and its entry's own
 * attempts. Grouping changes nothing in what each transaction does: the applier
 * applies the members in order, as entries of their own in that order would be applied, and each
 * change set was computed on its own snapshot (blind writes, docs/replication.md "Isolation").
 *
 * <p>Thread rules: {@link #submit} from any number of threads at once, each waiting for its change
 * set's entry; the entries are sent by this class's own thread; {@link #close} from any thread.
 */
final class GroupCommitter implements AutoCloseable {
    /** Sends one log entry through the leader and answers its index (see {@link ReplicaNode#submit}). */
    interface Sender {
        long send(byte[] entry) throws IOException;
    }

    private record Pending(byte[] changeSet, CompletableFuture<Long> index, long queuedNanos) {
    }

    private final Sender sender;
    private final int maxBytes;
    private final long timeoutNanos;
    private final Thread thread;
    /** Change sets waiting for the next entry. Guarded by {@code this}. */
    private List<Pending> waiting = new ArrayList<>();
    private boolean closed;
    /** Entries sent and change sets sent (for tests and the log). */
    private volatile long entries;
    private volatile long changeSets;
    /** System.nanoTime when the entry in flight was handed to the sender, 0 when none is. */
    private volatile long sendingSince;

    GroupCommitter(String name, Sender sender, int maxBytes, long timeoutMillis) {
        this.sender = sender;
        this.maxBytes = maxBytes;
        this.timeoutNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
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
        synchronized (this) {
            queued = waiting.size();
            oldest = waiting.isEmpty() ? 0 : waiting.get(0).queuedNanos();
        }
        long now = System.nanoTime();
        long since = sendingSince;
        return "groupCommit{entries=" + entries + ", changeSets=" + changeSets + ", waiting=" + queued
                + (queued == 0 ? "" : " (oldest " + (now - oldest) / 1_000_000 + " ms)")
                + ", inFlight=" + (since == 0 ? "none" : (now - since) / 1_000_000 + " ms") + ", thread="
                + thread.getState() + "}";
    }

    /** Log entries sent, and change sets in them. */
    long[] counts() {
        return new long[] {entries, changeSets};
    }

    private void run() {
        while (true) {
            List<Pending> group;
            synchronized (this) {
                while (waiting.isEmpty() && !closed) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        closed = true;
                    }
                }
                if (closed) {
                    fail(waiting, new IOException("the replica is closing"));
                    waiting = new ArrayList<>();
                    return;
                }
                group = take();
            }
            if (!group.isEmpty()) {
                send(group);
            }
        }
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
        sendingSince = System.nanoTime();
        try {
            long index = sender.send(entry);
            entries++;
            changeSets += group.size();
            group.forEach(p -> p.index().complete(index));
        } catch (IOException | RuntimeException e) {
            fail(group, e);
        } finally {
            sendingSince = 0;
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
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
