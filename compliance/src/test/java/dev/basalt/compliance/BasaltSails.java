package dev.basalt.compliance;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.config.RepositoryFactory;
import org.eclipse.rdf4j.repository.config.RepositoryImplConfig;
import org.eclipse.rdf4j.repository.dataset.DatasetRepository;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sail.config.SailRepositoryConfig;
import org.eclipse.rdf4j.repository.sail.config.SailRepositoryFactory;
import org.eclipse.rdf4j.sail.NotifyingSail;
import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.base.config.BaseSailConfig;
import org.eclipse.rdf4j.sail.inferencer.fc.SchemaCachingRDFSInferencer;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.eclipse.rdf4j.sail.memory.config.MemoryStoreConfig;

/**
 * The one place where the compliance suites get the store under test.
 *
 * <p>
 * Every suite obtains its store, repository, configuration or repository factory here, so the whole module can be
 * pointed at another SAIL by changing this class alone. Stores built directly get a fresh, empty data directory
 * below the parent the caller owns (normally a JUnit {@code @TempDir}), so a test that builds several stores never
 * sees another store's files. Stores built from a configuration get their data directory from the test, through
 * {@code Repository.setDataDir}, as RDF4J's repository manager does.
 */
final class BasaltSails {

	private BasaltSails() {
	}

	/** A new, uninitialized store in a fresh directory below {@code parent}. */
	static NotifyingSail newStore(File parent) {
		return new MemoryStore(freshDirectory(parent));
	}

	/** A new, uninitialized repository over {@link #newStore(File)}. */
	static Repository newRepository(File parent) {
		return new SailRepository(newStore(parent));
	}

	/**
	 * A new, uninitialized repository over {@link #newStore(File)} that loads the graphs a query names in
	 * {@code FROM} and {@code FROM NAMED} from their URLs, as the W3C test cases expect; RDF4J runs them on its own
	 * stores the same way.
	 */
	static Repository newDatasetRepository(File parent) {
		return new DatasetRepository(new SailRepository(newStore(parent)));
	}

	/**
	 * A new store behind RDF4J's schema-caching RDFS inferencer, set up as RDF4J sets it up for its own stores:
	 * inferred statements go to the context of their premises, not to the default graph.
	 */
	static Sail newRdfsInferencer(File parent) {
		SchemaCachingRDFSInferencer inferencer = new SchemaCachingRDFSInferencer(newStore(parent), true);
		inferencer.setAddInferredStatementsToDefaultContext(false);
		return inferencer;
	}

	/** A new store configuration with default settings, as a repository manager would read it. */
	static BaseSailConfig newConfig() {
		return new MemoryStoreConfig();
	}

	/**
	 * A repository factory whose default configuration is a SAIL repository over {@link #newConfig()}; the store is
	 * then created through the SAIL registry, that is through the store's own factory.
	 */
	static RepositoryFactory newRepositoryFactory() {
		return new SailRepositoryFactory() {
			@Override
			public RepositoryImplConfig getConfig() {
				return new SailRepositoryConfig(newConfig());
			}
		};
	}

	private static File freshDirectory(File parent) {
		try {
			return Files.createTempDirectory(parent.toPath(), "store").toFile();
		} catch (IOException e) {
			throw new UncheckedIOException("cannot create a store directory below " + parent, e);
		}
	}
}
