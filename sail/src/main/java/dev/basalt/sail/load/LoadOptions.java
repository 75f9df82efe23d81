package dev.basalt.sail.load;

import java.nio.file.Path;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.rio.RDFFormat;

import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Settings of a bulk load. Start from {@link #defaults()} and change with the {@code with}
 * methods.
 *
 * @param context         if not null, every statement goes into this context, whatever graph the
 *                        input names (as RDF4J's {@code RepositoryConnection.add(file, contexts)});
 *                        if null, N-Quads/TriG/JSON-LD graphs are kept and triples go to the
 *                        default graph
 * @param format          the input format of every file, or null to pick it from each file name
 *                        (a {@code .gz} suffix is looked through)
 * @param baseIri         base IRI for relative IRIs, or null for each file's {@code file:} URI
 * @param batchStatements statements parsed per batch whose terms are resolved together
 * @param sortBufferQuads quads held in memory before a sorted run is spilled to a temporary file
 *                        (memory: 64 bytes per quad)
 * @param tempDir         where sorted runs go, or null for a directory inside the store directory
 * @param config          store settings (journal mode and indexes of a new store, caches); the
 *                        statement index orders of an existing store are its own
 * @param progress        listener, or null for {@link LoggingProgress}
 * @param parserThreads   threads parsing chunks of N-Triples and N-Quads files at once
 * @param chunkBytes      bytes of whole lines one parser thread takes at a time
 * @param byteParser      N-Triples and N-Quads chunks are parsed by {@link NTriplesBytes} (Rio
 *                        parses only the chunks it leaves); false parses every chunk with Rio
 * @param dictionaryBytes heap the dictionary's new keys may take while an empty dictionary is built
 *                        bottom-up (past it they go into the tree one by one), or 0 for a third of
 *                        the maximum heap
 */
public record LoadOptions(Resource context, RDFFormat format, String baseIri, int batchStatements, int sortBufferQuads,
                          Path tempDir, BasaltStoreConfig config, LoadProgress progress, int parserThreads,
                          int chunkBytes, boolean byteParser, long dictionaryBytes) {
    public static final int DEFAULT_BATCH = 100_000;
    public static final int DEFAULT_SORT_BUFFER = 1 << 20;
    public static final int DEFAULT_CHUNK_BYTES = 4 << 20;

    public LoadOptions {
        if (batchStatements < 1 || sortBufferQuads < 1 || parserThreads < 1 || chunkBytes < 1) {
            throw new IllegalArgumentException("batch, sort buffer, parser thread and chunk sizes must be positive: "
                    + batchStatements + ", " + sortBufferQuads + ", " + parserThreads + ", " + chunkBytes);
        }
        if (dictionaryBytes < 0) {
            throw new IllegalArgumentException("the dictionary's memory must not be negative: " + dictionaryBytes);
        }
        if (config == null) {
            config = new BasaltStoreConfig();
        }
    }

    public static LoadOptions defaults() {
        return new LoadOptions(null, null, null, DEFAULT_BATCH, DEFAULT_SORT_BUFFER, null, null, null,
                Runtime.getRuntime().availableProcessors(), DEFAULT_CHUNK_BYTES, true, 0);
    }

    public LoadOptions withContext(Resource c) {
        return new LoadOptions(c, format, baseIri, batchStatements, sortBufferQuads, tempDir, config, progress, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withFormat(RDFFormat f) {
        return new LoadOptions(context, f, baseIri, batchStatements, sortBufferQuads, tempDir, config, progress, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withBaseIri(String b) {
        return new LoadOptions(context, format, b, batchStatements, sortBufferQuads, tempDir, config, progress, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withBatchStatements(int n) {
        return new LoadOptions(context, format, baseIri, n, sortBufferQuads, tempDir, config, progress, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withSortBufferQuads(int n) {
        return new LoadOptions(context, format, baseIri, batchStatements, n, tempDir, config, progress, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withTempDir(Path d) {
        return new LoadOptions(context, format, baseIri, batchStatements, sortBufferQuads, d, config, progress, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withConfig(BasaltStoreConfig c) {
        return new LoadOptions(context, format, baseIri, batchStatements, sortBufferQuads, tempDir, c, progress, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withProgress(LoadProgress p) {
        return new LoadOptions(context, format, baseIri, batchStatements, sortBufferQuads, tempDir, config, p, parserThreads, chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withParserThreads(int n) {
        return new LoadOptions(context, format, baseIri, batchStatements, sortBufferQuads, tempDir, config, progress, n,
                chunkBytes, byteParser, dictionaryBytes);
    }

    public LoadOptions withByteParser(boolean b) {
        return new LoadOptions(context, format, baseIri, batchStatements, sortBufferQuads, tempDir, config, progress,
                parserThreads, chunkBytes, b, dictionaryBytes);
    }

    public LoadOptions withChunkBytes(int n) {
        return new LoadOptions(context, format, baseIri, batchStatements, sortBufferQuads, tempDir, config, progress,
                parserThreads, n, byteParser, dictionaryBytes);
    }

    /** The bytes of {@link #dictionaryBytes}, with 0 resolved to a third of the maximum heap. */
    public long dictionaryBudget() {
        return dictionaryBytes > 0 ? dictionaryBytes : Runtime.getRuntime().maxMemory() / 3;
    }

    public LoadOptions withDictionaryBytes(long n) {
        return new LoadOptions(context, format, baseIri, batchStatements, sortBufferQuads, tempDir, config, progress,
                parserThreads, chunkBytes, byteParser, n);
    }
}
