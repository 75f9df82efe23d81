package dev.basalt.bench.oxigraph;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The installed Oxigraph tools and the command lines the benchmark runs with them. Every command
 * works on a store directory Oxigraph owns ({@code --location}); the server binds to the loopback
 * interface only.
 *
 * @param cli         the {@code oxigraph} executable
 * @param python      the virtual environment's Python with {@code pyoxigraph} installed, or null
 * @param bindingSkip why {@code pyoxigraph} is not available, or null when {@code python} is set
 *
 * <p>Immutable; safe to share between threads (each command it describes runs in its own process).
 */
public record Oxigraph(Path cli, Path python, String bindingSkip) {

	/** The script for {@code Store.bulk_load}: arguments store directory and N-Triples file. */
	static final String BULK_LOAD_SCRIPT = """
			# Written by basalt-bench: loads one N-Triples file into a new pyoxigraph store with bulk_load,
			# flushes it to disk and exits; the benchmark times the whole process.
			import sys
			from pyoxigraph import RdfFormat, Store

			store = Store(sys.argv[1])
			store.bulk_load(path=sys.argv[2], format=RdfFormat.N_TRIPLES)
			store.flush()
			""";

	/** Prints the number of quads in a store directory (opening it, which may rewrite its files). */
	static final String COUNT_SCRIPT = "import sys; from pyoxigraph import Store; print(len(Store(sys.argv[1])))";

	/** {@code oxigraph load --location DIR --file FILE}: the command-line bulk loader. */
	public List<String> loadCommand(Path location, Path file) {
		return List.of(cli.toString(), "load", "--location", location.toString(), "--file", file.toString());
	}

	/** {@code oxigraph serve}: SPARQL over HTTP at {@code http://127.0.0.1:PORT/query}. */
	public List<String> serveCommand(Path location, int port) {
		return List.of(cli.toString(), "serve", "--location", location.toString(), "--bind", "127.0.0.1:" + port);
	}

	public boolean hasBinding() {
		return python != null;
	}

	/** The pyoxigraph bulk load of {@code file} into {@code location}, with its script written to {@code scriptDir}. */
	public List<String> bulkLoadCommand(Path scriptDir, Path location, Path file) {
		requireBinding();
		Path script = scriptDir.resolve("pyoxigraph_bulk_load.py");
		try {
			Files.createDirectories(scriptDir);
			Files.writeString(script, BULK_LOAD_SCRIPT);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot write the pyoxigraph load script " + script, e);
		}
		return List.of(python.toString(), script.toString(), location.toString(), file.toString());
	}

	/** Counts the quads of a pyoxigraph store; the count is the command's last output line. */
	public List<String> countCommand(Path location) {
		requireBinding();
		return List.of(python.toString(), "-c", COUNT_SCRIPT, location.toString());
	}

	private void requireBinding() {
		if (python == null) {
			throw new IllegalStateException("pyoxigraph is not installed: " + bindingSkip);
		}
	}
}
