package dev.basalt.federation;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The byte streams under {@link LeanHttp}: the socket's input through one buffer, and an answer's body
 * over it, ending where the answer ends (a length given, chunked, or the socket's end), so the next
 * answer on a kept-alive socket starts where this one stopped.
 *
 * <p>Not thread-safe: a stream belongs to the one request that holds its socket.
 */
final class LeanHttpStreams {
    private LeanHttpStreams() {
    }

    /**
     * The socket's bytes through a buffer that one read of the socket fills: unlike a
     * {@code BufferedInputStream}, it never asks the socket how much more is there (a system call) and
     * takes no lock.
     */
    static final class SocketInput extends InputStream {
        private final InputStream socket;
        private final byte[] buffer = new byte[16 * 1024];
        private int position;
        private int limit;

        SocketInput(InputStream socket) {
            this.socket = socket;
        }

        @Override
        public int read() throws IOException {
            if (position == limit && !fill()) {
                return -1;
            }
            return buffer[position++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (position == limit) {
                if (len >= buffer.length) {
                    return socket.read(b, off, len);
                }
                if (!fill()) {
                    return -1;
                }
            }
            int n = Math.min(len, limit - position);
            System.arraycopy(buffer, position, b, off, n);
            position += n;
            return n;
        }

        private boolean fill() throws IOException {
            int n = socket.read(buffer, 0, buffer.length);
            if (n <= 0) {
                return false;
            }
            position = 0;
            limit = n;
            return true;
        }
    }

    /** A body of a known length ({@code length} ≥ 0), chunked (-2) or up to the end of the socket (-1). */
    static final class Body extends InputStream {
        private final InputStream in;
        private final boolean chunked;
        private long left;
        private boolean done;

        Body(InputStream in, long length) {
            this.in = in;
            this.chunked = length == -2;
            this.left = chunked ? 0 : length < 0 ? Long.MAX_VALUE : length;
            this.done = length == 0;
        }

        /** One byte, straight from the socket's buffer: result parsers read lengths and tags a byte at a time. */
        @Override
        public int read() throws IOException {
            if (done || left == 0 && !nextChunk()) {
                return -1;
            }
            int b = in.read();
            return consumed(b < 0 ? -1 : 1) < 0 ? -1 : b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (done || left == 0 && !nextChunk()) {
                return -1;
            }
            return consumed(in.read(b, off, (int) Math.min(len, left)));
        }

        /** Counts {@code n} bytes read (-1: the socket ended) against the body's length or chunk; returns {@code n}. */
        private int consumed(int n) throws IOException {
            if (n < 0) {
                if (left != Long.MAX_VALUE) {
                    throw new EOFException("the member closed the connection before the end of its answer");
                }
                done = true;
                return -1;
            }
            if (left != Long.MAX_VALUE) {
                left -= n;
            }
            if (left == 0) {
                if (chunked) {
                    crlf();
                } else {
                    done = true;
                }
            }
            return n;
        }

        /** Reads the next chunk's size; false (and done) at the last chunk, whose trailers it reads too. */
        private boolean nextChunk() throws IOException {
            if (!chunked) {
                done = true;
                return false;
            }
            String size = line();
            int semicolon = size.indexOf(';');
            long length = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            if (length == 0) {
                while (!line().isEmpty()) {
                    // trailers: none used
                }
                done = true;
                return false;
            }
            left = length;
            return true;
        }

        private void crlf() throws IOException {
            if (!line().isEmpty()) {
                throw new IOException("a chunk of the member's answer does not end with CRLF");
            }
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder(16);
            int b;
            while ((b = in.read()) != '\n') {
                if (b < 0) {
                    throw new EOFException("the member closed the connection inside a chunked answer");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
                if (line.length() > 1024) {
                    throw new IOException("a chunk header longer than 1 KiB");
                }
            }
            return line.toString();
        }

        /** Reads to the body's end, at most {@code most} bytes; whether the end was reached. */
        boolean skipToEnd(long most) throws IOException {
            if (!chunked && left == Long.MAX_VALUE) {
                return false; // ends with the socket
            }
            byte[] scratch = new byte[8192];
            long skipped = 0;
            while (!done) {
                int n = read(scratch, 0, scratch.length);
                if (n < 0) {
                    break;
                }
                skipped += n;
                if (skipped > most) {
                    return false;
                }
            }
            return done;
        }
    }
}
