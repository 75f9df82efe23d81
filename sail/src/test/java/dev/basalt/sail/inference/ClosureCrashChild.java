package dev.basalt.sail.inference;

import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;

/**
 * Child JVM of {@link ClosureCrashTest}: runs random transactions on a durable owl-rl store until
 * it is killed, printing {@code COMMITTED n} after each. Arguments: store directory, seed.
 */
public final class ClosureCrashChild {
    private ClosureCrashChild() {
    }

    public static void main(String[] args) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setInference(InferenceMode.OWL_RL);
        SailRepository repo = new SailRepository(new BasaltStore(new java.io.File(args[0]), config));
        repo.init();
        Random r = new Random(Long.parseLong(args[1]));
        List<Statement> pool = ClosureModelTest.pool(new Random(7));
        try (RepositoryConnection c = repo.getConnection()) {
            if (c.isEmpty()) {
                c.add(ClosureModelTest.fixed());
            }
        }
        for (long n = 0;; n++) {
            ClosureModelTest.randomTransaction(repo, pool, r, null);
            System.out.println("COMMITTED " + n);
            System.out.flush();
        }
    }
}
