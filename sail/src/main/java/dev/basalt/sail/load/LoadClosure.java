package dev.basalt.sail.load;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.SailLayout;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;
import dev.basalt.sail.inference.ClosureStore;
import dev.basalt.sail.inference.Reasoner;
import dev.basalt.sail.inference.ReasonerTerms;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * The closure step of a bulk load into a store kept closed under a rule set: after the explicit
 * statements are in, the inferred ones are recomputed in the load's own transaction, so the load's
 * one commit holds both. The rule set is the load configuration's {@code inference} if it names
 * one, else the one recorded in the store ({@value SailLayout#INFERENCE_PROPERTY}). Stateless; it runs
 * on the loading thread, inside the load's transaction.
 */
final class LoadClosure {
    private static final Logger LOG = LoggerFactory.getLogger(LoadClosure.class);

    private LoadClosure() {
    }

    /** Recomputes the closure if the store keeps one and the load changed it; true if it wrote anything. */
    static boolean close(WriteTransaction tx, List<QuadOrder> orders, LexiconWriter lex, BasaltStoreConfig config,
            boolean added, Path dataDir, Path scratchDir) {
        byte[] recorded = tx.property(SailLayout.INFERENCE_PROPERTY);
        InferenceMode stored = recorded == null ? InferenceMode.NONE
                : InferenceMode.parse(new String(recorded, StandardCharsets.UTF_8));
        InferenceMode mode = config.getInference() != InferenceMode.NONE ? config.getInference() : stored;
        if (mode == InferenceMode.NONE || !added && mode == stored) {
            return false;
        }
        long start = System.nanoTime();
        QuadIndexes explicit = SailLayout.explicitIndexes(tx, orders);
        QuadIndexes inferred = SailLayout.inferredIndexes(tx, orders);
        Runnable clear = () -> orders.forEach(o -> tx.tree(SailLayout.inferredTree(o)).clear());
        long n = new Reasoner(mode).closeFully(new ClosureStore(explicit, inferred, clear, scratchDir),
                ReasonerTerms.of(lex::getOrCreate, id -> lex.resolve(id, SimpleValueFactory.getInstance())));
        tx.setProperty(SailLayout.INFERENCE_PROPERTY, mode.label().getBytes(StandardCharsets.UTF_8));
        LOG.info("load into {}: {} closure, {} inferred statements in {} ms", dataDir, mode.label(), n,
                (System.nanoTime() - start) / 1_000_000);
        return true;
    }
}
