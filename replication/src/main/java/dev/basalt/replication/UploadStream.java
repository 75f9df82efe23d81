package dev.basalt.replication;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.replication.log.LogEntries;

/**
 * The committing side of an upload entry (docs/FORMAT.md 6.6) sent while its body is still read: the
 * deflater writes the compressed upload here, after the entry's header, and every time a piece's
 * worth has accumulated it goes to the log as the next {@code PART} of the upload's split
 * transaction (docs/replication.md, "Uploads"), so the parts travel to the followers while the node
 * reads and compresses the rest. At commit, the bytes left and the entry's trailer (the upload's
 * length and the change set after it, known only then) go in the {@code COMMIT} entry; an upload
 * smaller than one piece goes as one whole entry then. A transaction rolled back after parts were
 * sent gets an {@code ABORT} entry (best effort; replicas expire forgotten parts anyway). The
 * compressed bytes are also kept whole: a read later in the transaction loads them into its local
 * view.
 *
 * <p>At most {@value #WINDOW} parts are queued or on their way at a time: a reader faster than the
 * log waits in {@link #write}, so the memory held besides the kept copy stays at a few pieces. A
 * part that fails (no majority within the commit timeout) fails the next write or the commit; the
 * commit then sends an {@code ABORT} before it reports the failure.
 *
 * <p>Thread rules: {@link #write}, {@link #compressed}, {@link #commit} and {@link #abandon} are
 * called by the connection's thread, one call at a time (a connection is used by one thread at a
 * time). Parts are submitted on the stream's own sender thread, one after the other in their order
 * (Raft appends them in that order; a replica refuses a commit whose parts are out of order); the
 * sender records a failure in a volatile field that the connection's thread reads. The window's
 * semaphore is released by the sender.
 */
final class UploadStream extends OutputStream {
    private static final Logger LOG = LoggerFactory.getLogger(UploadStream.class);
    /** Parts queued or on their way at most. */
    static final int WINDOW = 2;

    private final ReplicaNode node;
    private final int pieceBytes;
    private final long transaction = ThreadLocalRandom.current().nextLong();
    private final ByteArrayOutputStream all = new ByteArrayOutputStream(1 << 16);
    /** The entry's bytes not yet in a part: the header first, then compressed bytes. */
    private final ByteArrayOutputStream pending;
    private final Semaphore window = new Semaphore(WINDOW);
    private ExecutorService sender;
    private int parts;
    private boolean ended;
    private volatile IOException failure;

    UploadStream(ReplicaNode node, byte[] header) {
        this.node = node;
        this.pieceBytes = node.settings().pieceBytes();
        this.pending = new ByteArrayOutputStream(Math.min(pieceBytes, 1 << 20) + header.length);
        pending.writeBytes(header);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (ended) {
            throw new IOException("upload stream already committed or abandoned");
        }
        IOException failed = failure;
        if (failed != null) {
            throw new IOException("a part of the upload was not committed: " + failed.getMessage(), failed);
        }
        all.write(b, off, len);
        pending.write(b, off, len);
        if (pending.size() >= pieceBytes) {
            byte[] data = pending.toByteArray();
            int full = data.length / pieceBytes;
            for (int i = 0; i < full; i++) {
                send(LogEntries.part(transaction, parts++, data, i * pieceBytes, pieceBytes));
            }
            pending.reset();
            pending.write(data, full * pieceBytes, data.length - full * pieceBytes);
        }
    }

    /** The compressed upload written so far (all of it once the deflater finished). */
    byte[] compressed() {
        return all.toByteArray();
    }

    /** Parts handed to the sender so far. */
    int partsSent() {
        return parts;
    }

    private void send(byte[] entry) throws IOException {
        try {
            window.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting to send a part of an upload");
        }
        if (sender == null) {
            sender = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "basalt-upload-parts-" + node.settings().nodeId());
                t.setDaemon(true);
                return t;
            });
        }
        sender.execute(() -> {
            try {
                if (failure == null) {
                    node.submit(entry);
                }
            } catch (IOException | RuntimeException e) {
                failure = e instanceof IOException io ? io : new IOException(e.toString(), e);
            } finally {
                window.release();
            }
        });
    }

    /**
     * Commits the upload's transaction: {@code trailer} (docs/FORMAT.md 6.6) ends the entry. Returns
     * the log index once a majority has it and this replica has applied it.
     *
     * @throws IOException as {@link ReplicaNode#commit}; if a part failed, the parts are aborted first
     */
    long commit(byte[] trailer) throws IOException {
        ended = true;
        pending.writeBytes(trailer);
        byte[] rest = pending.toByteArray();
        if (sender == null) {
            return node.commit(rest);
        }
        sender.shutdown();
        try {
            // each part's submission ends within about the commit timeout, however it fails
            long wait = (WINDOW + 1) * (node.settings().commitTimeoutMillis() + ReplicaNode.attemptMillis(node.settings()));
            if (!sender.awaitTermination(wait, TimeUnit.MILLISECONDS)) {
                failure = new IOException("parts not acknowledged within " + wait + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the parts of an upload");
        }
        IOException failed = failure;
        if (failed != null) {
            node.abort(transaction);
            throw new IOException("a part of the upload (" + parts + " sent) was not committed: "
                    + failed.getMessage(), failed);
        }
        return node.commitRest(transaction, parts, rest);
    }

    /**
     * Drops the upload (its transaction rolled back or its connection closed, or its body failed):
     * parts already sent are followed by an {@code ABORT} on the sender thread. Does nothing after
     * {@link #commit} or a first call.
     */
    void abandon() {
        if (ended) {
            return;
        }
        ended = true;
        if (sender == null) {
            return;
        }
        sender.execute(() -> node.abort(transaction));
        sender.shutdown();
        LOG.debug("upload transaction {} abandoned after {} parts", Long.toHexString(transaction), parts);
    }
}
