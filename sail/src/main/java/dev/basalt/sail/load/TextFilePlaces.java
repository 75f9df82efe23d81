package dev.basalt.sail.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;

/**
 * The errors of a text file (Turtle, TriG, ...) that one Rio parser reads, with the places Rio's
 * error does not give, found by reading the file again after the parse failed (never on a load
 * that succeeds): the last line with text on it, where an input that ends inside a statement is
 * cut; and the first byte sequence that is not UTF-8, which the strict reader of UTF-8 formats
 * ({@link #strictUtf8}) refuses where Rio's own reader would replace it. Lines
 * are counted as Rio counts them ({@code \n}, {@code \r} and {@code \r\n} each end one); columns
 * in characters, from 1. Compressed files are read through their decompressor.
 *
 * <p>Stateless and thread-safe.
 */
final class TextFilePlaces {
    /** A place in the file; {@code bytes} spells the malformed sequence (e.g. {@code 0xFF}), if any. */
    record Place(long line, long column, String bytes) {
    }

    private static final int BUFFER = 1 << 16;

    private TextFilePlaces() {
    }

    /** The text formats whose parsers Rio feeds UTF-8 (a byte order mark skipped), and which are read strictly here. */
    static boolean isUtf8Text(RDFFormat format) {
        return format.equals(RDFFormat.TURTLE) || format.equals(RDFFormat.TURTLESTAR) || format.equals(RDFFormat.TRIG)
                || format.equals(RDFFormat.TRIGSTAR) || format.equals(RDFFormat.N3);
    }

    /**
     * {@code in} decoded as UTF-8, failing with a {@link CharacterCodingException} on a malformed
     * sequence (Rio's own reader would replace it with U+FFFD); a leading byte order mark is skipped.
     */
    static Reader strictUtf8(InputStream in) throws IOException {
        InputStream marked = in.markSupported() ? in : new BufferedInputStream(in, BUFFER);
        marked.mark(3);
        byte[] head = marked.readNBytes(3);
        if (MalformedChunk.bomLength(head, head.length) == 0) {
            marked.reset();
        }
        return new InputStreamReader(marked, StandardCharsets.UTF_8.newDecoder());
    }

    /**
     * The error for a file Rio refused: Rio's message at its line or, for an input that ends inside
     * a statement (Rio names no line then), at the last line with text.
     */
    static LoadException refused(Path file, RDFFormat format, RDFParseException e) {
        String message = MalformedChunk.withoutLocation(e.getMessage());
        long line = e.getLineNumber();
        if (line <= 0 && message.startsWith("Unexpected end of file")) {
            line = lastLineWithText(file);
            message += ": the input ends inside a statement (a missing '.', an unterminated literal or IRI, "
                    + "or a file cut short)";
        }
        return new LoadException(file, line, "malformed " + format.getName() + ": " + message, e);
    }

    /** The error for a file of a UTF-8 format holding a byte sequence that is not UTF-8. */
    static LoadException notUtf8(Path file, RDFFormat format, CharacterCodingException e) {
        Place at = firstMalformedUtf8(file);
        if (at == null) {
            return new LoadException(file, -1, "malformed " + format.getName() + ": not UTF-8 (" + e + ")", e);
        }
        return new LoadException(file, at.line(), "malformed " + format.getName() + " at column " + at.column()
                + ": invalid UTF-8 byte sequence " + at.bytes() + ": the input must be UTF-8", e);
    }

    /** The number of the last line holding anything but spaces and tabs, or -1 if the file cannot be read. */
    static long lastLineWithText(Path file) {
        try (InputStream in = InputFiles.open(file, new AtomicLong())) {
            byte[] buf = new byte[BUFFER];
            long line = 1;
            long last = -1;
            boolean cr = false;
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                for (int i = 0; i < n; i++) {
                    byte c = buf[i];
                    if (c == '\n' || c == '\r') {
                        line += c == '\n' && cr ? 0 : 1;
                    } else if (c != ' ' && c != '\t') {
                        last = line;
                    }
                    cr = c == '\r';
                }
            }
            return last;
        } catch (IOException e) {
            return -1;
        }
    }

    /** The first sequence of the file that is not well-formed UTF-8, or null if there is none (or it cannot be read). */
    static Place firstMalformedUtf8(Path file) {
        try (InputStream in = InputFiles.open(file, new AtomicLong())) {
            byte[] buf = new byte[BUFFER];
            int length = 0;
            long line = 1;
            long column = 1;
            boolean cr = false;
            while (true) {
                length += in.readNBytes(buf, length, buf.length - length);
                boolean end = length < buf.length;
                int limit = end ? length : length - 4; // a sequence may continue in the next read
                int i = 0;
                while (i < limit) {
                    int n = Utf8.sequenceLength(buf, i, length);
                    if (n < 0) {
                        return new Place(line, column, String.format("0x%02X", buf[i] & 0xFF));
                    }
                    byte c = buf[i];
                    if (c == '\n' || c == '\r') {
                        line += c == '\n' && cr ? 0 : 1;
                        column = 1;
                    } else {
                        column++;
                    }
                    cr = c == '\r';
                    i += n;
                }
                if (end) {
                    return null;
                }
                System.arraycopy(buf, i, buf, 0, length - i);
                length -= i;
            }
        } catch (IOException e) {
            return null;
        }
    }
}
