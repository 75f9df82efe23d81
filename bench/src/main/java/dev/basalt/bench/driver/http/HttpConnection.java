package dev.basalt.bench.driver.http;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * One HTTP/1.1 connection to a server, kept alive between requests, one request at a time. Not
 * thread-safe: each benchmark client thread has its own.
 */
interface HttpConnection extends Closeable {

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
