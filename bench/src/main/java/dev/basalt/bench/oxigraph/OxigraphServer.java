package dev.basalt.bench.oxigraph;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;

import dev.basalt.bench.driver.QueryExecutor;
import dev.basalt.bench.process.ChildProcess;

/**
 * One {@code oxigraph serve} process on a store directory, bound to 127.0.0.1 on a free port, with
 * an RDF4J {@link SPARQLRepository} on its query endpoint. {@link #start} returns once the server
 * answers a query; {@link #close} stops it (SIGTERM, then a forced kill after 30 s) and shuts the
 * repository down. The server's output goes to a log file beside the store.
 *
 * <p>The repository may be used by several threads, as any RDF4J repository; start and close are
 * for one thread.
 */
public final class OxigraphServer implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(120);

	private final Process process;
	private final String endpoint;
	private final Path log;
	private final SPARQLRepository repository;

	private OxigraphServer(Process process, String endpoint, Path log) {
		this.process = process;
		this.endpoint = endpoint;
		this.log = log;
		this.repository = new SPARQLRepository(endpoint);
		repository.init();
	}

	/** Starts the server on {@code location} and waits until it answers; fails naming its log. */
	public static OxigraphServer start(Oxigraph oxigraph, Path location, Path log) {
		int port = freeLoopbackPort();
		String endpoint = "http://127.0.0.1:" + port + "/query";
		Process p;
		try {
			p = new ProcessBuilder(oxigraph.serveCommand(location, port)).redirectErrorStream(true)
					.redirectOutput(log.toFile()).start();
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot start `" + String.join(" ", oxigraph.serveCommand(location, port)) + "`",
					e);
		}
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		URI ask = URI.create(endpoint + "?query=" + URLEncoder.encode("ASK {}", StandardCharsets.UTF_8));
		long deadline = System.nanoTime() + STARTUP.toNanos();
		while (System.nanoTime() < deadline) {
			if (!p.isAlive()) {
				throw new IllegalStateException("oxigraph serve on " + location + " exited with code " + p.exitValue()
						+ " before answering; see " + log + tail(log));
			}
			try {
				HttpResponse<Void> r = http.send(HttpRequest.newBuilder(ask).timeout(Duration.ofSeconds(5)).GET().build(),
						HttpResponse.BodyHandlers.discarding());
				if (r.statusCode() == 200) {
					return new OxigraphServer(p, endpoint, log);
				}
			} catch (IOException e) {
				// not listening yet
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				p.destroyForcibly();
				throw new IllegalStateException("Interrupted while starting oxigraph serve", e);
			}
			sleep(200);
		}
		p.destroyForcibly();
		throw new IllegalStateException("oxigraph serve on " + location + " did not answer at " + endpoint + " within "
				+ STARTUP.toSeconds() + " s; see " + log + tail(log));
	}

	public Repository repository() {
		return repository;
	}

	public String endpoint() {
		return endpoint;
	}

	/** The number of triples in the default graph, counted by the server. */
	public long countTriples() {
		try (RepositoryConnection conn = repository.getConnection()) {
			return QueryExecutor.scalar(conn, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
		}
	}

	/** The server's process id, for reading its CPU time. */
	public long pid() {
		return process.pid();
	}

	@Override
	public void close() {
		repository.shutDown();
		process.destroy();
		try {
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				process.waitFor();
			}
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			process.destroyForcibly();
		}
	}

	private static int freeLoopbackPort() {
		try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return s.getLocalPort();
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot find a free port on 127.0.0.1 for oxigraph serve", e);
		}
	}

	private static String tail(Path log) {
		try {
			return ": " + String.join(" / ", ChildProcess.lastLines(log, 3));
		} catch (IOException e) {
			return "";
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting oxigraph serve", e);
		}
	}
}
