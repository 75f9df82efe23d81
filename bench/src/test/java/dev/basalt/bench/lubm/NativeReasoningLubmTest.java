package dev.basalt.bench.lubm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.inferencer.fc.SchemaCachingRDFSInferencer;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;
import dev.basalt.sail.load.BasaltLoader;
import dev.basalt.sail.load.LoadOptions;

/**
 * Acceptance of Basalt's native reasoning on the bench's LUBM data (one university, fewer
 * departments than UBA's 15-25 so that the oracles stay fast): with {@code rdfs} the 14 LUBM
 * queries answer exactly what RDF4J's {@code SchemaCachingRDFSInferencer} over a MemoryStore
 * answers; with {@code owl-rl} exactly what Apache Jena's OWL rule reasoner answers (see
 * {@link JenaOracle}). The owl-rl store is built by the bulk loader, the rdfs one through a
 * repository transaction, so both closure paths are covered.
 */
class NativeReasoningLubmTest {
    static final String ONTOLOGY_BASE = "http://swat.cse.lehigh.edu/onto/univ-bench.owl";

    @TempDir
    static Path dir;
    static Path data;
    static Path ontology;

    @BeforeAll
    static void generate() throws IOException {
        data = dir.resolve("lubm.nt");
        new LubmGenerator(1, 0, 2).write(data);
        ontology = dir.resolve("univ-bench.owl");
        try (InputStream in = NativeReasoningLubmTest.class.getResourceAsStream("/lubm/univ-bench.owl")) {
            Files.copy(in, ontology, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    void rdfsAnswersEqualSchemaCachingRdfsInferencer() throws IOException {
        Repository oracle = new SailRepository(new SchemaCachingRDFSInferencer(new MemoryStore()));
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setInference(InferenceMode.RDFS);
        Repository basalt = new SailRepository(new BasaltStore(dir.resolve("rdfs").toFile(), config));
        try {
            for (Repository r : List.of(oracle, basalt)) {
                try (RepositoryConnection c = r.getConnection()) {
                    c.begin();
                    c.add(ontology.toFile(), ONTOLOGY_BASE, RDFFormat.RDFXML);
                    c.add(data.toFile(), RDFFormat.NTRIPLES);
                    c.commit();
                }
            }
            // RDFS alone leaves some LUBM queries without answers (Q10 needs owl:intersectionOf)
            assertSameAnswers(LubmAnswers.of(oracle), LubmAnswers.of(basalt), "SchemaCachingRDFSInferencer", false);
        } finally {
            oracle.shutDown();
            basalt.shutDown();
        }
    }

    @Test
    void owlRlAnswersEqualJenaOwlReasoner() throws IOException {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setInference(InferenceMode.OWL_RL);
        Path store = dir.resolve("owl");
        BasaltLoader.load(store, List.of(ontology), LoadOptions.defaults().withConfig(config).withBaseIri(ONTOLOGY_BASE));
        BasaltLoader.load(store, List.of(data), LoadOptions.defaults().withConfig(config));
        Repository basalt = new SailRepository(new BasaltStore(store.toFile(), config));
        try {
            List<Statement> explicit;
            try (RepositoryConnection c = basalt.getConnection()) {
                explicit = c.getStatements(null, null, null, false).stream().toList();
            }
            Map<String, List<String>> expected = new JenaOracle(explicit).answers();
            assertSameAnswers(expected, LubmAnswers.of(basalt), "Jena's OWL reasoner", true);
        } finally {
            basalt.shutDown();
        }
    }

    private static void assertSameAnswers(Map<String, List<String>> expected, Map<String, List<String>> actual,
            String oracle, boolean everyQueryAnswered) {
        assertEquals(14, expected.size());
        int answered = 0;
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            assertFalse(everyQueryAnswered && e.getValue().isEmpty(), oracle + " gives no answer to " + e.getKey());
            answered += e.getValue().isEmpty() ? 0 : 1;
            List<String> got = actual.get(e.getKey());
            if (!e.getValue().equals(got)) {
                List<String> missing = new java.util.ArrayList<>(e.getValue());
                missing.removeAll(got);
                List<String> extra = new java.util.ArrayList<>(got);
                extra.removeAll(e.getValue());
                throw new AssertionError(e.getKey() + ": Basalt gives " + got.size() + " answers, " + oracle + " "
                        + e.getValue().size() + "; missing (first 5) " + missing.subList(0, Math.min(5, missing.size()))
                        + ", extra (first 5) " + extra.subList(0, Math.min(5, extra.size())));
            }
        }
        assertTrue(answered >= 10, "only " + answered + " LUBM queries have answers: the data or the closure is too thin");
    }
}
