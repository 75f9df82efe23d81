package dev.basalt.sail.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.config.SailConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.BasaltStoreSchema;
import dev.basalt.sail.config.InferenceMode;

/** The {@code basalt:inference} setting: configuration round trip, and switching it on an existing store. */
class InferenceConfigTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    File dir;

    @Test
    void exportParseRoundTripAndRefusal() {
        BasaltStoreConfig c = new BasaltStoreConfig();
        assertEquals(InferenceMode.NONE, c.getInference());
        c.setInference(InferenceMode.OWL_RL);
        Model m = new LinkedHashModel();
        Resource node = c.export(m);
        assertTrue(m.contains(node, BasaltStoreSchema.INFERENCE, VF.createLiteral("owl-rl")));
        BasaltStoreConfig back = new BasaltStoreConfig();
        back.parse(m, node);
        assertEquals(InferenceMode.OWL_RL, back.getInference());

        m.remove(node, BasaltStoreSchema.INFERENCE, null);
        m.add(node, BasaltStoreSchema.INFERENCE, VF.createLiteral("owl-dl"));
        SailConfigException e = assertThrows(SailConfigException.class, () -> new BasaltStoreConfig().parse(m, node));
        assertTrue(e.getMessage().contains("none, rdfs or owl-rl"), e.getMessage());
    }

    @Test
    void switchingTheRuleSetRecomputesOrRemovesTheClosure() {
        IRI a = VF.createIRI("urn:x:a"), b = VF.createIRI("urn:x:B"), c = VF.createIRI("urn:x:C");
        SailRepository repo = InferenceRepos.open(dir, InferenceMode.NONE);
        try (RepositoryConnection con = repo.getConnection()) {
            con.add(b, RDFS.SUBCLASSOF, c);
            con.add(a, RDF.TYPE, b);
            assertEquals(false, con.hasStatement(a, RDF.TYPE, c, true));
        }
        repo.shutDown();
        repo = InferenceRepos.open(dir, InferenceMode.RDFS);
        try (RepositoryConnection con = repo.getConnection()) {
            assertTrue(con.hasStatement(a, RDF.TYPE, c, true));
            assertEquals(false, con.hasStatement(a, RDF.TYPE, c, false));
            con.remove(a, RDF.TYPE, b);
            assertEquals(false, con.hasStatement(a, RDF.TYPE, c, true));
            con.add(a, RDF.TYPE, b);
            assertTrue(con.hasStatement(a, RDF.TYPE, c, true));
        }
        repo.shutDown();
        repo = InferenceRepos.open(dir, InferenceMode.NONE);
        try (RepositoryConnection con = repo.getConnection()) {
            assertEquals(false, con.hasStatement(a, RDF.TYPE, c, true));
            assertEquals(2, con.size());
        }
        repo.shutDown();
    }

}
