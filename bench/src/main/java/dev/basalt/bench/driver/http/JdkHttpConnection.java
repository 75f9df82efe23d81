package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.basalt.sail.http.client.HttpConnection;

/**
 * The JDK's {@link HttpClient} in HTTP/1.1 mode, one client (and so one kept-alive connection) per
 * benchmark client thread. Not thread-safe in the sense of {@link HttpConnection}: one request at a time.
 */
final class JdkHttpConnection implements HttpConnection {

	private final URI origin;
	private final Duration timeout;
	private final HttpClient client;

	JdkHttpConnection(URI origin, int readTimeoutMillis) {
		this.origin = origin;
		this.timeout = Duration.ofMillis(readTimeoutMillis);
		this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
				.followRedirects(HttpClient.Redirect.NEVER).build();
	}

	@Override
	public Response send(String method, String target, String accept, String contentType, byte[] body)
			throws IOException {
		HttpRequest.Builder request = HttpRequest.newBuilder(origin.resolve(target)).timeout(timeout)
				.header("Accept", accept);
		if (body == null) {
			request.GET();
		} else {
			request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofByteArray(body));
		}
		try {
			HttpResponse<InputStream> response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
			return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null),
					response.body());
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IOException("interrupted waiting for " + origin, e);
		}
	}

	@Override
	public void close() {
		// the client's connection closes when the client is collected (HttpClient.close() is Java 21)
	}
}
