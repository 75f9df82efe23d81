package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/** A kept plan run without RDF4J's evaluation holds its snapshot only until its result is closed. */
class KeptPlanLeaseTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://ex.org/";

    @TempDir
    File dir;

    @Test
    void aDirectRunReleasesItsSnapshotWhenItsResultCloses() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        BasaltStore store = new BasaltStore(dir, config);
        BasaltRepository repo = new BasaltRepository(store, 10);
        try {
            try (RepositoryConnection c = repo.getConnection()) {
                for (int i = 0; i < 5; i++) {
                    IRI s = VF.createIRI(EX + "s" + i);
                    c.add(s, VF.createIRI(EX + "p"), VF.createIRI(EX + "o" + i));
                    c.add(s, VF.createIRI(EX + "p"), VF.createIRI(EX + "other"));
                }
            }
            try (RepositoryConnection c = repo.getConnection()) {
                for (int i = 0; i < 8; i++) {
                    try (TupleQueryResult r = c.prepareTupleQuery(
                            "SELECT ?o WHERE { <" + EX + "s" + (i % 5) + "> <" + EX + "p> ?o }").evaluate()) {
                        assertTrue(r.hasNext());
                        r.next(); // one of two rows read: the result is closed unfinished
                        assertEquals(1, store.nativeQueries().running(), "query " + i + " holds its snapshot");
                    }
                    assertEquals(0, store.nativeQueries().running(), "query " + i + " released its snapshot");
                }
            }
            assertTrue(store.getNativeQueryStats().shapePlansRunDirectly() >= 5,
                    "direct runs: " + store.getNativeQueryStats().shapePlansRunDirectly());
        } finally {
            repo.shutDown();
        }
    }
}
