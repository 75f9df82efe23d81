package dev.basalt.replication.config;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.config.SailConfigException;
import org.eclipse.rdf4j.sail.config.SailFactory;
import org.eclipse.rdf4j.sail.config.SailImplConfig;

import dev.basalt.replication.ReplicatedSail;

/**
 * Creates {@link ReplicatedSail}s from a {@link ReplicatedStoreConfig}; registered through
 * {@code META-INF/services/org.eclipse.rdf4j.sail.config.SailFactory} under {@value #SAIL_TYPE}.
 * RDF4J's repository factory builds the delegate Basalt store and stacks this sail on it
 * ({@link ReplicatedSail#setBaseSail}). Stateless: any thread may use it.
 */
public final class ReplicatedStoreFactory implements SailFactory {
    public static final String SAIL_TYPE = "basalt:ReplicatedStore";

    @Override
    public String getSailType() {
        return SAIL_TYPE;
    }

    @Override
    public SailImplConfig getConfig() {
        return new ReplicatedStoreConfig();
    }

    @Override
    public Sail getSail(SailImplConfig config) throws SailConfigException {
        if (!(config instanceof ReplicatedStoreConfig replicated)) {
            throw new SailConfigException("a ReplicatedStoreFactory needs a ReplicatedStoreConfig for " + SAIL_TYPE
                    + ", got " + (config == null ? "none" : config.getClass().getName()));
        }
        replicated.validate();
        return new ReplicatedSail(replicated.getSettings());
    }
}
