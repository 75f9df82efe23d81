package dev.basalt.sail.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RioSetting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.write.BulkWrite;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.quads.QuadOrder;

/**
 * One N-Triples or N-Quads input (a stream or a file) added into a Basalt connection's open
 * transaction through the bulk loader's pipeline ({@link QuadPipeline}: parallel chunk parsing,
 * batched term resolution, external sort, index build or merge), as
 * {@link dev.basalt.sail.BasaltStoreConnection#addBulk} runs it. Statements keep their own graph,
 * or all go to {@code context} when one is given. Sort runs spill into a temporary directory
 * under {@code tempParent}, removed when the write ends. Malformed input fails with a
 * {@link LoadException} naming the input and line; the transaction must then be rolled back,
 * which leaves the store as it was. Used once, by one thread.
 */
public final class TransactionLoad implements BulkWrite {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionLoad.class);

    private final String name;
    private final InputStream stream;
    private final Path file;
    private final LoadOptions options;
    private final Set<RioSetting<?>> nonFatalErrors;
    private final Path tempParent;
    /** The blank node scope of the reader, or null for a random one. */
    private String blankNodeScope;
    private LoadResult result;

    private TransactionLoad(String name, InputStream stream, Path file, LoadOptions options,
            Set<RioSetting<?>> nonFatalErrors, Path tempParent) {
        this.name = name;
        this.stream = stream;
        this.file = file;
        this.options = options;
        this.nonFatalErrors = Set.copyOf(nonFatalErrors);
        this.tempParent = tempParent;
    }

    /** True for the formats this path reads: N-Triples and N-Quads. */
    public static boolean accepts(RDFFormat format) {
        return format != null && StatementReader.isLineBased(format);
    }

    /**
     * A load of {@code stream} (left open), named {@code name} in errors.
     *
     * @param context        the graph of every statement, or null to keep each statement's own
     * @param nonFatalErrors parser checks that only warn (the caller's {@code ParserConfig})
     */
    public static TransactionLoad ofStream(String name, InputStream stream, RDFFormat format, String baseIri,
            Resource context, Set<RioSetting<?>> nonFatalErrors, Path tempParent) {
        return new TransactionLoad(name, stream, null, options(format, baseIri, context), nonFatalErrors, tempParent);
    }

    /** A load of {@code file} (plain, {@code .gz} or {@code .bz2}); parameters as for {@link #ofStream}. */
    public static TransactionLoad ofFile(Path file, RDFFormat format, String baseIri, Resource context,
            Set<RioSetting<?>> nonFatalErrors, Path tempParent) {
        return new TransactionLoad(file.toString(), null, file, options(format, baseIri, context), nonFatalErrors,
                tempParent);
    }

    private static LoadOptions options(RDFFormat format, String baseIri, Resource context) {
        if (!accepts(format)) {
            throw new IllegalArgumentException("a transaction load reads N-Triples or N-Quads, not " + format);
        }
        return LoadOptions.defaults().withFormat(format).withBaseIri(baseIri).withContext(context);
    }

    /**
     * Gives the load a fixed blank node scope instead of a random one: loads of the same input with
     * the same scope make the same blank nodes (see {@code StatementReader#withBlankNodeScope}), so
     * replicas that each load one replicated upload end with identical stores.
     */
    public TransactionLoad withBlankNodeScope(String scope) {
        this.blankNodeScope = java.util.Objects.requireNonNull(scope);
        return this;
    }

    /** What the load did, once {@link #write} returned. */
    public LoadResult result() {
        return result;
    }

    @Override
    public long write(WriteTransaction tx, LexiconWriter lexicon, List<QuadOrder> orders, Consumer<long[]> added) {
        long start = System.nanoTime();
        long termsBefore = lexicon.counts().total();
        long totalBytes = -1;
        try {
            if (file != null) {
                totalBytes = Files.size(file);
            }
        } catch (IOException e) {
            throw new LoadException(file, -1, "cannot read: " + e, e);
        }
        Path temp = BasaltLoader.newTempDir(tempParent);
        try (StatementReader reader = scoped(file != null
                ? new StatementReader(List.of(file), options, SimpleValueFactory.getInstance())
                        .withNonFatalErrors(nonFatalErrors)
                : StatementReader.ofStream(name, stream, options.format(), options, SimpleValueFactory.getInstance())
                        .withNonFatalErrors(nonFatalErrors))) {
            QuadPipeline.Outcome run = QuadPipeline.run(tx, lexicon, orders, reader, temp, options,
                    new LoggingProgress(), totalBytes, () -> Duration.ofNanos(System.nanoTime() - start), added);
            result = new LoadResult(run.read(), run.added(), lexicon.counts().total() - termsBefore, run.bytesRead(),
                    Duration.ofNanos(System.nanoTime() - start), -1);
            LOG.info("bulk add of {}: {} statements read, {} new, {} new terms in {} ms", name,
                    String.format("%,d", run.read()), String.format("%,d", run.added()),
                    String.format("%,d", result.termsAdded()), result.elapsed().toMillis());
            return run.added();
        } finally {
            BasaltLoader.deleteTree(temp);
        }
    }

    private StatementReader scoped(StatementReader reader) {
        return blankNodeScope == null ? reader : reader.withBlankNodeScope(blankNodeScope);
    }

    /** The format a file's name gives (through {@code .gz} or {@code .bz2}), or null if it gives none. */
    public static RDFFormat formatOf(Path file) {
        try {
            return InputFiles.format(file, null);
        } catch (LoadException e) {
            return null;
        }
    }
}
