package dev.basalt.sail.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.SailLayout;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.quads.QuadOrder;

/**
 * The part every bulk write shares, inside one open store write transaction that it does not
 * commit: the statements of a {@link TermBatchSource} (parsed text or RDF4J values) have their
 * terms resolved batch by batch
 * ({@link TermResolver}), their quads sorted per statement index order in bounded memory with runs
 * spilled under {@code temp} ({@link QuadSorter}), and then each explicit index is written from the
 * merged runs ({@link IndexBuilder}); each input's namespaces are set where the store has none for
 * the prefix. A dictionary kept in memory to be written bottom-up is written on a thread of its own
 * ({@link DictionaryWrite}) while the indices are built. Runs on the calling thread (the lexicon
 * writer's and the transaction's only user, but for that dictionary thread, which ends before
 * {@link #run} returns) while the reader's threads parse.
 */
final class QuadPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(QuadPipeline.class);

    /** What a run did: statements read, statements new to the store, input bytes, namespaces set. */
    record Outcome(long read, long added, long bytesRead, boolean namespacesChanged) {
    }

    private QuadPipeline() {
    }

    /**
     * Reads everything {@code reader} (not yet started) gives into {@code tx}; the caller closes
     * the reader. Of {@code options}, the sort buffer and the dictionary's memory apply.
     *
     * @throws LoadException for malformed input; the transaction then holds part of the input and
     *                       must be rolled back
     */
    static Outcome run(WriteTransaction tx, LexiconWriter lex, List<QuadOrder> orders, TermBatchSource reader,
            Path temp, LoadOptions options, LoadProgress progress, long totalBytes, Supplier<Duration> elapsed,
            Consumer<long[]> newQuads) {
        try (QuadSorter sorter = new QuadSorter(orders, temp, options.sortBufferQuads())) {
            TermResolver resolver = new TermResolver(lex);
            boolean bottomUp = lex.startBottomUp(temp, options.dictionaryBudget());
            try {
                return runStarted(tx, lex, orders, reader, sorter, resolver, bottomUp, progress, totalBytes, elapsed,
                        newQuads);
            } finally {
                lex.discardBottomUp(); // a failed run's spilled dictionary values; no-op after finishBottomUp
            }
        }
    }

    private static Outcome runStarted(WriteTransaction tx, LexiconWriter lex, List<QuadOrder> orders,
            TermBatchSource reader, QuadSorter sorter, TermResolver resolver, boolean bottomUp, LoadProgress progress,
            long totalBytes, Supplier<Duration> elapsed, Consumer<long[]> newQuads) {
        reader.start();
        long read = 0;
        boolean namespacesChanged = false;
        for (TermBatch b = reader.next(); b != null; b = reader.next()) {
            resolver.resolve(b, sorter);
            read += b.size();
            for (Map.Entry<String, String> ns : b.namespaces().entrySet()) {
                namespacesChanged |= SailLayout.setNamespaceIfAbsent(tx, ns.getKey(), ns.getValue());
            }
            progress.parsing(read, reader.bytesRead(), totalBytes, elapsed.get());
        }
        sorter.finishAdding();
        LOG.info("read {} statements ({}); {} sort runs per index", read, reader.summary(), sorter.runs());
        // the indices need only the quads' ids: they are built while another thread writes the dictionary
        DictionaryWrite dictionary = bottomUp ? DictionaryWrite.start(lex) : null;
        long added;
        try {
            added = writeIndexes(tx, orders, sorter, read, progress, elapsed, newQuads, dictionary);
        } catch (RuntimeException | Error e) {
            if (dictionary != null) {
                dictionary.abandon(e);
            }
            throw e;
        }
        if (dictionary != null) {
            dictionary.await();
        }
        LOG.info("{} bytes of sort runs spilled", sorter.spilledBytes());
        return new Outcome(read, added, reader.bytesRead(), namespacesChanged);
    }

    /** Builds the indices; stops early (to wait for its failure) if {@code dictionary} (or null) has failed. */
    private static long writeIndexes(WriteTransaction tx, List<QuadOrder> orders, QuadSorter sorter, long read,
            LoadProgress progress, Supplier<Duration> elapsed, Consumer<long[]> newQuads, DictionaryWrite dictionary) {
        IndexBuilder builder = new IndexBuilder(tx, orders, sorter.namedGraphs());
        long added = 0;
        for (int i = 0; i < orders.size(); i++) {
            if (dictionary != null && dictionary.failed()) {
                return added;
            }
            if (!builder.writes(i)) {
                continue;
            }
            progress.building(orders.get(i).name(), i + 1, orders.size(), elapsed.get());
            try (SortedQuads quads = sorter.sorted(i)) {
                long n = builder.build(i, quads, read, i == 0 ? newQuads : null);
                if (i == 0) {
                    added = n;
                } else if (n != added) {
                    throw new IllegalStateException("statement index " + orders.get(i).name() + " got " + n
                            + " new quads but the primary index " + orders.get(0).name() + " got " + added
                            + "; the store's indices disagree (run verify)");
                }
            }
        }
        return added;
    }
}
