package dev.basalt.bench.store;

import java.nio.file.Path;

import org.eclipse.rdf4j.sail.Sail;

import dev.basalt.bench.oxigraph.OxigraphInstall;

/**
 * Oxigraph as a peer of the comparison: loaded with {@code oxigraph load} and queried over HTTP
 * through {@code oxigraph serve} on 127.0.0.1, both installed from PyPI into a virtual environment
 * under the work directory ({@link OxigraphInstall}). It is not a sail, so the comparison drives it
 * through {@code dev.basalt.bench.compare.OxigraphPeer} instead of {@link #createSail}.
 *
 * <p>Stateless, so its one {@link #INSTANCE} is shared by every thread.
 */
public final class OxigraphSetup implements StoreSetup {

	public static final OxigraphSetup INSTANCE = new OxigraphSetup();

	private OxigraphSetup() {
	}

	@Override
	public String id() {
		return "oxigraph";
	}

	@Override
	public String description() {
		return "Oxigraph " + OxigraphInstall.VERSION + " (PyPI package oxigraph), loaded with `oxigraph load`, queried "
				+ "over HTTP through `oxigraph serve` on 127.0.0.1 and RDF4J's SPARQLRepository";
	}

	@Override
	public boolean persistent() {
		return true;
	}

	@Override
	public long heapBytesPerTriple() {
		return 0;
	}

	@Override
	public boolean inProcess() {
		return false;
	}

	/** Oxigraph's DESCRIBE is the concise bounded description: outgoing statements, through blank nodes. */
	@Override
	public boolean describesIncomingStatements() {
		return false;
	}

	@Override
	public Sail createSail(Path dataDir) {
		throw new UnsupportedOperationException("Oxigraph is not a sail: it runs as its own `oxigraph serve` process, "
				+ "which the comparison starts; use it with `compare` or `load`, not with this command");
	}

	@Override
	public String toString() {
		return id();
	}
}
