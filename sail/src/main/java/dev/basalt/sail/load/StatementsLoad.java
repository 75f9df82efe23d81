package dev.basalt.sail.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.write.BulkWrite;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.quads.QuadOrder;

/**
 * Statements held as RDF4J values added into a Basalt connection's open transaction through the
 * bulk loader's pipeline ({@link QuadPipeline}: batched term resolution, external sort, index build
 * or merge), as {@link dev.basalt.sail.BasaltStoreConnection#addBulk} runs it, with no text in
 * between: every term is interned exactly as {@code addStatement} interns it (blank nodes keep their
 * labels, triple terms, IRIs and literals keep every character), so the store ends in the state
 * adding the statements one by one leaves. Each statement keeps its own graph. Sort runs spill into
 * a temporary directory under {@code tempParent}, removed when the write ends. The statements must
 * not change while the write runs.
 *
 * <p>Thread rules: used once, by the connection's thread; while {@link #write} runs, a thread of its
 * own encodes the terms of the next batch ({@link TermBatch.Builder}) while the connection's thread
 * resolves the current one, and it ends before {@link #write} returns.
 */
public final class StatementsLoad implements BulkWrite {
    private static final Logger LOG = LoggerFactory.getLogger(StatementsLoad.class);

    private final String name;
    private final Collection<? extends Statement> statements;
    private final Path tempParent;

    /** A load of {@code statements}, named {@code name} in the log. */
    public StatementsLoad(String name, Collection<? extends Statement> statements, Path tempParent) {
        this.name = name;
        this.statements = statements;
        this.tempParent = tempParent;
    }

    @Override
    public long write(WriteTransaction tx, LexiconWriter lexicon, List<QuadOrder> orders, Consumer<long[]> added) {
        long start = System.nanoTime();
        LoadOptions options = LoadOptions.defaults();
        Path temp = BasaltLoader.newTempDir(tempParent);
        try (Batches batches = new Batches(statements, options.batchStatements())) {
            QuadPipeline.Outcome run = QuadPipeline.run(tx, lexicon, orders, batches, temp, options,
                    (read, bytes, total, elapsed) -> { }, -1,
                    () -> Duration.ofNanos(System.nanoTime() - start), added);
            LOG.info("bulk add of {}: {} statements, {} new, in {} ms", name, String.format("%,d", run.read()),
                    String.format("%,d", run.added()), (System.nanoTime() - start) / 1_000_000);
            return run.added();
        } finally {
            BasaltLoader.deleteTree(temp);
        }
    }

    /**
     * The statements cut into batches of {@code batchSize} by a thread of its own, two batches
     * ahead of the loading thread at most.
     */
    private static final class Batches implements TermBatchSource {
        private static final Object END = new Object();

        private final Collection<? extends Statement> statements;
        private final int batchSize;
        private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(2);
        private final Thread thread;
        private volatile boolean closed;
        private boolean ended;

        Batches(Collection<? extends Statement> statements, int batchSize) {
            this.statements = statements;
            this.batchSize = batchSize;
            this.thread = new Thread(this::encodeAll, "basalt-statements-load");
            thread.setDaemon(true);
        }

        @Override
        public void start() {
            thread.start();
        }

        private void encodeAll() {
            try {
                TermBatch.Builder b = new TermBatch.Builder(null);
                for (Statement st : statements) {
                    if (closed) {
                        return;
                    }
                    b.add(st);
                    if (b.size() == batchSize) {
                        if (!PrefetchedQuads.offer(queue, b.build(Map.of()), () -> closed)) {
                            return;
                        }
                        b = new TermBatch.Builder(null);
                    }
                }
                if (b.size() > 0 && !PrefetchedQuads.offer(queue, b.build(Map.of()), () -> closed)) {
                    return;
                }
                PrefetchedQuads.offer(queue, END, () -> closed);
            } catch (RuntimeException | Error e) {
                PrefetchedQuads.offer(queue, new LoadException("encoding the terms of a statement failed: " + e, e),
                        () -> closed);
            }
        }

        @Override
        public TermBatch next() {
            if (ended) {
                return null;
            }
            Object item = PrefetchedQuads.take(queue, "a batch of statements", () -> !thread.isAlive());
            if (item == END) {
                ended = true;
                return null;
            }
            if (item instanceof RuntimeException e) {
                ended = true;
                throw e;
            }
            return (TermBatch) item;
        }

        @Override
        public long bytesRead() {
            return 0;
        }

        @Override
        public String summary() {
            return "given as values";
        }

        @Override
        public void close() {
            closed = true;
            queue.clear();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
