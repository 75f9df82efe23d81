package dev.basalt.sail.load;

import java.nio.file.Path;

/**
 * A load that stopped: malformed input (then {@link #file()} and, where the parser knows it,
 * {@link #line()} name the place), an unreadable file, or a store error. The store is left at
 * its last commit point, exactly as before the load. The message is one line, starting with
 * {@code file:line:} when they are known.
 *
 * <p>Immutable, so it may be passed between threads (the loader rethrows a parser thread's failure in the
 * calling thread).
 */
public class LoadException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    private final long line;

    public LoadException(Path file, long line, String message, Throwable cause) {
        super(where(file, line) + message, cause);
        this.file = file;
        this.line = line;
    }

    public LoadException(String message, Throwable cause) {
        this((Path) null, -1, message, cause);
    }

    /** Malformed input from a stream, not a file: {@code source} names it (e.g. an upload). */
    public LoadException(String source, long line, String message, Throwable cause) {
        super(where(source, line) + message, cause);
        this.file = null;
        this.line = line;
    }

    private static String where(Object source, long line) {
        if (source == null) {
            return "";
        }
        return line > 0 ? source + ":" + line + ": " : source + ": ";
    }

    /** The input file at fault, or null if the failure was not in one file. */
    public Path file() {
        return file;
    }

    /** The 1-based line of the fault in {@link #file()} (or the stream), or -1 if unknown. */
    public long line() {
        return line;
    }
}
