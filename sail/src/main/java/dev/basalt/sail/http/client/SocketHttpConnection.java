package dev.basalt.sail.http.client;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * A small HTTP/1.1 client over one socket: writes the request head and body in one write and reads the
 * response's status line and headers, then hands out the body framed by Content-Length, by chunked
 * transfer coding, or (without either) by the end of the connection. Interim 1xx responses are skipped.
 * It does only what a SPARQL endpoint needs (no redirects, cookies, authentication, compression, proxies
 * or TLS), so a request costs one write and the reads of the answer. The connection is kept for the next
 * request unless the server said {@code Connection: close} or the body was framed by the connection's
 * end; a kept connection that the server closed meanwhile (its idle timeout) is reopened and the request
 * sent again once, which is safe for the SPARQL queries it sends (they only read). Closing a body reads
 * what is left of it so the connection can carry the next request; {@link #isOpen()} says whether it can.
 * Not thread-safe: one thread owns it at a time.
 */
public final class SocketHttpConnection implements HttpConnection {

    private static final int MAX_HEAD_LINE = 64 * 1024;

    private final InetSocketAddress address;
    private final String hostHeader;
    private int readTimeoutMillis;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    /** True once a request was answered on the current socket, i.e. the socket may have gone stale. */
    private boolean reused;
    private Body pending;
    /** The request {@link #begin} wrote and {@link #receive} has not answered yet (for its second try). */
    private byte[] sentHead;
    private byte[] sentBody;
    private boolean sentOnReused;

    /**
     * @param readTimeoutMillis the longest wait to connect and for each next bytes of an answer (0: no limit), until
     *                          {@link #setReadTimeout} changes it
     */
    public SocketHttpConnection(String host, int port, int readTimeoutMillis) {
        this.address = new InetSocketAddress(host, port);
        this.hostHeader = host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
        this.readTimeoutMillis = readTimeoutMillis;
    }

    /** The longest wait to connect and for each next bytes of an answer from now on (0: no limit). */
    public void setReadTimeout(int millis) throws IOException {
        readTimeoutMillis = millis;
        if (socket != null) {
            socket.setSoTimeout(millis);
        }
    }

    /** Whether the socket is open and carries no unread answer, so the next request goes on it. */
    public boolean isOpen() {
        return socket != null && pending == null;
    }

    @Override
    public Response send(String method, String target, String accept, String contentType, byte[] body)
            throws IOException {
        begin(method, target, accept, contentType, body);
        return receive();
    }

    /**
     * Writes a request without waiting for its answer; {@link #receive()} reads the answer's head. So one
     * thread can send requests to several servers before it waits for any answer, instead of handing
     * each request to a thread of its own. A failed write on a kept connection that the server had
     * closed reopens it and writes the request again.
     */
    public void begin(String method, String target, String accept, String contentType, byte[] body)
            throws IOException {
        if (pending != null) {
            pending.close();
        }
        byte[] head = head(method, target, accept, contentType, body);
        sentHead = head;
        sentBody = body;
        if (socket != null && reused) {
            try {
                write(head, body);
                sentOnReused = true;
                return;
            } catch (StaleConnection e) {
                closeSocket();
            } catch (IOException | RuntimeException e) {
                closeSocket();
                throw e;
            }
        }
        sentOnReused = false;
        if (socket == null) {
            open();
        }
        closingOnFailure(() -> {
            write(head, body);
            return null;
        });
    }

    /**
     * The answer to the request {@link #begin} wrote, once its head has arrived. When a kept connection
     * turns out closed by the server before it answered, the request is sent once more on a new one.
     */
    public Response receive() throws IOException {
        if (sentHead == null) {
            throw new IllegalStateException("no request was sent on this connection");
        }
        byte[] head = sentHead;
        byte[] body = sentBody;
        sentHead = null;
        sentBody = null;
        return closingOnFailure(() -> {
            try {
                return readResponse();
            } catch (StaleConnection e) {
                closeSocket();
                if (!sentOnReused) {
                    throw e;
                }
            }
            open();
            write(head, body);
            return readResponse();
        });
    }

    /** A step of an exchange on the socket. */
    private interface Step<T> {
        T run() throws IOException;
    }

    /** Runs {@code step}; a failure closes the socket, a connection the server had closed as an EOFException. */
    private <T> T closingOnFailure(Step<T> step) throws IOException {
        try {
            return step.run();
        } catch (StaleConnection e) {
            closeSocket();
            throw stale(e);
        } catch (IOException | RuntimeException e) {
            closeSocket();
            throw e;
        }
    }

    private EOFException stale(StaleConnection e) {
        return new EOFException("the server at " + hostHeader + " closed the connection without a response"
                + (e.getCause() == null ? "" : ": " + e.getCause()));
    }

    private byte[] head(String method, String target, String accept, String contentType, byte[] body) {
        StringBuilder sb = new StringBuilder(target.length() + 160);
        sb.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ").append(hostHeader)
                .append("\r\nAccept: ").append(accept).append("\r\nUser-Agent: basalt\r\n");
        if (body != null) {
            sb.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(body.length)
                    .append("\r\n");
        }
        return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private void write(byte[] head, byte[] body) throws IOException {
        try {
            if (body == null || body.length == 0) {
                out.write(head);
            } else {
                byte[] request = Arrays.copyOf(head, head.length + body.length);
                System.arraycopy(body, 0, request, head.length, body.length);
                out.write(request);
            }
            out.flush();
        } catch (IOException e) {
            throw new StaleConnection(e);
        }
    }

    private Response readResponse() throws IOException {
        while (true) {
            String statusLine = readLine(true);
            int status = parseStatus(statusLine);
            long contentLength = -1;
            boolean chunked = false;
            boolean close = false;
            String type = null;
            for (String line = readLine(false); !line.isEmpty(); line = readLine(false)) {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    throw malformed("header line without a name: " + line);
                }
                String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = line.substring(colon + 1).trim();
                switch (name) {
                case "content-length" -> contentLength = parseLength(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
                case "connection" -> close |= value.toLowerCase(Locale.ROOT).contains("close");
                case "content-type" -> type = value;
                default -> {
                }
                }
            }
            if (status >= 100 && status < 200) {
                continue; // interim response (100 Continue, 103 Early Hints); the final one follows
            }
            reused = true;
            Body b;
            if (status == 204 || status == 304) {
                b = new Body(new FixedLengthInputStream(in, 0), close);
            } else if (chunked) {
                b = new Body(new ChunkedInputStream(in), close);
            } else if (contentLength >= 0) {
                b = new Body(new FixedLengthInputStream(in, contentLength), close);
            } else {
                b = new Body(in, true); // delimited by the end of the connection
            }
            pending = b;
            return new Response(status, type, b);
        }
    }

    private static int parseStatus(String statusLine) throws IOException {
        // HTTP/1.1 200 OK
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
            throw malformed("not an HTTP/1.x status line: " + statusLine);
        }
        try {
            return Integer.parseInt(statusLine.substring(9, 12));
        } catch (NumberFormatException e) {
            throw malformed("no status code in: " + statusLine);
        }
    }

    private static long parseLength(String value) throws IOException {
        try {
            long n = Long.parseLong(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw malformed("bad Content-Length: " + value);
    }

    /**
     * One line of the response head without its CRLF (or bare LF). At the start of a response on a
     * reused connection, an end of stream or a reset means the server had closed it: StaleConnection.
     */
    private String readLine(boolean statusLine) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        while (true) {
            int b;
            try {
                b = in.read();
            } catch (SocketTimeoutException e) {
                throw e; // the server is slow, not gone: no second request
            } catch (IOException e) {
                if (statusLine && line.size() == 0) {
                    throw new StaleConnection(e);
                }
                throw e;
            }
            if (b < 0) {
                if (statusLine && line.size() == 0) {
                    throw new StaleConnection(null);
                }
                throw new EOFException("the response head from " + hostHeader + " ended in a line: " + line);
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
            }
            if (line.size() >= MAX_HEAD_LINE) {
                throw malformed("a response head line longer than " + MAX_HEAD_LINE + " bytes");
            }
            line.write(b);
        }
    }

    private static IOException malformed(String what) {
        return new IOException("malformed HTTP response: " + what);
    }

    private void open() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setSoTimeout(readTimeoutMillis);
        s.connect(address, readTimeoutMillis);
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 64 * 1024);
        out = s.getOutputStream(); // one write per request
        reused = false;
    }

    private void closeSocket() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // nothing to keep
            }
            socket = null;
            in = null;
            out = null;
            pending = null;
        }
    }

    @Override
    public void close() {
        closeSocket();
    }

    /** Thrown when a kept connection turns out closed by the server before it answered. */
    private static final class StaleConnection extends IOException {
        private static final long serialVersionUID = 1L;

        StaleConnection(IOException cause) {
            super(cause);
        }
    }

    /**
     * A response body; closing it reads what is left of it, so the connection is ready for the next
     * request, or closes the connection when the body ends with it or could not be read to its end.
     */
    private final class Body extends InputStream {
        private final InputStream framed;
        private final boolean closeAfter;
        private boolean closed;

        Body(InputStream framed, boolean closeAfter) {
            this.framed = framed;
            this.closeAfter = closeAfter;
        }

        @Override
        public int read() throws IOException {
            return framed.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return framed.read(b, off, len);
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (pending == this) {
                pending = null;
            }
            if (closeAfter) {
                closeSocket();
                return;
            }
            try {
                byte[] skip = new byte[8192];
                while (framed.read(skip, 0, skip.length) >= 0) {
                    // the rest of a body nobody read
                }
            } catch (IOException e) {
                closeSocket();
            }
        }
    }
}
