package dev.basalt.sail.http.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The next {@code length} bytes of a stream (a body framed by Content-Length): end of stream after
 * them, and {@link EOFException} if the stream ends before. Not thread-safe.
 */
final class FixedLengthInputStream extends InputStream {
    private final InputStream in;
    private final long length;
    private long remaining;

    FixedLengthInputStream(InputStream in, long length) {
        this.in = in;
        this.length = length;
        this.remaining = length;
    }

    @Override
    public int read() throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int b = in.read();
        if (b < 0) {
            throw truncated();
        }
        remaining--;
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (remaining == 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n = in.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw truncated();
        }
        remaining -= n;
        return n;
    }

    private EOFException truncated() {
        return new EOFException("the body ended after " + (length - remaining) + " of its " + length + " bytes (Content-Length)");
    }
}
