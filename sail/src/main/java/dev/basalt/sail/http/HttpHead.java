package dev.basalt.sail.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The head of an HTTP/1.x request read from a blocking stream (request line and header fields, up to the empty
 * line), and the body after it, for Basalt's small blocking HTTP servers ({@link SelectPort}, the federation
 * front). Header names are kept in lower case, the first value of a repeated field wins, and the body is read
 * by its {@code Content-Length} or in chunks; {@code Expect: 100-continue} is answered before the body is read.
 * A request these servers cannot read is a {@link Refused} with the status to answer.
 *
 * <p>Immutable once read; one connection's thread reads and uses it.
 */
public record HttpHead(String method, String target, String version, Map<String, String> headers) {
    /** The longest head read; a longer one is refused. */
    public static final int MAX_HEAD_BYTES = 16 * 1024;

    /** Reads a head; null when the stream ends before its first byte (a kept-alive connection the client closed). */
    public static HttpHead read(InputStream in) throws IOException {
        String line = line(in, true);
        if (line == null) {
            return null;
        }
        String[] parts = line.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
            throw new Refused(400, "not an HTTP/1.x request line: " + abbreviate(line));
        }
        Map<String, String> headers = new HashMap<>();
        int bytes = line.length();
        for (String field = line(in, false); !field.isEmpty(); field = line(in, false)) {
            bytes += field.length();
            if (bytes > MAX_HEAD_BYTES) {
                throw new Refused(400, "the request's head is longer than " + MAX_HEAD_BYTES + " bytes");
            }
            int colon = field.indexOf(':');
            if (colon <= 0) {
                throw new Refused(400, "not a header line: " + abbreviate(field));
            }
            headers.putIfAbsent(field.substring(0, colon).trim().toLowerCase(Locale.ROOT), field.substring(colon + 1).trim());
        }
        return new HttpHead(parts[0], parts[1], parts[2], headers);
    }

    /** A header's value, or null; {@code name} in lower case. */
    public String header(String name) {
        return headers.get(name);
    }

    /** Whether the connection closes after this request's answer (HTTP/1.0, or {@code Connection: close}). */
    public boolean closes() {
        String connection = headers.get("connection");
        return version.equals("HTTP/1.0") ? connection == null || !connection.equalsIgnoreCase("keep-alive")
                : connection != null && connection.equalsIgnoreCase("close");
    }

    /**
     * The request's body, at most {@code maxBytes}: by {@code Content-Length}, or chunked; empty when it has
     * neither. {@code out} receives the interim {@code 100 Continue} a client that expects it waits for.
     */
    public byte[] body(InputStream in, OutputStream out, int maxBytes) throws IOException {
        String encoding = headers.get("transfer-encoding");
        String length = headers.get("content-length");
        if (encoding == null && length == null) {
            return new byte[0];
        }
        if ("100-continue".equalsIgnoreCase(headers.get("expect"))) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        if (encoding != null) {
            if (!encoding.equalsIgnoreCase("chunked")) {
                throw new Refused(501, "Transfer-Encoding " + abbreviate(encoding) + " is not read");
            }
            return chunked(in, maxBytes);
        }
        long n;
        try {
            n = Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            throw new Refused(400, "Content-Length is not a number: " + abbreviate(length));
        }
        if (n < 0 || n > maxBytes) {
            throw new Refused(413, "a body of " + n + " bytes; at most " + maxBytes + " are read");
        }
        byte[] body = in.readNBytes((int) n);
        if (body.length < n) {
            throw new Refused(400, "the body ended after " + body.length + " of " + n + " bytes");
        }
        return body;
    }

    private static byte[] chunked(InputStream in, int maxBytes) throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        while (true) {
            String size = line(in, false);
            int semicolon = size.indexOf(';');
            int n;
            try {
                n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new Refused(400, "not a chunk size: " + abbreviate(size));
            }
            if (n == 0) {
                while (!line(in, false).isEmpty()) {
                    // trailer fields are not read
                }
                return body.toByteArray();
            }
            if (n < 0 || body.size() + (long) n > maxBytes) {
                throw new Refused(413, "a chunked body of more than " + maxBytes + " bytes");
            }
            byte[] chunk = in.readNBytes(n);
            if (chunk.length < n || !line(in, false).isEmpty()) {
                throw new Refused(400, "a chunk of the body is cut short");
            }
            body.write(chunk);
        }
    }

    /** A plain-text answer with its head, {@code Content-Length} known, in one array. */
    public static byte[] plainAnswer(int status, String message, boolean close) {
        return answer(status, "text/plain; charset=UTF-8", (message + "\n").getBytes(StandardCharsets.UTF_8), close);
    }

    /** An answer with its head and {@code body}, in one array (written with one call). */
    public static byte[] answer(int status, String contentType, byte[] body, boolean close) {
        byte[] head = head(status, contentType, body.length, close);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /** An answer's head: status line, {@code Content-Type}, {@code Content-Length} and the empty line. */
    public static byte[] head(int status, String contentType, long length, boolean close) {
        return ("HTTP/1.1 " + status + " " + reason(status) + "\r\nContent-Type: " + contentType
                + "\r\nContent-Length: " + length + (close ? "\r\nConnection: close" : "") + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The reason phrase of the statuses these servers answer with. */
    public static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 406 -> "Not Acceptable";
            case 411 -> "Length Required";
            case 413 -> "Payload Too Large";
            case 415 -> "Unsupported Media Type";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            default -> "Status " + status;
        };
    }

    /** A line of ASCII up to CRLF (or LF); null at the stream's end before any byte when {@code first}. */
    private static String line(InputStream in, boolean first) throws IOException {
        StringBuilder s = new StringBuilder(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (first && s.length() == 0) {
                    return null;
                }
                throw new Refused(400, "the request ended inside its head");
            }
            if (b == '\n') {
                int end = s.length();
                if (end > 0 && s.charAt(end - 1) == '\r') {
                    s.setLength(end - 1);
                }
                return s.toString();
            }
            if (s.length() >= MAX_HEAD_BYTES) {
                throw new Refused(400, "a line of the request's head is longer than " + MAX_HEAD_BYTES + " bytes");
            }
            s.append((char) b);
        }
    }

    static String abbreviate(String s) {
        return s.length() <= 100 ? s : s.substring(0, 100) + "…";
    }

    /** A request that is not read or answered: answered with {@code status} and the message, then the connection closes. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;
        private final int status;

        public Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
