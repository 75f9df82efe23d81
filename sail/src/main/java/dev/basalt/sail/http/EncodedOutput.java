package dev.basalt.sail.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import javax.servlet.http.HttpServletResponse;

/**
 * A response body in UTF-8 written from strings into one byte buffer: a value's UTF-8 bytes (the JDK's encoding, an
 * unpaired surrogate as {@code ?}) are copied into the buffer with the characters special to the format at hand
 * escaped ({@link Escape}), and the buffer goes to the stream when full, so a value costs one byte array and no
 * intermediate strings, {@code Writer}s or encoder objects. The base of the fast path's own writers, of SELECT results ({@link RowWriter}) and
 * of statements ({@link RdfXmlStatementWriter}), which thus share one compiled encoding loop. One instance writes one
 * response on one thread; not thread-safe.
 */
abstract class EncodedOutput {
    /** How a format escapes the characters of a term. */
    enum Escape {
        /** as written, for text that needs no escaping */
        NONE,
        /** XML character data: {@code & < >} and carriage return as references, other characters as they are */
        XML_TEXT,
        /** an XML attribute in single quotes: as text, plus {@code '}, tab and line feed as references ({@code "} as it is) */
        XML_ATTRIBUTE,
        /** a JSON string's contents */
        JSON
    }

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** Room {@link #encode} keeps free before each escaped character: the longest escape, and more. */
    private static final int ENCODE_RESERVE = 12;
    /** Bytes one character may take at most: {@code &apos;} and JSON's {@code \\u00XX}. */
    private static final int MAX_BYTES_PER_CHAR = 6;
    private static final int BUFFER_BYTES = 16 * 1024;
    static final int MEMO_MIN_CHARS = 64;
    static final int MEMO_MAX_CHARS = (BUFFER_BYTES - ENCODE_RESERVE) / MAX_BYTES_PER_CHAR;
    private static final int MEMO_SLOTS = 32;

    private final OutputStream out;
    private final byte[] buffer;
    private int size;
    private final String[] memoText = new String[MEMO_SLOTS];
    private final Escape[] memoEscape = new Escape[MEMO_SLOTS];
    private final byte[][] memoBytes = new byte[MEMO_SLOTS][];

    /** Writes bytes that are already encoded (the formats' fixed markup). */
    void write(byte[] bytes) throws IOException {
        if (bytes.length > buffer.length - size) {
            drain();
            if (bytes.length > buffer.length) {
                out.write(bytes);
                drains++;
                return;
            }
        }
        System.arraycopy(bytes, 0, buffer, size, bytes.length);
        size += bytes.length;
    }

    /** Writes {@code length} bytes of {@code bytes} from {@code offset}, already encoded. */
    void write(byte[] bytes, int offset, int length) throws IOException {
        if (length > buffer.length - size) {
            drain();
            if (length > buffer.length) {
                out.write(bytes, offset, length);
                drains++;
                return;
            }
        }
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
    }

    void write(char ascii) throws IOException {
        if (size == buffer.length) {
            drain();
        }
        buffer[size++] = (byte) ascii;
    }

    /**
     * Writes {@code text} in UTF-8 with the given escaping. A text of {@value #MEMO_MIN_CHARS} to
     * {@value #MEMO_MAX_CHARS} characters is kept encoded in a small table of the response (by its hash), so a
     * value a result repeats (BSBM query 2 repeats a product's comment of about a kilobyte on each of its rows)
     * is escaped and encoded once and then copied.
     */
    void write(String text, Escape escape) throws IOException {
        int length = text.length();
        if (length < MEMO_MIN_CHARS || length > MEMO_MAX_CHARS) {
            encode(text, escape);
            return;
        }
        int slot = text.hashCode() & (MEMO_SLOTS - 1);
        String seen = memoText[slot];
        if (seen != null && memoEscape[slot] == escape && seen.equals(text)) {
            write(memoBytes[slot]);
            return;
        }
        if (buffer.length - size < MAX_BYTES_PER_CHAR * length + ENCODE_RESERVE) {
            drain();
        }
        int start = size;
        encode(text, escape); // does not drain: the buffer has room for the longest encoding
        memoText[slot] = text;
        memoEscape[slot] = escape;
        memoBytes[slot] = Arrays.copyOfRange(buffer, start, size);
    }

    /**
     * Writes {@code text} as {@link #write(String, Escape)} does, without looking it up in or adding it to the
     * response's table of long values: for a value the response seldom repeats, such as a description's subject (the
     * statements of one subject share one description), whose hash and copy the table would cost for nothing.
     */
    void writeOnce(String text, Escape escape) throws IOException {
        encode(text, escape);
    }

    /**
     * Writes {@code text} as UTF-8 with {@code escape}: the JDK encodes it ({@link String#getBytes}, an intrinsic copy
     * for text of ASCII characters only, which IRIs mostly are), the bytes are scanned for ASCII characters the format
     * escapes, and the runs between them are copied. Bytes of non-ASCII characters are never ASCII, so they are
     * copied as they are; an unpaired surrogate is {@code ?}, as the JDK's encoder writes it.
     */
    private void encode(String text, Escape escape) throws IOException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        boolean[] copied = COPIED[escape.ordinal()];
        int length = utf8.length;
        int run = 0;
        for (int i = 0; i < length; i++) {
            if (!copied[utf8[i] & 0xFF]) {
                if (i > run) {
                    write(utf8, run, i - run);
                }
                if (size >= buffer.length - ENCODE_RESERVE) {
                    drain();
                }
                asciiEscaped((char) utf8[i], escape);
                run = i + 1;
            }
        }
        if (length > run) {
            write(utf8, run, length - run);
        }
    }

