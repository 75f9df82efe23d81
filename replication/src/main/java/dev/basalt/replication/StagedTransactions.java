package dev.basalt.replication;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.replication.log.LogEntries;

/**
 * The pieces of split transactions (docs/replication.md, "Large transactions") a replica has seen in
 * the log but not yet applied, kept in memory in log order. A {@code PART} is staged; the
 * {@code COMMIT} that follows the transaction's parts yields the whole change set, applied at the
 * commit's place in the log; an {@code ABORT} drops the parts. A commit whose parts are not all
 * staged, in order (a part lost to an expiry, or a transaction whose parts began before this replica's
 * state), is refused: the transaction is not applied anywhere, and its committer is told.
 *
 * <p>A part or commit entry can be in the log twice: a client that got no answer (the leader changed)
 * sends it again, and the new leader may not know the first copy. A repeated part is ignored; a
 * repeated commit of a transaction applied already (one of the last {@value #REMEMBERED}) is
 * acknowledged again and applies nothing.
 *
 * <p>A transaction whose last part lies more than {@code expireEntries} log entries behind is dropped
 * (its committer died between parts). Every decision depends on the log alone, so every replica makes
 * the same ones.
 *
 * <p>Not thread-safe: used by the {@link BatchApplier}'s thread only (and under its lock).
 */
final class StagedTransactions {
    private static final Logger LOG = LoggerFactory.getLogger(StagedTransactions.class);

    /**
     * Result of a commit: the change set to apply; or null and why not; or, for a commit entry
     * repeated by a client's retry after its first copy was applied, null and no refusal (nothing to do).
     */
    record Outcome(byte[] changeSet, String refusal) {
        static final Outcome REPEATED = new Outcome(null, null);
    }

    private static final class Staged {
        final long firstIndex;
        long lastIndex;
        int next;
        long bytes;
        final List<byte[]> payloads = new ArrayList<>();

        Staged(long firstIndex) {
            this.firstIndex = firstIndex;
            this.lastIndex = firstIndex;
        }
    }

    /** How many committed transaction ids are remembered to recognize a repeated piece. */
    static final int REMEMBERED = 4096;

    private final long expireEntries;
    private final Map<Long, Staged> open = new LinkedHashMap<>();
    /** Recently committed transactions (id to the commit's log index), oldest first, at most {@link #REMEMBERED}. */
    private final LinkedHashMap<Long, Long> committed = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > REMEMBERED;
        }
    };

    StagedTransactions(long expireEntries) {
        this.expireEntries = expireEntries;
    }

    /**
     * Takes the piece at log {@code index}: null for a part or an abort, the outcome for a commit.
     * Expires transactions left behind first.
     */
    Outcome accept(long index, LogEntries.Piece piece) {
        expire(index);
        switch (piece.kind()) {
            case LogEntries.PART -> {
                if (committed.containsKey(piece.transaction())) {
                    return null; // a retried part of a transaction applied already
                }
                Staged staged = open.get(piece.transaction());
                if (staged != null && piece.number() < staged.next) {
                    return null; // a retried part, committed twice: the same bytes again
                }
                if (staged == null) {
                    if (piece.number() != 0) {
                        return null; // its first parts are not here: the commit will be refused
                    }
                    staged = new Staged(index);
                    open.put(piece.transaction(), staged);
                }
                if (piece.number() != staged.next) {
                    LOG.warn("transaction {}: part {} at log index {} where part {} was due; dropped",
                            Long.toHexString(piece.transaction()), piece.number(), index, staged.next);
                    open.remove(piece.transaction());
                    return null;
                }
                staged.payloads.add(piece.payload());
                staged.bytes += piece.payload().length;
                staged.next++;
                staged.lastIndex = index;
                return null;
            }
            case LogEntries.ABORT -> {
                open.remove(piece.transaction());
                return null;
            }
            default -> {
                if (committed.containsKey(piece.transaction())) {
                    return Outcome.REPEATED;
                }
                Staged staged = open.remove(piece.transaction());
                int have = staged == null ? 0 : staged.next;
                if (have != piece.number()) {
                    return new Outcome(null, "transaction " + Long.toHexString(piece.transaction())
                            + " committed at log index " + index + " with " + piece.number()
                            + " parts, of which this replica holds " + have + " (expired or never seen)");
                }
                ByteArrayOutputStream whole = new ByteArrayOutputStream(
                        (int) Math.min(Integer.MAX_VALUE - 16, (staged == null ? 0 : staged.bytes) + piece.payload().length));
                if (staged != null) {
                    for (byte[] p : staged.payloads) {
                        whole.writeBytes(p);
                    }
                }
                whole.writeBytes(piece.payload());
                committed.put(piece.transaction(), index);
                return new Outcome(whole.toByteArray(), null);
            }
        }
    }

    /** Drops transactions whose last part is more than {@code expireEntries} entries before {@code index}. */
    void expire(long index) {
        for (Iterator<Map.Entry<Long, Staged>> it = open.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, Staged> e = it.next();
            if (index - e.getValue().lastIndex > expireEntries) {
                LOG.warn("transaction {}: no part since log index {}, {} entries ago; its {} staged parts are dropped",
                        Long.toHexString(e.getKey()), e.getValue().lastIndex, index - e.getValue().lastIndex,
                        e.getValue().next);
                it.remove();
            }
        }
    }

    /** The log index of the oldest staged part, or {@code Long.MAX_VALUE} when none is staged. */
    long oldestIndex() {
        long oldest = Long.MAX_VALUE;
        for (Staged s : open.values()) {
            oldest = Math.min(oldest, s.firstIndex);
        }
        return oldest;
    }

    boolean isEmpty() {
        return open.isEmpty();
    }

    /** Transactions staged now. */
    int size() {
        return open.size();
    }

    /** Drops everything (the store was replaced by a snapshot, which holds no staged part). */
    void clear() {
        open.clear();
        committed.clear();
    }
}
