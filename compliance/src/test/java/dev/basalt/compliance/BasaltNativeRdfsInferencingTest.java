package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.InferencingTest;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;

/**
 * RDF4J's {@code InferencingTest} (RDF semantics entailment cases) with Basalt's native {@code rdfs}
 * closure: the twelve cases on domain, range, subclass and subproperty entailment and their error
 * cases (no conclusion from a literal class) run; nine that expect the vocabulary typing rules are
 * off, with the reason below.
 */
class BasaltNativeRdfsInferencingTest extends InferencingTest {
    /** Why nine cases are off: each expects a conclusion of a rule native rdfs leaves out on purpose. */
    private static final String VOCABULARY_TYPING = "expects rdf:Property / rdfs:Resource / rdfs:Class / "
            + "rdfs:Datatype / rdfs:ContainerMembershipProperty typing, reflexive subClassOf, or rdf:List typing by the "
            + "axiomatic triples (rdf1, rdfs4a/b, rdfs6, rdfs8, rdfs10, rdfs12, rdfs13), which native rdfs does not "
            + "produce (docs/sail.md, Reasoning)";

    @TempDir
    File stores;

    @Override
    protected Sail createSail() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setInference(InferenceMode.RDFS);
        return new BasaltStore(new File(stores, "s" + System.nanoTime()), config);
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testSubClassOf002() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testSubClassOf003() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testSubPropertyOf002() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testSubPropertyOf004() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testType001() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testType003() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testType004() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testType005() {
    }

    @Override
    @Test
    @Disabled(VOCABULARY_TYPING)
    public void testType006() {
    }
}
