package dev.basalt.sail.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.RioSetting;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;
import org.eclipse.rdf4j.rio.helpers.BasicParserSettings;

/**
 * Parses the input files one after the other and hands the loading thread batches of statements
 * in input order through a small queue, so parsing overlaps term resolution and sorting.
 *
 * <p>N-Triples and N-Quads files are cut into chunks of whole lines ({@link LineChunks}) by the
 * reading thread and parsed by {@code parserThreads} Rio parsers at once, one chunk each; the
 * batches still come out in file order. Blank node labels are scoped to their file, as one parser
 * of the whole file would scope them, and IRIs are checked by the N-Triples grammar
 * ({@link LoadValues}). Other formats are
 * parsed by one Rio parser on the reading thread. Each file's namespace declarations (the first one
 * of each prefix, as RDF4J's {@code RDFInserter} keeps them) come with its last batch. A parse
 * error ends the stream with a {@link LoadException} naming the file and line (the first error in
 * file order) and what was expected there: a chunk Rio refuses is searched for its malformed line
 * ({@link MalformedChunk}), a file of another format is placed by {@link TextFilePlaces} where Rio
 * names no line. Bytes that are not UTF-8 are refused where Rio parses (Rio's own reader would
 * replace them). {@link #close()} stops the threads early.
 *
 * <p>Instead of files, the reader can take one N-Triples or N-Quads stream ({@link #ofStream}, for
 * {@code RepositoryConnection.add(InputStream, ...)}); it is read in chunks as a file is, and its
 * errors name the stream by the name given.
 *
 * <p>Thread rules: {@link #start}, {@link #next} and {@link #close} are called by one loading
 * thread; the reader owns its reading thread and parser pool.
 */
final class StatementReader implements TermBatchSource {
    private static final Object END = new Object();

    /** One input: a file, or a stream (then {@code file} is null) named {@code name} in errors. */
    private record Input(Path file, String name, InputStream stream, RDFFormat format) {
    }

