package dev.basalt.sail;

import java.io.File;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

import org.eclipse.rdf4j.model.Namespace;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;

import dev.basalt.sail.config.BasaltStoreConfig;

/** Helpers shared by the sail tests. */
final class TestRepos {
    private TestRepos() {
    }

    static BasaltStoreConfig fastConfig() {
        BasaltStoreConfig c = new BasaltStoreConfig();
        c.setDurable(false);
        return c;
    }

    /**
     * A fast configuration whose pending-change models spill to disk from their first statement;
     * transactions stay in their branches however large (no write-through).
     */
    static BasaltStoreConfig spillEverything() {
        BasaltStoreConfig c = fastConfig();
        c.setSpillThreshold(1);
        c.setLargeTransactionThreshold(0);
        return c;
    }

    /**
     * A fast configuration whose isolated transactions write through into the store from their first addition, and
     * lose the writer after one idle second when another connection waits to commit.
     */
    static BasaltStoreConfig writeThroughEverything() {
        BasaltStoreConfig c = fastConfig();
        c.setLargeTransactionThreshold(1);
        c.setLargeTransactionIdleSeconds(1);
        return c;
    }

    static SailRepository open(File dir) {
        return open(dir, fastConfig());
    }

    static SailRepository open(File dir, BasaltStoreConfig config) {
        SailRepository repo = new SailRepository(new BasaltStore(dir, config));
        repo.init();
        return repo;
    }

    /** Adds {@code data} to each repository, in one transaction each. */
    static void addAll(List<Statement> data, Repository... repos) {
        for (Repository r : repos) {
            try (RepositoryConnection c = r.getConnection()) {
                c.add(data);
            }
        }
    }

    /** An initialized MemoryStore repository holding {@code data}: the reference results come from it. */
    static SailRepository memoryWith(List<Statement> data) {
        SailRepository memory = new SailRepository(new MemoryStore());
        memory.init();
        addAll(data, memory);
        return memory;
    }

    /** Every explicit statement and namespace, as comparable sets. */
    record Dump(Set<Statement> statements, TreeMap<String, String> namespaces) {
    }

    static Dump dump(SailRepository repo) {
        try (RepositoryConnection c = repo.getConnection()) {
            List<Statement> all = c.getStatements(null, null, null, false).stream().toList();
            TreeMap<String, String> ns = new TreeMap<>();
            for (Namespace n : c.getNamespaces().stream().toList()) {
                ns.put(n.getPrefix(), n.getName());
            }
            return new Dump(new HashSet<>(all), ns);
        }
    }
}
