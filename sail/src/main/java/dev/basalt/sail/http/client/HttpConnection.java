package dev.basalt.sail.http.client;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * One HTTP/1.1 connection to a server, kept alive between requests, one request at a time: the client
 * side of the SPARQL protocol as the benchmark driver and the federation's front speak it. Not
 * thread-safe: one thread (a benchmark client, or a front request holding it from its pool) uses it at
 * a time.
 */
public interface HttpConnection extends Closeable {

    /**
     * Sends a request and returns the response once its head has arrived. The caller reads the body
     * and closes it before the next request; a body that ends before its framing says (Content-Length
     * or the last chunk) throws {@link java.io.EOFException} when read.
     *
     * @param method      GET or POST
     * @param target      the request target: path and query string, percent-encoded
     * @param accept      the Accept header
     * @param contentType the Content-Type of {@code body}, or null without a body
     * @param body        the request body, or null
     */
    Response send(String method, String target, String accept, String contentType, byte[] body) throws IOException;

    /** A response: its status code, its Content-Type header (null if none) and its body. */
    record Response(int status, String contentType, InputStream body) {
    }
}
