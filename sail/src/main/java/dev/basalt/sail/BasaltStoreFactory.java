package dev.basalt.sail;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.config.SailConfigException;
import org.eclipse.rdf4j.sail.config.SailFactory;
import org.eclipse.rdf4j.sail.config.SailImplConfig;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.BasaltStoreSchema;

/**
 * Creates {@link BasaltStore}s from configuration; registered through
 * {@code META-INF/services/org.eclipse.rdf4j.sail.config.SailFactory} under {@value #SAIL_TYPE}. It
 * lives beside the store, not in {@code config}: the configuration knows nothing of the store it
 * configures (the store reads it), so the two packages form no cycle.
 *
 * <p>Thread-safe: stateless.
 */
public final class BasaltStoreFactory implements SailFactory {
    public static final String SAIL_TYPE = BasaltStoreSchema.SAIL_TYPE;

    @Override
    public String getSailType() {
        return SAIL_TYPE;
    }

    @Override
    public SailImplConfig getConfig() {
        return new BasaltStoreConfig();
    }

    @Override
    public Sail getSail(SailImplConfig config) throws SailConfigException {
        if (!SAIL_TYPE.equals(config.getType())) {
            throw new SailConfigException("a BasaltStoreFactory creates sails of type " + SAIL_TYPE
                    + ", not " + config.getType());
        }
        if (!(config instanceof BasaltStoreConfig)) {
            throw new SailConfigException("expected a BasaltStoreConfig for " + SAIL_TYPE + ", got "
                    + config.getClass().getName());
        }
        BasaltStoreConfig basalt = (BasaltStoreConfig) config;
        basalt.validate();
        return new BasaltStore(basalt);
    }
}
