package dev.basalt.sail.repository.config;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.config.RepositoryConfigException;
import org.eclipse.rdf4j.repository.config.RepositoryFactory;
import org.eclipse.rdf4j.repository.config.RepositoryImplConfig;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sail.config.SailRepositoryFactory;

import dev.basalt.sail.repository.BasaltRepository;

/**
 * Creates {@link BasaltRepository}s from a {@link BasaltRepositoryConfig}; registered through
 * {@code META-INF/services/org.eclipse.rdf4j.repository.config.RepositoryFactory} under
 * {@value #REPOSITORY_TYPE}, so RDF4J Server, Workbench and Console create it from a template. The
 * sail stack is built by RDF4J's {@link SailRepositoryFactory} from the same configuration, so any
 * sail (usually {@code basalt:BasaltStore}, possibly under an inferencer) can sit beneath. Stateless: any
 * thread may use it.
 */
public final class BasaltRepositoryFactory implements RepositoryFactory {
    public static final String REPOSITORY_TYPE = "basalt:BasaltRepository";

    @Override
    public String getRepositoryType() {
        return REPOSITORY_TYPE;
    }

    @Override
    public RepositoryImplConfig getConfig() {
        return new BasaltRepositoryConfig();
    }

    @Override
    public Repository getRepository(RepositoryImplConfig config) throws RepositoryConfigException {
        if (!(config instanceof BasaltRepositoryConfig basalt)) {
            throw new RepositoryConfigException("a BasaltRepositoryFactory needs a BasaltRepositoryConfig for "
                    + REPOSITORY_TYPE + ", got " + (config == null ? "none" : config.getClass().getName()));
        }
        basalt.validate();
        // SailRepositoryFactory builds the configured sail stack; its SailRepository wrapper is not used
        SailRepository stack = (SailRepository) new SailRepositoryFactory().getRepository(basalt);
        return new BasaltRepository(stack.getSail(), basalt.getQueryShapes(), basalt.getShapePlans());
    }
}