    private final List<Input> inputs;
    /** Parser errors that only warn (as the caller's {@code ParserConfig} says), for chunk parsers. */
    private Set<RioSetting<?>> nonFatalErrors = Set.of();
    private final LoadOptions options;
    private final ValueFactory vf;
    private final BlockingQueue<Object> queue;
    /** Chunk arrays the parsers are done with, for the reading thread's next chunks (a 4 MiB array is costly to collect). */
    private final BlockingQueue<byte[]> spareChunks;
    private final ExecutorService parsers;
    /** What makes this load's blank nodes its own (see {@link #withBlankNodeScope}); random unless given. */
    private String loadScope = Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong());
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong chunks = new AtomicLong();
    private final AtomicLong chunksForRio = new AtomicLong();
    private final Thread thread;
    private volatile boolean closed;
    private boolean ended;
    /** A chunk's error found while joining batches, thrown by the next call. */
    private LoadException pendingError;
    /** The arrays batches of several chunks are joined into (the loading thread's, see {@link #next}). */
    private final TermBatch.Joined joined = new TermBatch.Joined();

    StatementReader(List<Path> files, LoadOptions options, ValueFactory vf) {
        this(options, vf, files.stream()
                .map(f -> InputFiles.isStandardInput(f)
                        ? new Input(null, "standard input", System.in, InputFiles.format(f, options.format()))
                        : new Input(f, f.toString(), null, InputFiles.format(f, options.format())))
                .toList());
    }

    /**
     * A reader of one N-Triples or N-Quads stream; {@code name} stands for it in error messages.
     * The stream is read by the reader's thread and not closed.
     */
    static StatementReader ofStream(String name, InputStream stream, RDFFormat format, LoadOptions options,
            ValueFactory vf) {
        if (!isLineBased(format)) {
            throw new IllegalArgumentException("only N-Triples and N-Quads streams are read in chunks, not " + format);
        }
        return new StatementReader(options, vf, List.of(new Input(null, name, stream, format)));
    }

    private StatementReader(LoadOptions options, ValueFactory vf, List<Input> inputs) {
        this.inputs = inputs;
        this.options = options;
        this.vf = vf;
        this.queue = new ArrayBlockingQueue<>(options.parserThreads() + 2);
        this.spareChunks = new ArrayBlockingQueue<>(options.parserThreads() + 2);
        AtomicInteger n = new AtomicInteger();
        this.parsers = Executors.newFixedThreadPool(options.parserThreads(), r -> {
            Thread t = new Thread(r, "basalt-load-parser-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.thread = new Thread(this::parseAll, "basalt-load-reader");
        thread.setDaemon(true);
    }

    /** Makes the chunk parsers treat {@code errors} as warnings (a caller's {@code ParserConfig}); before {@link #start}. */
    StatementReader withNonFatalErrors(Set<RioSetting<?>> errors) {
        this.nonFatalErrors = Set.copyOf(errors);
        return this;
    }

    /**
     * Names this load's blank node scope instead of a random one, before {@link #start}: a label
     * {@code _:x} of input {@code i} becomes the node {@code genid-<scope>-<i>-x}, so two loads of the
     * same input with the same scope (the replicas of one replicated upload) make the same nodes.
     */
    StatementReader withBlankNodeScope(String scope) {
        this.loadScope = java.util.Objects.requireNonNull(scope);
        return this;
    }

    @Override
    public void start() {
        thread.start();
    }

    @Override
    public long bytesRead() {
        return bytesRead.get();
    }

    @Override
    public String summary() {
        return chunksForRio.get() + " of " + chunks.get() + " N-Triples/N-Quads chunks by Rio";
    }

    /**
     * The next batch, or null after the last one; throws the parser's {@link LoadException}. A
     * batch joined from several chunks lives in arrays the following call fills again.
     */
    @Override
    public TermBatch next() {
        if (pendingError != null) {
            ended = true;
            LoadException e = pendingError;
            pendingError = null;
            throw e;
        }
        if (ended) {
            return null;
        }
        Object item = PrefetchedQuads.take(queue, "the parser", () -> !thread.isAlive());
        if (item instanceof Future<?> chunk) {
            item = chunkResult(chunk);
        }
        if (item == END) {
            ended = true;
            return null;
        }
        if (item instanceof RuntimeException e) {
            ended = true;
            throw e;
        }
        TermBatch batch = (TermBatch) item;
        if (batch.namespaces().isEmpty() && queue.peek() instanceof Future<?> && batch.size() < options.batchStatements()) {
            return coalesce(batch);
        }
        return batch;
    }

    /**
     * Joins the following chunks' batches to {@code first} while they are queued and the batch has
     * fewer than {@code batchStatements}, so term resolution keeps its batch size with small chunks.
     */
    private TermBatch coalesce(TermBatch first) {
        List<TermBatch> all = new ArrayList<>();
        all.add(first);
        int size = first.size();
        while (size < options.batchStatements() && queue.peek() instanceof Future<?>) {
            Object item = chunkResult((Future<?>) queue.poll());
            if (item instanceof LoadException e) {
                pendingError = e; // delivered after what came before the failed chunk
                break;
            }
            all.add((TermBatch) item);
            size += ((TermBatch) item).size();
        }
        return all.size() == 1 ? first : TermBatch.concat(all, joined);
    }

    /** A parsed chunk's batch, or the {@link LoadException} its parse ended with. */
    private static Object chunkResult(Future<?> chunk) {
        try {
            return chunk.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadException("interrupted while waiting for the parser", e);
        } catch (ExecutionException e) {
            return e.getCause() instanceof LoadException le ? le
                    : new LoadException((Path) null, -1, "parser failed: " + e.getCause(), e.getCause());
        }
    }

    private void parseAll() {
        try {
            for (int i = 0; i < inputs.size(); i++) {
                Input input = inputs.get(i);
                if (isLineBased(input.format())) {
                    parseInChunks(input, new LoadValues("genid-" + loadScope + "-" + i + "-"));
                } else {
                    parse(input.file(), input.format());
                }
            }
            put(END);
        } catch (Stopped stopped) {
            // closed by the loading thread
        } catch (RuntimeException | Error e) {
            try {
                put(e instanceof LoadException ? e : new LoadException((Path) null, -1, "parser failed: " + e, e));
            } catch (Stopped ignored) {
                // closed meanwhile
            }
        }
    }

    static boolean isLineBased(RDFFormat format) {
        return format.equals(RDFFormat.NTRIPLES) || format.equals(RDFFormat.NQUADS);
    }

    /** Reads the input in chunks of lines and queues each chunk's parse, in input order. */
    private void parseInChunks(Input input, LoadValues scoped) {
        try (InputStream in = input.file() != null ? InputFiles.open(input.file(), bytesRead)
                : InputFiles.counting(input.stream(), bytesRead)) {
            LineChunks chunks = new LineChunks(in, options.chunkBytes(), spareChunks);
            for (LineChunks.Chunk c = chunks.next(); c != null; c = chunks.next()) {
                if (closed) {
                    throw new Stopped();
                }
                LineChunks.Chunk chunk = c;
                put(parsers.submit(() -> parseChunk(input, scoped, chunk)));
            }
        } catch (IOException e) {
            throw error(input, -1, "cannot read: " + e, e);
        }
    }

    /** The error of {@code input} at {@code line} (-1 if unknown). */
    private static LoadException error(Input input, long line, String message, Throwable cause) {
        return input.file() != null ? new LoadException(input.file(), line, message, cause)
                : new LoadException(input.name(), line, message, cause);
    }

    /** A parser thread: the statements of one chunk; errors carry the line number in the input. */
    private TermBatch parseChunk(Input input, LoadValues scoped, LineChunks.Chunk chunk) {
        try {
            return parseChunkBytes(input, scoped, chunk);
        } finally {
            LineChunks.recycle(chunk, options.chunkBytes(), spareChunks);
        }
    }

    private TermBatch parseChunkBytes(Input input, LoadValues scoped, LineChunks.Chunk chunk) {
        RDFFormat format = input.format();
        chunks.incrementAndGet();
        // parser checks made non-fatal only widen what Rio accepts, and the byte parser takes a subset
        // of what Rio accepts with every check fatal and gives the same values: a chunk it refuses
        // goes to Rio with the caller's non-fatal errors, so the outcome is Rio's in both cases
        if (options.byteParser()) {
            TermBatch batch = new NTriplesBytes(format.equals(RDFFormat.NQUADS), options.context(), scoped)
                    .parse(chunk.bytes(), chunk.length());
            if (batch != null) {
                return batch;
            }
        }
        chunksForRio.incrementAndGet();
        RDFParser parser = chunkParser(format, scoped);
        TermBatch.Builder statements = new TermBatch.Builder(options.context());
        parser.setRDFHandler(new AbstractRDFHandler() {
            @Override
            public void handleStatement(Statement st) {
                statements.add(st);
            }
        });
        String base = options.baseIri() != null || input.file() == null ? options.baseIri()
                : input.file().toFile().toURI().toString();
        // the input's byte order mark is skipped as Rio skips it in a stream; bytes that are not UTF-8 fail
        int bom = chunk.firstLine() == 1 ? MalformedChunk.bomLength(chunk.bytes(), chunk.length()) : 0;
        try {
            parser.parse(MalformedChunk.strictUtf8(chunk.bytes(), bom, chunk.length() - bom), base);
        } catch (RDFParseException | IOException e) { // an IOException of bytes in memory is a malformed UTF-8 sequence
            throw malformed(input, chunk, scoped, base, e);
        }
        return statements.build(Map.of());
    }

    private RDFParser chunkParser(RDFFormat format, LoadValues scoped) {
        RDFParser parser = Rio.createParser(format, scoped);
        parser.getParserConfig().set(BasicParserSettings.PRESERVE_BNODE_IDS, true);
        parser.getParserConfig().set(BasicParserSettings.VERIFY_URI_SYNTAX, false); // LoadValues checks IRIs
        parser.getParserConfig().setNonFatalErrors(nonFatalErrors);
        return parser;
    }

    /**
     * The error for a chunk Rio refused: the line at fault and what is wrong with it
     * ({@link MalformedChunk}), else Rio's own message and line.
     */
    private LoadException malformed(Input input, LineChunks.Chunk chunk, LoadValues scoped, String base, Exception e) {
        RDFFormat format = input.format();
        String what = "malformed " + format.getName() + ": ";
        MalformedChunk.Fault fault = MalformedChunk.locate(chunk, format.equals(RDFFormat.NQUADS),
                () -> chunkParser(format, scoped), base);
        if (fault != null) {
            String column = fault.column() > 0 ? " at column " + fault.column() : "";
            return error(input, fault.line(), "malformed " + format.getName() + column + ": " + fault.message(), e);
        }
        long line = e instanceof RDFParseException p && p.getLineNumber() > 0
                ? chunk.firstLine() + p.getLineNumber() - 1 : -1;
        String where = line > 0 ? "" : " (in the lines from " + chunk.firstLine() + ")";
        return error(input, line, what + MalformedChunk.withoutLocation(e.getMessage()) + where, e);
    }

    private void parse(Path file, RDFFormat format) {
        RDFParser parser = Rio.createParser(format, vf);
        Handler handler = new Handler();
        parser.setRDFHandler(handler);
        String base = options.baseIri() != null ? options.baseIri() : file.toFile().toURI().toString(); // as RepositoryConnection.add(File) does
        try (InputStream in = InputFiles.open(file, bytesRead)) {
            if (TextFilePlaces.isUtf8Text(format)) {
                parser.parse(TextFilePlaces.strictUtf8(in), base);
            } else {
                parser.parse(in, base);
            }
        } catch (RDFParseException e) {
            throw TextFilePlaces.refused(file, format, e);
        } catch (RDFHandlerException e) {
            if (e.getCause() instanceof Stopped s) {
                throw s;
            }
            throw new LoadException(file, -1, e.getMessage(), e);
        } catch (CharacterCodingException e) {
            throw TextFilePlaces.notUtf8(file, format, e);
        } catch (IOException e) {
            throw new LoadException(file, -1, "cannot read: " + e, e);
        }
        handler.flush(true);
    }

    private void put(Object item) {
        if (!PrefetchedQuads.offer(queue, item, () -> closed)) {
            throw new Stopped();
        }
    }

    /** Stops the parser thread (if still running) and waits for it. */
    @Override
    public void close() {
        closed = true;
        queue.clear();
        parsers.shutdownNow();
        try {
            thread.join(10_000);
            parsers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Unwinds the parser when the loading thread has closed the reader. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super(null, null, false, false);
        }
    }

    private final class Handler extends AbstractRDFHandler {
        private TermBatch.Builder batch = new TermBatch.Builder(options.context());
        private final Map<String, String> namespaces = new LinkedHashMap<>();

        @Override
        public void handleNamespace(String prefix, String uri) {
            if (prefix != null) {
                namespaces.putIfAbsent(prefix, uri);
            }
        }

        @Override
        public void handleStatement(Statement st) {
            if (closed) {
                throw new RDFHandlerException(new Stopped());
            }
            batch.add(st);
            if (batch.size() >= options.batchStatements()) {
                flush(false);
            }
        }

        void flush(boolean endOfFile) {
            if (batch.size() == 0 && (!endOfFile || namespaces.isEmpty())) {
                return;
            }
            put(batch.build(endOfFile ? new LinkedHashMap<>(namespaces) : Map.of()));
            batch = new TermBatch.Builder(options.context());
        }
    }
}