    /**
     * Per {@link Escape} (by ordinal), per UTF-8 byte (unsigned): whether {@link #encode} copies it as it is, a
     * printable ASCII character not special to the format or a byte of a non-ASCII character's encoding. Read in the
     * encoding loop in place of a switch per byte.
     */
    private static final boolean[][] COPIED = new boolean[Escape.values().length][0x100];

    static {
        for (Escape escape : Escape.values()) {
            for (char c = 0x20; c < 0x7F; c++) {
                COPIED[escape.ordinal()][c] = !special(c, escape);
            }
            Arrays.fill(COPIED[escape.ordinal()], 0x80, 0x100, true);
        }
    }

    private static boolean special(char c, Escape escape) {
        return switch (escape) {
            case NONE -> false;
            case XML_TEXT -> c == '&' || c == '<' || c == '>';
            case XML_ATTRIBUTE -> c == '&' || c == '<' || c == '>' || c == '\'';
            case JSON -> c == '"' || c == '\\';
        };
    }

    private void asciiEscaped(char c, Escape escape) {
        switch (escape) {
            case NONE -> buffer[size++] = (byte) c;
            case XML_TEXT, XML_ATTRIBUTE -> xmlEscaped(c, escape == Escape.XML_ATTRIBUTE);
            case JSON -> jsonEscaped(c);
        }
    }

    private void xmlEscaped(char c, boolean attribute) {
        switch (c) {
            case '&' -> asciiText("&amp;");
            case '<' -> asciiText("&lt;");
            case '>' -> asciiText("&gt;");
            case '\r' -> asciiText("&#xD;");
            case '\'' -> asciiText("&apos;");
            case '\t' -> {
                if (attribute) {
                    asciiText("&#x9;");
                } else {
                    buffer[size++] = '\t';
                }
            }
            case '\n' -> {
                if (attribute) {
                    asciiText("&#xA;");
                } else {
                    buffer[size++] = '\n';
                }
            }
            default -> buffer[size++] = (byte) c; // RDF4J's writer passes other control characters on as they are
        }
    }

