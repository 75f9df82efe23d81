package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.rdf4j.query.algebra.evaluation.EvaluationStrategyFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategyFactory;
import org.junit.jupiter.api.Test;

/**
 * The store's evaluation strategy factory carries the store's iteration cache threshold and result-size tracking
 * whenever either is set, before or after the factory is made or replaced, so reading it per query needs no lock.
 */
class EvaluationStrategySettingsTest {
    @Test
    void settingsReachTheFactoryWhenEverTheyAreSet() {
        BasaltStore store = new BasaltStore();
        store.setIterationCacheSyncThreshold(1234);
        EvaluationStrategyFactory made = store.getEvaluationStrategyFactory();
        assertEquals(1234, made.getQuerySolutionCacheThreshold());
        assertFalse(made.isTrackResultSize());
        assertSame(made, store.getEvaluationStrategyFactory(), "made once");

        store.setTrackResultSize(true);
        store.setIterationCacheSyncThreshold(99);
        assertTrue(made.isTrackResultSize());
        assertEquals(99, made.getQuerySolutionCacheThreshold());

        EvaluationStrategyFactory own = new DefaultEvaluationStrategyFactory();
        store.setEvaluationStrategyFactory(own);
        assertSame(own, store.getEvaluationStrategyFactory());
        assertTrue(own.isTrackResultSize(), "a factory set later gets the store's settings");
        assertEquals(99, own.getQuerySolutionCacheThreshold());
        store.setTrackResultSize(false);
        assertFalse(own.isTrackResultSize());
    }
}
