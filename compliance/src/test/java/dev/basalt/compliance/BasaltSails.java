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

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * The one place where the compliance suites get the store under test.
 *
 * <p>
 * Every suite obtains its store, repository, configuration or repository factory here, so the whole module can be
 * pointed at another SAIL by changing this class alone. Stores built directly get a fresh, empty data directory
 * below the parent the caller owns (normally a JUnit {@code @TempDir}), so a test that builds several stores never
 * sees another store's files. Stores built from a configuration get their data directory from the test, through
 * {@code Repository.setDataDir}, as RDF4J's repository manager does.
 *
 * <p>
 * With {@code -Dbasalt.compliance.store=memory} every suite runs on RDF4J's MemoryStore instead: the reference that
 * tells whether a failure is Basalt's or the suite's.
 */
final class BasaltSails {

    /** The system property that chooses the store under test: {@code basalt} (the default) or {@code memory}. */
    static final String STORE_PROPERTY = "basalt.compliance.store";

    private static final boolean REFERENCE = chooseReference();

    private BasaltSails() {
    }

    /**
     * A new, uninitialized store in a fresh directory below {@code parent}; a Basalt store's native evaluation
     * counters count in {@link NativeCoverage}.
     */
    static NotifyingSail newStore(File parent) {
        File dataDir = freshDirectory(parent);
        if (REFERENCE) {
            return new MemoryStore(dataDir);
        }
        BasaltStore store = new BasaltStore(dataDir);
        NativeCoverage.track(store.getNativeQueryStats());
        return store;
    }

    /**
     * Like {@link #newRepository(File)}, but the store's isolated transactions write through into the store from
     * their first addition ({@code largeTransactionThreshold} 1), so a suite runs every transaction that adds on the
     * large-transaction path.
     */
    static Repository newWriteThroughRepository(File parent) {
        File dataDir = freshDirectory(parent);
        if (REFERENCE) {
            return new SailRepository(new MemoryStore(dataDir));
        }
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setLargeTransactionThreshold(1);
        BasaltStore store = new BasaltStore(dataDir, config);
        NativeCoverage.track(store.getNativeQueryStats());
        return new BasaltRepository(store);
    }

    /**
     * A new, uninitialized repository over {@link #newStore(File)}: a {@link BasaltRepository}, so the suites
     * also run every query through its query template cache.
     */
    static Repository newRepository(File parent) {
        return new BasaltRepository(newStore(parent));
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
        return REFERENCE ? new MemoryStoreConfig() : new BasaltStoreConfig();
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

    private static boolean chooseReference() {
        String store = System.getProperty(STORE_PROPERTY, "basalt");
        return switch (store) {
            case "basalt" -> false;
            case "memory" -> true;
            default -> throw new IllegalArgumentException(
                    STORE_PROPERTY + "=" + store + " names no store; use basalt (the default) or memory");
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
