package dev.basalt.sail.load;

/**
 * Where a {@link QuadPipeline} run takes its statements from, batch by batch: a parser of
 * N-Triples/N-Quads text ({@link StatementReader}) or statements already held as RDF4J values
 * ({@link StatementsLoad}). The run calls {@link #start} once, then {@link #next} until it answers
 * null; the caller closes the source.
 *
 * <p>Thread rules: {@link #start}, {@link #next}, {@link #bytesRead} and {@link #summary} are called
 * by the one loading thread; an implementation may prepare batches on threads of its own.
 */
interface TermBatchSource extends AutoCloseable {
    /** Starts preparing batches (threads, if any). */
    void start();

    /** The next batch, or null after the last one; a batch is valid until the following call. */
    TermBatch next();

    /** Input bytes read so far (0 for a source that reads no text). */
    long bytesRead();

    /** How the batches were made, for the log line ending the parse phase. */
    String summary();

    @Override
    void close();
}
