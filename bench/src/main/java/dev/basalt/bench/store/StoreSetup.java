package dev.basalt.bench.store;

import java.nio.file.Path;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.Sail;

/**
 * One named store configuration the benchmark compares: a store implementation plus its index
 * configuration. A setup builds a fresh {@link Sail} in a data directory it owns; the benchmark
 * wraps it (plainly, or in an RDFS inferencer) and never touches the store's internals.
 *
 * <p>To add a store, add a constant to {@link StoreSetups}; nothing else in the benchmark changes.
 *
 * <p>Implementations are immutable and shared between threads; each sail or repository they create is new and
 * follows its own store's thread rules.
 */
public interface StoreSetup {

	/** Short stable name used on the command line and as the row label in the report. */
	String id();

	/** Human description for the report, e.g. "RDF4J NativeStore 5.0.3, indexes spoc,posc". */
	String description();

	/** Whether the store keeps its data on disk (bytes on disk are reported only for these). */
	boolean persistent();

	/**
	 * Rough heap bytes per triple the store needs while resident; the benchmark skips a setup whose
	 * estimate exceeds the heap so that a run does not die of OutOfMemoryError half way.
	 */
	long heapBytesPerTriple();

	/**
	 * Whether the store runs inside the benchmark's JVM as a sail. A store that does not (Oxigraph) is
	 * loaded and served by its own processes; {@link #createSail} is not available for it.
	 */
	default boolean inProcess() {
		return true;
	}

	/**
	 * Whether the store's DESCRIBE returns a resource's incoming statements besides its outgoing ones,
	 * as RDF4J's evaluation does; the result cross-check compares a store that does not with the
	 * outgoing statements only.
	 */
	default boolean describesIncomingStatements() {
		return true;
	}

	/** Creates an uninitialised sail whose files live in {@code dataDir} (created by the caller). */
	Sail createSail(Path dataDir);

	/** A repository over a fresh sail in {@code dataDir}; initialised on first use. */
	default Repository createRepository(Path dataDir) {
		return repository(createSail(dataDir));
	}

	/** The repository the store's users put over its sail (also over a sail wrapping it). */
	default Repository repository(Sail sail) {
		return new SailRepository(sail);
	}
}
