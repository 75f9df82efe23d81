package dev.basalt.sail.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;

/**
 * Parses the input files one after the other with Rio on its own thread and hands the loading
 * thread batches of statements through a small queue, so parsing overlaps term resolution and
 * sorting. Each file's namespace declarations (the first one of each prefix, as RDF4J's
 * {@code RDFInserter} keeps them) come with its last batch. A parse error ends the stream with a
 * {@link LoadException} naming the file and line; {@link #close()} stops the parser early.
 */
final class StatementReader implements AutoCloseable {
    /** Statements in input order, and the namespaces of a file that ended with this batch. */
    record Batch(List<Statement> statements, Map<String, String> namespaces) {
    }

    private static final Object END = new Object();

    private final List<Path> files;
    private final LoadOptions options;
    private final ValueFactory vf;
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(2);
    private final AtomicLong bytesRead = new AtomicLong();
    private final Thread thread;
    private volatile boolean closed;
    private boolean ended;

    StatementReader(List<Path> files, LoadOptions options, ValueFactory vf) {
        this.files = List.copyOf(files);
        this.options = options;
        this.vf = vf;
        this.thread = new Thread(this::parseAll, "basalt-load-parser");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    long bytesRead() {
        return bytesRead.get();
    }

    /** The next batch, or null after the last one; throws the parser's {@link LoadException}. */
    Batch next() {
        if (ended) {
            return null;
        }
        Object item;
        try {
            item = queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadException("interrupted while waiting for the parser", e);
        }
        if (item == END) {
            ended = true;
            return null;
        }
        if (item instanceof RuntimeException e) {
            ended = true;
            throw e;
        }
        return (Batch) item;
    }

    private void parseAll() {
        try {
            for (Path file : files) {
                parse(file);
            }
            put(END);
        } catch (Stopped stopped) {
            // closed by the loading thread
        } catch (RuntimeException | Error e) {
            try {
                put(e instanceof LoadException ? e : new LoadException(null, -1, "parser failed: " + e, e));
            } catch (Stopped ignored) {
                // closed meanwhile
            }
        }
    }

    private void parse(Path file) {
        RDFFormat format = InputFiles.format(file, options.format());
        RDFParser parser = Rio.createParser(format, vf);
        Handler handler = new Handler();
        parser.setRDFHandler(handler);
        String base = options.baseIri() != null ? options.baseIri() : file.toFile().toURI().toString(); // as RepositoryConnection.add(File) does
        try (InputStream in = InputFiles.open(file, bytesRead)) {
            parser.parse(in, base);
        } catch (RDFParseException e) {
            throw new LoadException(file, e.getLineNumber(), "malformed " + format.getName() + ": "
                    + stripLocation(e.getMessage()), e);
        } catch (RDFHandlerException e) {
            if (e.getCause() instanceof Stopped s) {
                throw s;
            }
            throw new LoadException(file, -1, e.getMessage(), e);
        } catch (IOException e) {
            throw new LoadException(file, -1, "cannot read: " + e, e);
        }
        handler.flush(true);
    }

    /** Rio appends " [line N]" or " [line N, column M]" to its messages; the file:line prefix says it already. */
    private static String stripLocation(String message) {
        if (message == null) {
            return "syntax error";
        }
        int at = message.lastIndexOf(" [line ");
        return at > 0 && message.endsWith("]") ? message.substring(0, at) : message;
    }

    private void put(Object item) {
        try {
            while (!closed) {
                if (queue.offer(item, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new Stopped();
    }

    /** Stops the parser thread (if still running) and waits for it. */
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

    /** Unwinds the parser when the loading thread has closed the reader. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super(null, null, false, false);
        }
    }

    private final class Handler extends AbstractRDFHandler {
        private List<Statement> batch = new ArrayList<>();
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
            if (batch.isEmpty() && (!endOfFile || namespaces.isEmpty())) {
                return;
            }
            put(new Batch(batch, endOfFile ? new LinkedHashMap<>(namespaces) : Map.of()));
            batch = new ArrayList<>();
        }
    }
}
