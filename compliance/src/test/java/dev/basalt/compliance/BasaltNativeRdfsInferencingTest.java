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
 * closure: every case but one runs (domain, range, subclass, subproperty and vocabulary typing
 * entailment, and the error cases that must conclude nothing from a literal class); the one off
 * expects a rule native rdfs leaves out, with the reason below.
 */
class BasaltNativeRdfsInferencingTest extends InferencingTest {
    /** Why one case is off. */
    private static final String MEMBERSHIP_BY_NAME = "expects rdf:_1 and rdf:_11 typed "
            + "rdfs:ContainerMembershipProperty because they are used as predicates (the infinitely many rdf:_n axioms), which native rdfs does not "
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
    @Disabled(MEMBERSHIP_BY_NAME)
    public void testType005() {
    }
}