    private void jsonEscaped(char c) {
        switch (c) {
            case '"' -> asciiText("\\\"");
            case '\\' -> asciiText("\\\\");
            case '\n' -> asciiText("\\n");
            case '\r' -> asciiText("\\r");
            case '\t' -> asciiText("\\t");
            case '\b' -> asciiText("\\b");
            case '\f' -> asciiText("\\f");
            default -> {
                if (c < 0x20) {
                    asciiText("\\u00");
                    buffer[size++] = HEX[c >> 4];
                    buffer[size++] = HEX[c & 0xF];
                } else {
                    buffer[size++] = (byte) c;
                }
            }
        }
    }

    private void asciiText(String s) {
        for (int i = 0; i < s.length(); i++) {
            buffer[size++] = (byte) s.charAt(i);
        }
    }

    /** Hands the buffered bytes to the stream. */
    void drain() throws IOException {
        if (size > 0) {
            out.write(buffer, 0, size);
            size = 0;
            drains++;
        }
    }

    /**
     * Hands the last bytes of {@code response}'s body to the stream. When they are the whole body (the buffer never
     * went to the stream before) and the response is not committed, its {@code Content-Length} is set first: the
     * container then sends the head and the body in one write as a body of known length, where it would send a body
     * past its aggregation size (8 KiB in Jetty 9.4's defaults) in a chunk and the closing chunk in a write of its own,
     * two wake-ups of the client instead of one. A compressing filter in front takes the length as its own wrapper
     * does any declared length.
     */
    void drainLast(HttpServletResponse response) throws IOException {
        if (drains == 0 && size > 0 && !response.isCommitted()) {
            response.setContentLength(size);
        }
        drain();
    }

    /** Times the buffer went to the stream: with {@link #position}, a mark for {@link #writtenSince}. */
    private long drains;

    long drains() {
        return drains;
    }

    /** Where the next byte goes in the buffer. */
    int position() {
        return size;
    }

    /**
     * {@code first} and the bytes written since {@code from} ({@link #position}), or null if the buffer went to the
     * stream since ({@code drains} then, {@link #drains}).
     */
    byte[] writtenSince(int from, long drainsThen, byte first) {
        if (drains != drainsThen) {
            return null;
        }
        byte[] bytes = new byte[1 + size - from];
        bytes[0] = first;
        System.arraycopy(buffer, from, bytes, 1, size - from);
        return bytes;
    }

    EncodedOutput(OutputStream out) {
        this(out, newBuffer());
    }

    /** A buffer of its own for a writer that borrows none ({@link #borrowBuffer}). */
    static byte[] newBuffer() {
        return new byte[BUFFER_BYTES];
    }

    /** Writes through {@code buffer} (at least {@value #BUFFER_BYTES} bytes), which only this instance uses meanwhile. */
    EncodedOutput(OutputStream out, byte[] buffer) {
        if (buffer.length < BUFFER_BYTES) {
            throw new IllegalArgumentException("an output buffer of " + buffer.length + " bytes, less than " + BUFFER_BYTES);
        }
        this.out = out;
        this.buffer = buffer;
    }

    /**
     * A response thread's output buffer, lent to one writer at a time ({@link #borrowBuffer}): the buffer is 16 KB, and
     * a fresh one per response (zeroed by the JVM) was a visible share of a short answer's CPU.
     */
    private static final class LentBuffer {
        final byte[] bytes = new byte[BUFFER_BYTES];
        boolean lent;
    }

    private static final ThreadLocal<LentBuffer> BUFFERS = ThreadLocal.withInitial(LentBuffer::new);

    /**
     * This thread's output buffer, or a new one while it is lent to another writer of this thread; give it back with
     * {@link #returnBuffer} once the writer is done.
     */
    static byte[] borrowBuffer() {
        LentBuffer b = BUFFERS.get();
        if (b.lent) {
            return new byte[BUFFER_BYTES];
        }
        b.lent = true;
        return b.bytes;
    }

    /** Gives back a buffer {@link #borrowBuffer} lent (one it made instead is left to the garbage collector). */
    static void returnBuffer(byte[] buffer) {
        LentBuffer b = BUFFERS.get();
        if (b.bytes == buffer) {
            b.lent = false;
        }
    }
}
