package dev.basalt.sail.repository;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.rio.ParserConfig;
import org.eclipse.rdf4j.rio.RDFHandler;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.binary.BinaryRDFParser;
import org.eclipse.rdf4j.rio.helpers.ParseErrorLogger;

/**
 * Parses an uploaded binary RDF stream with RDF4J's parser, but never lets a length the stream declares make the
 * parser allocate more than the bytes the stream actually has. RDF4J 5.0.3's {@code BinaryRDFParser} reads a
 * string's length (a 4-byte count of UTF-16 units in version 1, a varint byte count in version 2) and allocates
 * twice that before it reads a byte of the string: a flipped bit in one length made a 1 KB upload allocate
 * gigabytes, and the server answered {@code OutOfMemoryError} with 500 while every other request starved.
 *
 * <p>Here every string of more than {@value #UNCHECKED_BYTES} bytes is first read ahead into memory from the
 * upload ({@link LookAhead}, growing only as bytes arrive); a stream that ends before the declared length is
 * reported as an {@link RDFParseException} naming the declared and the available bytes, which RDF4J Server answers
 * with 400, and a negative length (an overflowed count) likewise. A valid document parses exactly as RDF4J's
 * parser parses it, with the settings and error listener RDF4J's {@code RDFLoader} gives its parsers.
 *
 * <p>Not thread-safe: one parse runs on the thread of the connection that adds.
 */
final class BinaryRdfUpload {
    /** Strings up to this many bytes are read as RDF4J reads them; allocating that much is harmless. */
    static final int UNCHECKED_BYTES = 1 << 16;
    /**
     * The read-ahead the parser itself may already hold from the stream ({@code BufferedInputStream}'s default
     * buffer): the bytes a string needs beyond what {@link LookAhead} holds may be there.
     */
    private static final int PARSER_BUFFER = 8192;

    private BinaryRdfUpload() {
    }

    /** Parses {@code in} into {@code handler} as RDF4J's loader would, with the declared lengths bounded. */
    static void parse(InputStream in, String baseUri, ParserConfig config, ValueFactory values, RDFHandler handler)
            throws IOException, RDFParseException, RDFHandlerException {
        LookAhead stream = new LookAhead(in);
        Parser parser = new Parser(stream);
        parser.setValueFactory(values);
        parser.setParserConfig(config);
        parser.setParseErrorListener(new ParseErrorLogger());
        parser.setRDFHandler(handler);
        parser.parse(stream, baseUri);
    }

    /** RDF4J's binary parser with {@code readBytes}, where it allocates for a declared length, checked first. */
    private static final class Parser extends BinaryRDFParser {
        private final LookAhead stream;

        Parser(LookAhead stream) {
            this.stream = stream;
        }

        @Override
        protected byte[] readBytes(int length) throws IOException {
            if (length < 0) {
                reportFatalError("malformed binary RDF upload: a string declares a negative length (" + length
                        + "), after " + stream.delivered() + " bytes of the upload");
            }
            if (length > UNCHECKED_BYTES) {
                int needed = length - PARSER_BUFFER;
                int held = stream.fill(needed);
                if (held < needed) {
                    reportFatalError(String.format("malformed binary RDF upload: a string declares %,d bytes, but"
                            + " the upload ends %,d bytes later (after %,d bytes in all); a length or the end of the"
                            + " file is damaged", length, held + PARSER_BUFFER, stream.delivered() + held));
                }
            }
            return super.readBytes(length);
        }
    }

    /**
     * A stream that can read ahead of its reader and hold what it read, so that a length can be checked against
     * the bytes that follow it before anyone allocates for it. Its buffer grows only with bytes actually read.
     */
    static final class LookAhead extends FilterInputStream {
        private byte[] held = new byte[0];
        private int start;
        private int end;
        private long delivered;

        LookAhead(InputStream in) {
            super(in);
        }

        /** Bytes handed to the reader so far. */
        long delivered() {
            return delivered;
        }

        /**
         * Reads ahead until {@code wanted} bytes are held or the stream ends; the number held. A stream that ends
         * earlier keeps what it had for the reader.
         */
        int fill(int wanted) throws IOException {
            int have = end - start;
            if (have >= wanted) {
                return have;
            }
            System.arraycopy(held, start, held, 0, have);
            start = 0;
            end = have;
            while (end < wanted) {
                if (end == held.length) {
                    held = Arrays.copyOf(held, (int) Math.min(wanted, Math.max(2L * held.length, 1 << 16)));
                }
                int n = in.read(held, end, held.length - end);
                if (n < 0) {
                    break;
                }
                end += n;
            }
            return end;
        }

        @Override
        public int read() throws IOException {
            if (start < end) {
                delivered++;
                return held[start++] & 0xff;
            }
            int b = in.read();
            if (b >= 0) {
                delivered++;
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int n;
            if (start < end) {
                n = Math.min(len, end - start);
                System.arraycopy(held, start, buffer, off, n);
                start += n;
                if (start == end) {
                    start = 0;
                    end = 0;
                }
            } else {
                n = in.read(buffer, off, len);
            }
            if (n > 0) {
                delivered += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] sink = new byte[(int) Math.min(n, 8192)];
            long skipped = 0;
            while (skipped < n) {
                int r = read(sink, 0, (int) Math.min(sink.length, n - skipped));
                if (r <= 0) {
                    break;
                }
                skipped += r;
            }
            return skipped;
        }

        @Override
        public int available() throws IOException {
            return end - start + in.available();
        }

        @Override
        public boolean markSupported() {
            return false;
        }
    }
}
