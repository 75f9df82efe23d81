package dev.basalt.bench.compare;

import java.nio.file.Path;
import java.util.function.Consumer;

import org.eclipse.rdf4j.repository.Repository;

import dev.basalt.bench.oxigraph.Oxigraph;
import dev.basalt.bench.oxigraph.OxigraphServer;
import dev.basalt.bench.process.ChildProcess;
import dev.basalt.bench.store.DiskUsage;

/**
 * Oxigraph's part of a comparison: {@code oxigraph load} of the dataset into its store directory,
 * timed as a whole process, then {@code oxigraph serve} on that directory for the cross-check and the
 * query mixes. Bytes on disk are taken three times, because the server rewrites the files the loader
 * wrote: right after the load, once the server answers, and after it stopped.
 *
 * <p>One thread starts and closes a peer; its repository serves any number of client threads.
 */
final class OxigraphPeer implements AutoCloseable {

	private static final long LOAD_TIMEOUT_SECONDS = 6 * 3600;

	private final OxigraphServer server;
	private final Path dir;
	private final Results.Oxigraph figures;

	private OxigraphPeer(OxigraphServer server, Path dir, Results.Oxigraph figures) {
		this.server = server;
		this.dir = dir;
		this.figures = figures;
	}

	/**
	 * Loads {@code file} into the empty directory {@code dir} and starts the server on it; fails with
	 * the loader's or server's last output lines if either does not work.
	 */
	static OxigraphPeer loadAndServe(Oxigraph oxigraph, Path dir, Path file, Consumer<String> progress) {
		Path logs = dir.toAbsolutePath().resolveSibling(dir.getFileName() + "-logs");
		ChildProcess.Result load = new ChildProcess(logs.resolve("load.log"), LOAD_TIMEOUT_SECONDS)
				.run(oxigraph.loadCommand(dir.toAbsolutePath(), file.toAbsolutePath()), logs);
		if (!load.succeeded()) {
			throw new IllegalStateException("Oxigraph could not load " + file + ": " + load.failure());
		}
		long afterLoad = DiskUsage.bytes(dir);
		progress.accept("  oxigraph load done; starting oxigraph serve");
		OxigraphServer server = OxigraphServer.start(oxigraph, dir.toAbsolutePath(), logs.resolve("serve.log"));
		long triples;
		try {
			triples = server.countTriples();
		} catch (RuntimeException e) {
			server.close();
			throw e;
		}
		long afterStart = DiskUsage.bytes(dir);
		Results.Oxigraph figures = new Results.Oxigraph(new Results.Load(triples, load.seconds(), afterLoad, -1, -1),
				load.peakRssBytes(), afterStart);
		return new OxigraphPeer(server, dir, figures);
	}

	Repository repository() {
		return server.repository();
	}

	String endpoint() {
		return server.endpoint();
	}

	Results.Oxigraph figures() {
		return figures;
	}

	/** Stops the server and records the bytes on disk it left. */
	@Override
	public void close() {
		server.close();
		figures.bytesAfterStop = DiskUsage.bytes(dir);
	}
}
