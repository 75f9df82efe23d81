package dev.basalt.store.lexicon;

import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;

/** A non-durable store in a temporary directory and a lexicon with small caches, for the lexicon's store tests. */
abstract class StoreFixture {
    static final ValueFactory VF = SimpleValueFactory.getInstance();
    @TempDir
    Path dir;
    Store store;
    Lexicon lexicon;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("basalt.jnl"), StoreConfig.defaults()
                .withJournal(StoreConfig.defaults().journal().withDurable(false)));
        lexicon = new Lexicon(new LexiconConfig(1000, 1000, 100));
    }

    /** Adds {@code terms} in one committed transaction and empties the lexicon's caches; returns their ids. */
    long[] commitTerms(List<? extends Value> terms) {
        long[] ids;
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            ids = w.getOrCreateAll(terms);
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        lexicon.clearCaches();
        return ids;
    }

    @AfterEach
    void close() {
        store.close();
    }
}
