package dev.basalt.sail.query;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.repository.BasaltRepository;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Two new non-durable repositories for each test of the shape caches: {@link #cached} keeps up to
 * {@link #shapesKept()} query shapes, {@link #reference} keeps none, so what the first answers can be
 * compared with what a store without caches answers. A subclass's own {@code @BeforeEach} methods run after
 * both are open (JUnit runs a superclass's first); both are shut down after each test.
 */
abstract class CachedAgainstReference {
    static final ValueFactory VF = SimpleValueFactory.getInstance();
    static final String EX = "http://ex.org/";
    static final String PREFIX = "PREFIX ex: <" + EX + "> PREFIX rdfs: <" + RDFS.NAMESPACE + "> ";

    @TempDir
    Path dir;

    BasaltRepository cached;
    BasaltRepository reference;

    /** How many query shapes {@link #cached} keeps. */
    abstract int shapesKept();

    static IRI ex(String local) {
        return VF.createIRI(EX + local);
    }

    private static BasaltRepository repository(Path dir, int shapes) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        return new BasaltRepository(new BasaltStore(dir.toFile(), config), shapes);
    }

    @BeforeEach
    void openBoth() {
        cached = repository(dir.resolve("cached"), shapesKept());
        reference = repository(dir.resolve("reference"), 0);
    }

    @AfterEach
    void closeBoth() {
        cached.shutDown();
        reference.shutDown();
    }

    /** Runs {@code writes} on a connection of each repository, so both hold the same statements. */
    void addToBoth(java.util.function.Consumer<org.eclipse.rdf4j.repository.RepositoryConnection> writes) {
        for (BasaltRepository repo : List.of(cached, reference)) {
            try (org.eclipse.rdf4j.repository.RepositoryConnection c = repo.getConnection()) {
                writes.accept(c);
            }
        }
    }

    /** What a prepared query answers, as sorted lines: each solution, each statement, or the boolean. */
    static List<String> sortedLines(Query q) {
        List<String> lines = new ArrayList<>();
        if (q instanceof TupleQuery t) {
            try (TupleQueryResult r = t.evaluate()) {
                for (BindingSet b : r) {
                    lines.add(b.toString());
                }
            }
        } else if (q instanceof GraphQuery g) {
            g.evaluate().forEach(st -> lines.add(st.toString()));
        } else {
            lines.add(Boolean.toString(((BooleanQuery) q).evaluate()));
        }
        Collections.sort(lines);
        return lines;
    }
}
