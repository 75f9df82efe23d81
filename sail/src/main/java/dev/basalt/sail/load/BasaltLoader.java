package dev.basalt.sail.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.SailLayout;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.Store;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.StoreException;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconCounts;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.quads.QuadOrder;

/**
 * Bulk loader: reads RDF files (N-Triples, N-Quads, Turtle, TriG, RDF/XML, JSON-LD and the other
 * formats Rio finds on the classpath, each optionally gzip- or bzip2-compressed; a directory stands
 * for the RDF files under it) into the store in a
 * closed Basalt data directory, much faster than adding through a {@code SailConnection}, with
 * the same result (statements, contexts, namespaces, terms).
 *
 * <p><b>One transaction.</b> The whole load is one store write transaction: until its commit
 * nothing is visible, and a malformed file, an I/O error or a killed process leaves the store at
 * its last commit point, exactly as before. The store directory must not be open elsewhere: the
 * journal's file lock refuses a second opener (another process, or a {@code BasaltStore} of this
 * JVM), so the loader never competes with a running sail's writer. Shut the repository down, load,
 * and open it again.
 *
 * <p><b>Pipeline.</b> A parser thread reads the files with Rio into batches of statements. The
 * loading thread resolves each batch's terms in one sorted pass over the dictionary
 * ({@link LexiconWriter#getOrCreateAll}), turning statements into quads of ids, which an external
 * sorter keeps in bounded memory and spills as sorted runs per statement index order. Then each
 * index is written from the merged, deduplicated runs: built bottom-up when it is empty, merged
 * in key order when it is not (quads already present are skipped).
 */
public final class BasaltLoader {
    private static final Logger LOG = LoggerFactory.getLogger(BasaltLoader.class);
    private static final String TEMP_PREFIX = "load-";
    private static final String TEMP_SUFFIX = ".tmp";

    private BasaltLoader() {
    }

    /**
     * Loads the files in {@code paths} (a directory stands for the RDF files under it, in path
     * order) into the store in {@code dataDir} (created if absent) as one commit.
     *
     * @throws LoadException naming the file and line of malformed input, or the store error; the
     *                       store is then unchanged
     */
    public static LoadResult load(Path dataDir, List<Path> paths, LoadOptions options) {
        List<Path> files = InputFiles.expand(paths, options.format());
        BasaltStoreConfig config = options.config();
        Store store;
        try {
            Files.createDirectories(dataDir);
            store = Store.open(SailLayout.journal(dataDir), config.toStoreConfig());
        } catch (IOException | StoreException e) {
            throw new LoadException("cannot open the store in " + dataDir + ": " + e.getMessage(), e);
        }
        try (store) {
            deleteStaleTempDirs(dataDir);
            return new Run(store, new Lexicon(config.toLexiconConfig()), dataDir, files, options).load();
        }
    }

    /** Temporary directories of loads that were killed; safe to remove because we hold the journal lock. */
    private static void deleteStaleTempDirs(Path dataDir) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dataDir, TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
            for (Path p : ds) {
                LOG.info("removing the temporary directory {} of an earlier load that did not finish", p);
                deleteTree(p);
            }
        } catch (IOException e) {
            LOG.warn("cannot list {} for stale load directories: {}", dataDir, e.getMessage());
        }
    }

    /** A new temporary directory for sort runs under {@code parent}, named so a later load removes it if left behind. */
    static Path newTempDir(Path parent) {
        try {
            Files.createDirectories(parent);
            return Files.createDirectories(parent.resolve(TEMP_PREFIX + java.util.UUID.randomUUID() + TEMP_SUFFIX));
        } catch (IOException e) {
            throw new LoadException("cannot create a temporary directory for sort runs under " + parent + ": "
                    + e.getMessage(), e);
        }
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("cannot delete the temporary directory {}: {}", dir, e.getMessage());
        }
    }

    /** One load, on an open store. */
    private static final class Run {
        private final Store store;
        private final Lexicon lexicon;
        private final Path dataDir;
        private final List<Path> files;
        private final LoadOptions options;
        private final LoadProgress progress;
        private final long totalBytes;
        private final long start = System.nanoTime();

        Run(Store store, Lexicon lexicon, Path dataDir, List<Path> files, LoadOptions options) {
            this.store = store;
            this.lexicon = lexicon;
            this.dataDir = dataDir;
            this.files = files;
            this.options = options;
            this.progress = new PhaseTimes(options.progress() != null ? options.progress() : new LoggingProgress());
            long total = 0;
            for (Path f : files) {
                if (InputFiles.isStandardInput(f)) {
                    continue; // its size is unknown: progress counts the bytes read
                }
                try {
                    total += Files.size(f);
                } catch (IOException e) {
                    throw new LoadException(f, -1, "cannot read: " + e, e);
                }
            }
            // with standard input the size is unknown: no fraction of it is shown
            this.totalBytes = files.stream().anyMatch(InputFiles::isStandardInput) ? 0 : total;
        }

        private Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - start);
        }

        LoadResult load() {
            Path temp = tempDir();
            try (WriteTransaction tx = store.begin()) {
                List<QuadOrder> orders = orders(tx);
                LexiconWriter lex = lexicon.writer(tx);
                long termsBefore = total(lex.counts());
                QuadPipeline.Outcome run;
                try (StatementReader reader = new StatementReader(files, options, SimpleValueFactory.getInstance())) {
                    run = QuadPipeline.run(tx, lex, orders, reader, temp, options, progress,
                            totalBytes, this::elapsed, null);
                }
                boolean closed = LoadClosure.close(tx, orders, lex, options.config(), run.added() > 0, dataDir, temp);
                long terms = total(lex.counts()) - termsBefore;
                long commit = -1;
                if (run.added() > 0 || terms > 0 || run.namespacesChanged() || closed) {
                    progress.committing(elapsed());
                    lex.beforeCommit();
                    CommitPoint p = tx.commit();
                    lex.afterCommit();
                    commit = p.counter();
                }
                LoadResult result = new LoadResult(run.read(), run.added(), terms, run.bytesRead(), elapsed(), commit);
                progress.finished(result);
                return result;
            } catch (LoadException e) {
                throw e;
            } catch (StoreException | UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
                throw new LoadException("load into " + dataDir + " failed, the store is unchanged: " + e.getMessage(), e);
            } finally {
                deleteTree(temp);
            }
        }

        /** The store's statement index orders; a new store records the configured ones in this transaction. */
        private List<QuadOrder> orders(WriteTransaction tx) {
            List<QuadOrder> stored = SailLayout.indexOrders(tx.property(SailLayout.INDEXES_PROPERTY));
            String requested = options.config().getStatementIndexes();
            if (stored == null) {
                List<QuadOrder> orders = BasaltStoreConfig.parseIndexes(
                        requested != null ? requested : BasaltStoreConfig.DEFAULT_INDEXES);
                SailLayout.recordIndexes(tx, orders);
                return orders;
            }
            if (requested != null && !BasaltStoreConfig.parseIndexes(requested).equals(stored)) {
                throw new LoadException("the store in " + dataDir + " has statement indexes " + stored
                        + " but the load asks for '" + requested + "'; index orders are fixed when a store is created", null);
            }
            return stored;
        }

        private Path tempDir() {
            return newTempDir(options.tempDir() != null ? options.tempDir() : dataDir);
        }

        private static long total(LexiconCounts c) {
            return c.total();
        }
    }
}
