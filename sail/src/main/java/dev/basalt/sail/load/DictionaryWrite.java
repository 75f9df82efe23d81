package dev.basalt.sail.load;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.io.TaskResults;
import dev.basalt.store.lexicon.LexiconWriter;

/**
 * The bottom-up write of a load's dictionary ({@link LexiconWriter#finishBottomUp}) on a thread of
 * its own, so that the statement indices are built meanwhile: the indices need the quads' ids,
 * which the loading thread already holds, not the dictionary's trees. Both write into the load's
 * one write transaction, each into trees of its own (the journal serialises their allocations).
 *
 * <p>Thread rules: {@link #start} hands the lexicon writer to the new thread; the caller must not
 * use the writer until {@link #await} or {@link #abandon} returned, which also end the thread.
 */
final class DictionaryWrite {
    private static final Logger LOG = LoggerFactory.getLogger(DictionaryWrite.class);

    private final FutureTask<Void> task;

    private DictionaryWrite(LexiconWriter lexicon) {
        this.task = new FutureTask<>(() -> {
            long t0 = System.nanoTime();
            lexicon.finishBottomUp();
            LOG.info("term dictionary written bottom-up in {} ms (beside the index builds)",
                    (System.nanoTime() - t0) / 1_000_000);
            return null;
        });
    }

    /** Starts writing the entries {@code lexicon} kept since {@link LexiconWriter#startBottomUp}. */
    static DictionaryWrite start(LexiconWriter lexicon) {
        DictionaryWrite write = new DictionaryWrite(lexicon);
        Thread t = new Thread(write.task, "basalt-dictionary-write");
        t.setDaemon(true);
        t.start();
        return write;
    }

    /** True if the write has failed already (the caller may stop its own work early). */
    boolean failed() {
        if (!task.isDone()) {
            return false;
        }
        try {
            task.get();
            return false;
        } catch (ExecutionException | InterruptedException | java.util.concurrent.CancellationException e) {
            return true;
        }
    }

    /** Waits for the write to end; throws its failure. */
    void await() {
        // not interruptible: the write cannot be stopped halfway, the transaction must not be rolled back under it
        TaskResults.awaitUninterruptibly(task, "writing the dictionary");
    }

    /**
     * For a caller that failed: waits for the write to end (it frees what it wrote if it fails
     * itself) and adds its failure, if any, to {@code failure}.
     */
    void abandon(Throwable failure) {
        try {
            await();
        } catch (RuntimeException | Error e) {
            if (e != failure) {
                failure.addSuppressed(e);
            }
        }
    }
}
