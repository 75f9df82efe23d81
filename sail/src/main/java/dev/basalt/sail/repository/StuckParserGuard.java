package dev.basalt.sail.repository;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

import org.eclipse.rdf4j.common.io.GZipUtil;
import org.eclipse.rdf4j.common.io.ZipUtil;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.repository.util.RDFLoader;
import org.eclipse.rdf4j.rio.ParserConfig;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandler;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;

/**
 * Stops an upload whose parser keeps reporting statements without reading its input. RDF4J 5.0.3's
 * Turtle, TriG and N3 parsers loop on a {@code .} inside a collection followed by more data, e.g.
 * {@code <a:s> <a:p> (1 . <a:x> <a:y> <a:z> .}: they report a fresh {@code rdf:first}/{@code rdf:rest}
 * pair per turn and never read on, so a 4 KB upload wrote gigabytes of uncommitted pages to the journal
 * until the disk filled. No RDF syntax yields more than one statement per byte (a collection item takes
 * at least two bytes for its two statements), and every byte a parser parses it has first read through
 * {@link #stream}: so more than {@value #STATEMENTS_PER_BYTE} statements per byte read, plus
 * {@value #SLACK} statements, can only be such a loop (or an XML entity expanded into markup). The add is
 * then stopped by {@link Stuck} thrown from the handler, which rolls its transaction back, and is reported
 * as an {@link RDFParseException}, which RDF4J Server answers with 400. {@link #loader} gives RDF4J's loader
 * with the guard on every way in: a stream, a reader, a file, a URL, and each entry of a gzip or zip
 * stream, where the bytes counted are the decompressed ones the parser reads.
 *
 * <p>Not thread-safe: one guard serves one add, on the thread of the connection that runs it.
 */
final class StuckParserGuard {
    /** Statements allowed per byte read: four times what any RDF syntax can produce. */
    static final int STATEMENTS_PER_BYTE = 4;
    /** Statements allowed beyond the per-byte bound, for small documents. */
    static final int SLACK = 10_000;

    private final RDFFormat format;
    private long bytes;
    private long statements;

    StuckParserGuard(RDFFormat format) {
        this.format = format;
    }

    /** {@code in}, counting the bytes the parser reads from it. */
    InputStream stream(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                return one(super.read());
            }

            @Override
            public int read(byte[] buffer, int off, int len) throws IOException {
                return (int) many(super.read(buffer, off, len));
            }

            @Override
            public long skip(long n) throws IOException {
                return many(super.skip(n));
            }
        };
    }

    /** {@code in}, counting the characters the parser reads from it (a character is at least one byte). */
    Reader reader(Reader in) {
        return new FilterReader(in) {
            @Override
            public int read() throws IOException {
                return one(super.read());
            }

            @Override
            public int read(char[] buffer, int off, int len) throws IOException {
                return (int) many(super.read(buffer, off, len));
            }

            @Override
            public long skip(long n) throws IOException {
                return many(super.skip(n));
            }
        };
    }

    /** Counts a single unit read ({@code read} is -1 at the end), and returns it. */
    private int one(int read) {
        if (read >= 0) {
            bytes++;
        }
        return read;
    }

    /** Counts {@code n} units read or skipped (-1 or 0 at the end), and returns it. */
    private long many(long n) {
        bytes += Math.max(0, n);
        return n;
    }

    /**
     * RDF4J's loader, whose parsers read through this guard's counting {@link #stream} or {@link #reader}.
     * A gzip or zip stream is handed to RDF4J's loader as it is: it decompresses it and loads the
     * decompressed stream (each entry of a zip) through this loader again, so the count is of the bytes
     * the parser reads, not of the compressed ones. Binary RDF is parsed by {@link BinaryRdfUpload}, whose
     * declared lengths cannot make the parser allocate more than the upload holds.
     */
    RDFLoader loader(ParserConfig config, ValueFactory values) {
        return new RDFLoader(config, values) {
            @Override
            public void load(InputStream in, String baseUri, RDFFormat dataFormat, RDFHandler handler)
                    throws IOException, RDFParseException, RDFHandlerException {
                InputStream marked = in.markSupported() ? in : new BufferedInputStream(in, 1024);
                if (ZipUtil.isZipStream(marked) || GZipUtil.isGZipStream(marked)) {
                    super.load(marked, baseUri, dataFormat, handler);
                } else if (RDFFormat.BINARY.equals(dataFormat)) {
                    BinaryRdfUpload.parse(stream(marked), baseUri, config, values, handler);
                } else {
                    super.load(stream(marked), baseUri, dataFormat, handler);
                }
            }

            @Override
            public void load(Reader reader, String baseUri, RDFFormat dataFormat, RDFHandler handler)
                    throws IOException, RDFParseException, RDFHandlerException {
                super.load(reader(reader), baseUri, dataFormat, handler);
            }
        };
    }

    /**
     * Thrown through the parser's handler when the statements outrun the input: RDF4J's inserter passes a
     * handler failure on only as a {@link RepositoryException}; the connection turns it into {@link #parseError()}.
     */
    static final class Stuck extends RepositoryException {
        private static final long serialVersionUID = 1L;
        private final RDFParseException parseError;

        private Stuck(RDFParseException parseError) {
            super(parseError.getMessage());
            this.parseError = parseError;
        }

        /** The parse error to report for the refused upload. */
        RDFParseException parseError() {
            return parseError;
        }
    }

    /** Called for each statement the parser reports; throws {@link Stuck} once they outrun the input read. */
    void statement() {
        statements++;
        if (statements > SLACK && statements > STATEMENTS_PER_BYTE * bytes + SLACK) {
            throw new Stuck(new RDFParseException(String.format("malformed %s upload: the parser reported %,d statements from"
                    + " the first %,d bytes read, more than any document can hold, so it is looping on the input"
                    + " (RDF4J's Turtle, TriG and N3 parsers do so on a '.' inside a collection '( ... )', e.g. a"
                    + " ')' that was lost); check the data after the last complete statement and upload it again",
                    format == null ? "RDF" : format.getName(), statements, bytes)));
        }
    }
}
