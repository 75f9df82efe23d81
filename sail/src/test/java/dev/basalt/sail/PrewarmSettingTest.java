package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.config.SailConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.BasaltStoreSchema;
import dev.basalt.sail.ops.StorePrewarm;

/**
 * The store setting {@code basalt:prewarm}: written and read back as set, left out when unset, a clear error when
 * not a boolean; a store opened with it off reads nothing into its caches, with it on its pages and terms.
 */
class PrewarmSettingTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    File dir;

    @Test
    void roundTrips() {
        for (Boolean value : new Boolean[] { Boolean.TRUE, Boolean.FALSE }) {
            BasaltStoreConfig c = new BasaltStoreConfig();
            c.setPrewarm(value);
            Model m = new LinkedHashModel();
            Resource node = c.export(m);
            assertEquals(value.toString(),
                    Models.objectLiteral(m.filter(node, BasaltStoreSchema.PREWARM, null)).map(Literal::getLabel).orElse(null));
            BasaltStoreConfig back = new BasaltStoreConfig();
            back.parse(m, node);
            assertEquals(value, back.getPrewarm());
        }
        Model m = new LinkedHashModel();
        Resource node = new BasaltStoreConfig().export(m);
        assertTrue(m.filter(node, BasaltStoreSchema.PREWARM, null).isEmpty(), "an unset prewarm is not written");
        BasaltStoreConfig back = new BasaltStoreConfig();
        back.parse(m, node);
        assertNull(back.getPrewarm());

        m.add(node, BasaltStoreSchema.PREWARM, VF.createLiteral("off"));
        SailConfigException e = assertThrows(SailConfigException.class, () -> new BasaltStoreConfig().parse(m, node));
        assertTrue(e.getMessage().contains("prewarm") && e.getMessage().contains("'off'"), e.getMessage());
    }

    @Test
    void offReadsNothingAtOpen() {
        SailRepository repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            for (int i = 0; i < 200; i++) {
                c.add(VF.createIRI("http://e/s" + i), VF.createIRI("http://e/p"), VF.createLiteral("value " + i));
            }
        } finally {
            repo.shutDown();
        }
        Path journal = dir.toPath().resolve(BasaltStore.JOURNAL_FILE);

        BasaltStoreConfig off = TestRepos.fastConfig();
        off.setPrewarm(false);
        BasaltSailStore store = BasaltSailStore.open(journal, off);
        try {
            assertNull(store.prewarmed(), "prewarm off, yet the store read its caches at open");
        } finally {
            store.close();
        }

        BasaltStoreConfig on = TestRepos.fastConfig();
        on.setPrewarm(true);
        store = BasaltSailStore.open(journal, on);
        try {
            StorePrewarm.Outcome read = store.prewarmed();
            assertNotNull(read, "prewarm on, yet the store read nothing at open");
            assertTrue(read.pages().pages() > 0, "pages read: " + read.pages().pages());
            assertTrue(read.terms() >= 200, "terms read: " + read.terms());
            assertTrue(read.rehearsedEvictions() > 0, "evictions rehearsed: " + read.rehearsedEvictions());
        } finally {
            store.close();
        }
    }

    /**
     * A store larger than its caches gets them filled whole at open, not in part: the first queries' misses then
     * replace entries rather than add young objects that every young collection among those queries copies.
     */
    @Test
    void fillsTheWholeCachesOfAStoreLargerThanThem() {
        SailRepository repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (int i = 0; i < 20_000; i++) {
                c.add(VF.createIRI("http://e/s" + i), VF.createIRI("http://e/p" + (i % 7)),
                        VF.createLiteral("a value long enough to take room in a page, number " + i));
            }
            c.commit();
        } finally {
            repo.shutDown();
        }
        BasaltStoreConfig small = TestRepos.fastConfig();
        small.setPrewarm(true);
        long pageBudget = 256 << 10;
        small.setPageCacheBytes(pageBudget);
        small.setValueCacheSize(2_000);
        BasaltSailStore store = BasaltSailStore.open(dir.toPath().resolve(BasaltStore.JOURNAL_FILE), small);
        try {
            StorePrewarm.Outcome read = store.prewarmed();
            assertNotNull(read);
            assertFalse(read.pages().complete(), "the store should not fit its page cache: " + read);
            assertTrue(read.cachedPageBytes() >= pageBudget, "page cache filled to " + read.cachedPageBytes()
                    + " bytes of " + pageBudget);
            assertEquals(2_000, read.terms(), "terms read into a value cache of 2,000");
        } finally {
            store.close();
        }
    }

    @Test
    void theSettingWinsOverTheJvmWideDefault() {
        assertFalse(StorePrewarm.enabled(Boolean.FALSE, "true"));
        assertTrue(StorePrewarm.enabled(Boolean.TRUE, "false"));
        assertFalse(StorePrewarm.enabled(null, "false"));
        assertTrue(StorePrewarm.enabled(null, null));
    }
}
