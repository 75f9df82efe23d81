package dev.basalt.sail.inference;

import java.io.File;

import org.eclipse.rdf4j.repository.sail.SailRepository;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;

/** Opens test repositories with a rule set. */
final class InferenceRepos {
    private InferenceRepos() {
    }

    /** A non-durable Basalt repository in {@code dir} keeping the closure under {@code mode}. */
    static SailRepository open(File dir, InferenceMode mode) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setInference(mode);
        SailRepository repo = new SailRepository(new BasaltStore(dir, config));
        repo.init();
        return repo;
    }
}
