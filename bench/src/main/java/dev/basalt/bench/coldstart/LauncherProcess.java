package dev.basalt.bench.coldstart;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.basalt.bench.process.LauncherStartup;
import dev.basalt.bench.store.DiskUsage;

/**
 * One run of Basalt's launcher ({@code java [JVM options] -jar basalt-server.jar --port P --data DIR
 * --repository basalt}) as its own process, on a fresh copy of a data directory that holds the
 * repository already loaded, so every start is the first start of a new JVM over the same data. {@link
 * #start} returns when the launcher has printed its server URL (Jetty is up and the repository exists),
 * with the CPU the JVM spent starting; {@link #close} stops it (SIGTERM, a forced kill after 300 s: a JVM that writes an AOT cache or a recording at exit takes a while) and
 * deletes the copy. Its output goes to {@code launcher.log} in the copy's parent.
 *
 * <p>Not thread-safe: one thread starts, queries and closes it.
 */
final class LauncherProcess implements AutoCloseable {
	/** A JVM that writes an AOT cache or a JFR recording at exit may take this long to stop. */
	private static final long STOP_SECONDS = 300;
	static final String REPOSITORY = "basalt";
	private static final String DATA_WARMUP = "data warm-up: ";

	private final Process process;
	private final Path data;
	private final int port;

	private LauncherProcess(Process process, Path data, int port) {
		this.process = process;
		this.data = data;
		this.port = port;
	}

	/**
	 * Copies {@code template} to {@code work/data}, starts {@code java} with {@code jvmArgs} on it and waits
	 * until it serves; fails with the log's last lines if it exits or does not come up in time.
	 */
	static LauncherProcess start(String java, List<String> jvmArgs, Path serverJar, Path template, Path work,
			int port) throws IOException, InterruptedException {
		Path data = work.resolve("data");
		DiskUsage.delete(data);
		copyTree(template, data);
		Path log = work.resolve("launcher.log");
		List<String> command = new ArrayList<>();
		command.add(java);
		command.addAll(jvmArgs);
		command.addAll(List.of("-jar", serverJar.toString(), "--port", Integer.toString(port), "--data",
				data.toString(), "--repository", REPOSITORY));
		Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		long deadline = System.nanoTime() + LauncherStartup.TIMEOUT.toNanos();
		while (true) {
			if (Files.exists(log) && Files.readString(log).contains("Basalt on RDF4J Server:")) {
				return new LauncherProcess(p, data, port);
			}
			if (!p.isAlive() || System.nanoTime() > deadline) {
				p.destroyForcibly().waitFor();
				throw new IllegalStateException("The launcher `" + String.join(" ", command) + "` did not come up: "
						+ String.join(" / ", dev.basalt.bench.process.ChildProcess.lastLines(log, 5)) + " (log " + log + ")");
			}
			Thread.sleep(50);
		}
	}

	/**
	 * The launcher's warm-up, query-log replay and data warm-up lines from {@code work}'s {@code launcher.log} ({@code
	 * "; warm-up: N requests in W ms (JVM CPU C ms); query-log replay: ..."}), each left out when the log has none (no
	 * warm-up, no replay, another server, no log).
	 */
	static String warmupLine(Path work) throws IOException {
		Path log = work.resolve("launcher.log");
		if (!Files.isRegularFile(log)) {
			return "";
		}
		List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
		StringBuilder found = new StringBuilder();
		for (String part : List.of("warm-up: ", "query-log replay: ")) {
			lines.stream().filter(l -> l.contains(part) && !l.contains(DATA_WARMUP)).findFirst()
					.ifPresent(l -> found.append("; ").append(l.substring(l.indexOf(part))));
		}
		lines.stream().filter(l -> l.contains(DATA_WARMUP))
				.forEach(l -> found.append("; ").append(l.substring(l.indexOf(DATA_WARMUP))));
		return found.toString();
	}

	/**
	 * Creates {@code template}: starts the launcher on an empty data directory and loads {@code ntriples}
	 * into its repository through the SPARQL protocol's statements endpoint, then stops it.
	 */
	static void createTemplate(String java, Path serverJar, Path ntriples, Path template, Path work, int port)
			throws IOException, InterruptedException {
		Path empty = work.resolve("empty");
		DiskUsage.delete(empty);
		Files.createDirectories(empty);
		try (LauncherProcess server = start(java, List.of("-Xmx2g"), serverJar, empty, work, port)) {
			HttpRequest put = HttpRequest.newBuilder(URI.create(server.endpoint() + "/statements"))
					.header("Content-Type", "application/n-triples").PUT(HttpRequest.BodyPublishers.ofFile(ntriples))
					.build();
			HttpResponse<String> r = HttpClient.newHttpClient().send(put, HttpResponse.BodyHandlers.ofString());
			if (r.statusCode() / 100 != 2) {
				throw new IllegalStateException("Loading " + ntriples + " failed: HTTP " + r.statusCode() + " " + r.body());
			}
			server.stopProcess();
			DiskUsage.delete(template);
			copyTree(server.data, template);
		}
		DiskUsage.delete(empty);
	}

	/** The repository's SPARQL endpoint. */
	String endpoint() {
		return "http://127.0.0.1:" + port + "/rdf4j-server/repositories/" + REPOSITORY;
	}

	/** The launcher process as started (it may have relaunched itself as a child JVM, see {@link #serverPid}). */
	long pid() {
		return process.pid();
	}

	/** The JVM that serves: the launcher's relaunched child if it has one, else the launcher itself. */
	long serverPid() {
		return process.descendants().filter(d -> d.info().command().map(c -> c.endsWith("/java")).orElse(false))
				.mapToLong(ProcessHandle::pid).max().orElse(process.pid());
	}

	private void stopProcess() throws InterruptedException {
		process.destroy();
		if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
			process.destroyForcibly().waitFor();
		}
	}

	@Override
	public void close() {
		try {
			stopProcess();
			DiskUsage.delete(data);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	static void copyTree(Path from, Path to) throws IOException {
		try (var paths = Files.walk(from)) {
			for (Path p : (Iterable<Path>) paths::iterator) {
				Path target = to.resolve(from.relativize(p).toString());
				if (Files.isDirectory(p)) {
					Files.createDirectories(target);
				} else {
					Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
	}

}
