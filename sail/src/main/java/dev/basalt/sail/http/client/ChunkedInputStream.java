package dev.basalt.sail.http.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A body in HTTP/1.1's chunked transfer coding, decoded: chunks of {@code size-in-hex[;extensions]
 * CRLF data CRLF} up to a chunk of size 0 and the trailer section, which ends with an empty line.
 * Chunk extensions and trailers are read and ignored. A stream that ends before the last chunk and
 * its empty line throws {@link EOFException}; a bad chunk size throws {@link IOException}. Not
 * thread-safe.
 */
final class ChunkedInputStream extends InputStream {
    private final InputStream in;
    /** Bytes left in the current chunk; 0 between chunks. */
    private long remaining;
    private boolean first = true;
    private boolean done;
    private long read;

    ChunkedInputStream(InputStream in) {
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        if (!ready()) {
            return -1;
        }
        int b = in.read();
        if (b < 0) {
            throw truncated();
        }
        remaining--;
        read++;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!ready()) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw truncated();
        }
        remaining -= n;
        read += n;
        return n;
    }

    /** Moves to the next chunk when the current one is used up; false at the end of the body. */
    private boolean ready() throws IOException {
        if (done) {
            return false;
        }
        if (remaining > 0) {
            return true;
        }
        if (!first) {
            String end = line();
            if (!end.isEmpty()) {
                throw new IOException("malformed chunked body: chunk data longer than its size, at byte " + read);
            }
        }
        first = false;
        String sizeLine = line();
        int semicolon = sizeLine.indexOf(';');
        String hex = (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim();
        long size;
        try {
            size = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new IOException("malformed chunked body: bad chunk size '" + sizeLine + "' at byte " + read);
        }
        if (size < 0) {
            throw new IOException("malformed chunked body: bad chunk size '" + sizeLine + "' at byte " + read);
        }
        if (size == 0) {
            while (!line().isEmpty()) {
                // a trailer field
            }
            done = true;
            return false;
        }
        remaining = size;
        return true;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder(16);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw truncated();
            }
            if (b == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            if (sb.length() > 8192) {
                throw new IOException("malformed chunked body: a chunk head line longer than 8192 bytes");
            }
            sb.append((char) b);
        }
    }

    private EOFException truncated() {
        return new EOFException("the chunked body ended after " + read + " bytes, before its last chunk");
    }
}
