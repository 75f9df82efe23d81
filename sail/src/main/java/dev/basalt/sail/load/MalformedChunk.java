package dev.basalt.sail.load;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RDFParser;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;

/**
 * Finds the line of a chunk of N-Triples or N-Quads ({@link LineChunks}) that made Rio refuse the
 * chunk, and says what is wrong with it, for an error that names the input's line. Rio's own error
 * cannot always say: its line-based parsers report a line cut short (a missing {@code .}, an
 * unterminated literal or IRI) as "Unexpected end of file" without a line number.
 *
 * <p>Each line in turn is checked by the grammar ({@link NTriplesLineCheck}); a line it faults is
 * then parsed alone by Rio, configured as the chunk's parser was, and is the culprit if Rio refuses
 * it too (Rio decides what is accepted; the check only words the fault). If the check finds no such
 * line, the first line Rio refuses alone is the culprit, with Rio's message. Lines are numbered as
 * {@link LineChunks} numbers them. A leading byte order mark of the input is skipped.
 *
 * <p>Runs only after a chunk failed, never on input that loads. Thread rules: stateless; a call
 * runs on the calling parser thread with parsers of its own.
 */
final class MalformedChunk {
    /** The refused line's number in the input, the column at fault (-1 if unknown), and what is wrong there. */
    record Fault(long line, int column, String message) {
    }

    private static final NTriplesLineCheck.Problem UNCHECKED = new NTriplesLineCheck.Problem(-1, "");

    private MalformedChunk() {
    }

    /**
     * The first line of {@code chunk} Rio refuses, or null if Rio takes every line alone.
     *
     * @param quads   the chunk is N-Quads
     * @param parsers Rio parsers configured as the chunk's was (a handler is set here)
     * @param base    the base IRI the chunk was parsed with
     */
    static Fault locate(LineChunks.Chunk chunk, boolean quads, Supplier<RDFParser> parsers, String base) {
        Fault fault = scan(chunk, quads, parsers, base, true);
        return fault != null ? fault : scan(chunk, quads, parsers, base, false);
    }

    /**
     * With {@code checked}, the first line both the grammar check and Rio refuse, worded by the
     * check; without, the first line Rio refuses, worded by Rio.
     */
    private static Fault scan(LineChunks.Chunk chunk, boolean quads, Supplier<RDFParser> parsers, String base,
            boolean checked) {
        byte[] b = chunk.bytes();
        int length = chunk.length();
        RDFParser parser = null;
        int start = chunk.firstLine() == 1 ? bomLength(b, length) : 0;
        long line = chunk.firstLine();
        while (start < length) {
            int stop = start;
            while (stop < length && b[stop] != '\n' && b[stop] != '\r') {
                stop++;
            }
            NTriplesLineCheck.Problem problem = checked
                    ? NTriplesLineCheck.problem(b, start, stop, quads, stop == length) : UNCHECKED;
            if (problem != null) {
                if (parser == null) {
                    parser = parsers.get();
                    parser.setRDFHandler(new AbstractRDFHandler() {
                    });
                }
                String refusal = refusal(parser, b, start, stop, base);
                if (refusal != null) {
                    return checked ? new Fault(line, problem.column(), problem.text()) : new Fault(line, -1, refusal);
                }
            }
            start = stop < length && b[stop] == '\r' && stop + 1 < length && b[stop + 1] == '\n' ? stop + 2 : stop + 1;
            line++;
        }
        return null;
    }

    /** Why Rio refuses the line {@code b[from, to)} alone, or null if it takes it. */
    private static String refusal(RDFParser parser, byte[] b, int from, int to, String base) {
        try {
            parser.parse(strictUtf8(b, from, to - from), base);
            return null;
        } catch (RDFParseException e) {
            return withoutLocation(e.getMessage());
        } catch (IOException e) {
            return "invalid UTF-8 (" + e + "): the input must be UTF-8";
        } catch (RuntimeException e) {
            return String.valueOf(e.getMessage());
        }
    }

    /** A reader of UTF-8 bytes that fails on a malformed sequence (a plain reader would replace it with U+FFFD). */
    static Reader strictUtf8(byte[] b, int offset, int length) {
        return new InputStreamReader(new ByteArrayInputStream(b, offset, length), StandardCharsets.UTF_8.newDecoder());
    }

    /** 3 if {@code b} starts with a UTF-8 byte order mark, else 0. */
    static int bomLength(byte[] b, int length) {
        return length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF ? 3 : 0;
    }

    /** Rio appends " [line N]" or " [line N, column M]" to its messages; the input:line prefix says it already. */
    static String withoutLocation(String message) {
        if (message == null) {
            return "syntax error";
        }
        int at = message.lastIndexOf(" [line ");
        return at > 0 && message.endsWith("]") ? message.substring(0, at) : message;
    }
}
