package dev.basalt.sail.repository.config;

import java.util.Optional;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.repository.config.RepositoryConfigException;
import org.eclipse.rdf4j.repository.sail.config.SailRepositoryConfig;
import org.eclipse.rdf4j.sail.config.SailImplConfig;

import dev.basalt.sail.config.BasaltSettings;
import dev.basalt.sail.config.BasaltStoreSchema;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * Configuration of a {@link BasaltRepository}: a {@link SailRepositoryConfig} (its sail stack is
 * configured exactly as for RDF4J's {@code openrdf:SailRepository}, in either configuration
 * vocabulary) of type {@value BasaltRepositoryFactory#REPOSITORY_TYPE}, plus the number of query
 * shapes its query front door keeps ({@link #QUERY_SHAPES}, default
 * {@link BasaltRepository#DEFAULT_QUERY_SHAPES}; 0 parses every query) and whether it keeps compiled plans
 * with them ({@link #SHAPE_PLANS}, default true).
 *
 * <p>Only API that RDF4J 4.1 and 5.0 share is used: the Workbench (4.1.3) parses and re-exports
 * this configuration before RDF4J Server (5.0.3) creates the repository from it. Not thread-safe,
 * like RDF4J's other configuration objects: one thread builds or parses it.
 */
public class BasaltRepositoryConfig extends SailRepositoryConfig {
    /** Query shapes the repository keeps parsed, a non-negative integer; 0 turns the cache off. */
    public static final IRI QUERY_SHAPES = BasaltSettings.QUERY_SHAPES.iri();

    /** Whether compiled plans are kept with the query shapes, a boolean; false compiles every query. */
    public static final IRI SHAPE_PLANS = BasaltSettings.SHAPE_PLANS.iri();

    private int queryShapes = BasaltRepository.DEFAULT_QUERY_SHAPES;
    private boolean shapePlans = true;

    public BasaltRepositoryConfig() {
        setType(BasaltRepositoryFactory.REPOSITORY_TYPE);
    }

    public BasaltRepositoryConfig(SailImplConfig sail) {
        super(sail);
        setType(BasaltRepositoryFactory.REPOSITORY_TYPE);
    }

    public int getQueryShapes() {
        return queryShapes;
    }

    public void setQueryShapes(int queryShapes) {
        if (queryShapes < 0) {
            throw new IllegalArgumentException(QUERY_SHAPES + " must be a non-negative integer, found " + queryShapes);
        }
        this.queryShapes = queryShapes;
    }

    public boolean getShapePlans() {
        return shapePlans;
    }

    public void setShapePlans(boolean shapePlans) {
        this.shapePlans = shapePlans;
    }

    @Override
    public Resource export(Model m) {
        Resource node = super.export(m);
        m.setNamespace(BasaltStoreSchema.PREFIX, BasaltStoreSchema.NAMESPACE);
        m.add(node, QUERY_SHAPES, SimpleValueFactory.getInstance().createLiteral(queryShapes));
        m.add(node, SHAPE_PLANS, SimpleValueFactory.getInstance().createLiteral(shapePlans));
        return node;
    }

    @Override
    public void parse(Model m, Resource node) throws RepositoryConfigException {
        super.parse(m, node);
        Optional<Literal> shapes = Models.objectLiteral(m.getStatements(node, QUERY_SHAPES, null));
        if (shapes.isPresent()) {
            String text = shapes.get().getLabel().trim();
            try {
                queryShapes = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                queryShapes = -1;
            }
            if (queryShapes < 0) {
                throw new RepositoryConfigException(QUERY_SHAPES + " must be a non-negative integer (0 turns the "
                        + "query front door off), found '" + shapes.get().getLabel() + "'");
            }
        }
        Optional<Literal> plans = Models.objectLiteral(m.getStatements(node, SHAPE_PLANS, null));
        if (plans.isPresent()) {
            String text = plans.get().getLabel().trim();
            if (!text.equals("true") && !text.equals("false")) {
                throw new RepositoryConfigException(SHAPE_PLANS + " must be true or false, found '"
                        + plans.get().getLabel() + "'");
            }
            shapePlans = Boolean.parseBoolean(text);
        }
    }
}
