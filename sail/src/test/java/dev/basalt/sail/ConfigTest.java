package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.model.vocabulary.CONFIG;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.config.ConfigTemplate;
import org.eclipse.rdf4j.repository.config.RepositoryConfig;
import org.eclipse.rdf4j.repository.manager.LocalRepositoryManager;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.config.SailConfigException;
import org.eclipse.rdf4j.sail.config.SailRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.BasaltStoreSchema;
import dev.basalt.sail.repository.BasaltRepository;
import dev.basalt.store.journal.JournalMode;

/** Configuration vocabulary, factory registration and the repository template through a RepositoryManager. */
class ConfigTest {
    @TempDir
    File dir;

    @Test
    void exportParseRoundTrip() {
        BasaltStoreConfig c = new BasaltStoreConfig();
        c.setJournalMode(JournalMode.WORM);
        c.setHistoryRetention(Duration.ofMinutes(30));
        c.setStatementIndexes("spoc,cspo");
        c.setLeafMaxEntries(64);
        c.setInternalMaxEntries(96);
        c.setPageCacheBytes(1 << 20);
        c.setValueCacheSize(500);
        c.setValueIdCacheSize(600);
        c.setDurable(false);
        c.setLargeTransactionThreshold(0);
        c.setLargeTransactionIdleSeconds(5);
        Model m = new LinkedHashModel();
        Resource node = c.export(m);
        BasaltStoreConfig back = new BasaltStoreConfig();
        back.parse(m, node);
        back.validate();
        assertEquals(JournalMode.WORM, back.getJournalMode());
        assertEquals(Duration.ofMinutes(30), back.getHistoryRetention());
        assertEquals("spoc,cspo", back.getStatementIndexes());
        assertEquals(64, back.getLeafMaxEntries());
        assertEquals(96, back.getInternalMaxEntries());
        assertEquals(1 << 20, back.getPageCacheBytes());
        assertEquals(500, back.getValueCacheSize());
        assertEquals(600, back.getValueIdCacheSize());
        assertEquals(false, back.isDurable());
        assertEquals(0, back.getLargeTransactionThreshold());
        assertEquals(5, back.getLargeTransactionIdleSeconds());
        assertEquals(BasaltStoreConfig.DEFAULT_LARGE_TRANSACTION_THRESHOLD,
                new BasaltStoreConfig().getLargeTransactionThreshold());
        assertEquals(BasaltStoreFactory.SAIL_TYPE, back.getType());
    }

    @Test
    void invalidValuesGiveClearMessages() {
        BasaltStoreConfig c = new BasaltStoreConfig();
        c.setStatementIndexes("spoc,spox");
        SailConfigException e = assertThrows(SailConfigException.class, c::validate);
        assertTrue(e.getMessage().contains("spox"), e.getMessage());

        Model m = new LinkedHashModel();
        Resource node = new BasaltStoreConfig().export(m);
        m.remove(node, BasaltStoreSchema.HISTORY_RETENTION, null);
        m.add(node, BasaltStoreSchema.HISTORY_RETENTION, SimpleValueFactory.getInstance().createLiteral("one hour"));
        e = assertThrows(SailConfigException.class, () -> new BasaltStoreConfig().parse(m, node));
        assertTrue(e.getMessage().contains("ISO-8601"), e.getMessage());
    }

    @Test
    void factoryIsRegistered() {
        assertTrue(SailRegistry.getInstance().get(BasaltStoreFactory.SAIL_TYPE).isPresent());
    }

    @Test
    void mismatchingIndexesAreRefused() {
        SailRepository repo = TestRepos.open(dir);
        repo.shutDown();
        BasaltStoreConfig other = TestRepos.fastConfig();
        other.setStatementIndexes("spoc,posc");
        SailRepository again = new SailRepository(new BasaltStore(dir, other));
        Exception e = assertThrows(Exception.class, again::init);
        Throwable cause = e instanceof SailException ? e : e.getCause();
        assertTrue(cause.getMessage().contains("spoc,posc,ospc,cspo"), cause.getMessage());
        BasaltStoreConfig same = TestRepos.fastConfig();
        same.setStatementIndexes("spoc, posc, ospc, cspo");
        SailRepository ok = new SailRepository(new BasaltStore(dir, same));
        ok.init();
        ok.shutDown();
    }

    @Test
    void repositoryManagerCreatesBasaltRepositoryFromTemplate() throws Exception {
        String template;
        try (InputStream in = getClass().getClassLoader()
                .getResourceAsStream("org/eclipse/rdf4j/repository/config/basalt.ttl")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        ConfigTemplate t = new ConfigTemplate(template);
        Map<String, String> values = new HashMap<>();
        values.put("Repository ID", "test-basalt");
        values.put("Repository title", "Test Basalt");
        values.put("Journal mode", "WORM");
        values.put(dev.basalt.sail.config.BasaltSettings.DURABLE.label(), "false");
        values.put("Query shapes", "250");
        values.put("Keep shape plans", "false");
        String rendered = t.render(values);
        Model model = Rio.parse(new java.io.StringReader(rendered), "", RDFFormat.TURTLE);
        Resource repoNode = Models.subject(model.filter(null, org.eclipse.rdf4j.model.vocabulary.RDF.TYPE,
                CONFIG.Rep.Repository)).orElseThrow();
        RepositoryConfig config = RepositoryConfig.create(model, repoNode);

        LocalRepositoryManager manager = new LocalRepositoryManager(dir);
        manager.init();
        try {
            manager.addRepositoryConfig(config);
            Repository repo = manager.getRepository("test-basalt");
            try (RepositoryConnection c = repo.getConnection()) {
                c.add(SimpleValueFactory.getInstance().createIRI("http://example.org/s"), CONFIG.Rep.id,
                        SimpleValueFactory.getInstance().createLiteral("x"));
                assertEquals(1, c.size());
            }
            BasaltRepository basalt = assertInstanceOf(BasaltRepository.class, repo,
                    "the template creates Basalt's own repository type");
            assertEquals(250, basalt.front.getCapacity());
            assertEquals(false, basalt.front.isKeepingPlans(), "basalt:shapePlans from the template");
            BasaltStore sail = (BasaltStore) basalt.getSail();
            assertEquals(JournalMode.WORM, sail.getConfig().getJournalMode());
            assertEquals(false, sail.getConfig().isDurable());
            assertEquals("spoc,posc,ospc,cspo", sail.getConfig().getStatementIndexes());
        } finally {
            manager.shutDown();
        }
        manager = new LocalRepositoryManager(dir);
        manager.init();
        try (RepositoryConnection c = manager.getRepository("test-basalt").getConnection()) {
            assertEquals(1, c.size(), "the repository and its data are there after a restart");
        } finally {
            manager.shutDown();
        }
    }
}
