package dev.basalt.workbench;

import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.repository.config.ConfigTemplate;
import org.eclipse.rdf4j.repository.config.RepositoryConfig;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;

/**
 * Runs in a child JVM on the Workbench webapp's own class path (RDF4J 4.1.3 plus Basalt's jars)
 * and does what the Workbench's CreateServlet does with the Basalt form: read the template, fill
 * it, parse it, build and validate the RepositoryConfig (through Basalt's RepositoryFactory,
 * SailFactory and their configurations, compiled against 5.0.3) and export it as it is sent to the server. Prints
 * {@code OK} when every step worked; any linkage error surfaces as an exception.
 */
public final class WorkbenchConfigCheck {
    static final String LEGACY = "http://www.openrdf.org/config/repository#";

    public static void main(String[] args) throws Exception {
        String template;
        try (InputStream in = RepositoryConfig.class.getResourceAsStream("/org/eclipse/rdf4j/repository/config/basalt.ttl")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> form = Map.of("Repository ID", "checked", "Journal mode", "WORM",
                "History retention", "PT5M", "Statement indexes", "spoc,posc", "Durable commits", "false",
                "Query shapes", "300");
        Model exported = configFrom(template, form);
        IRI journalMode = SimpleValueFactory.getInstance().createIRI("http://basalt.dev/config/sail#journalMode");
        IRI indexes = SimpleValueFactory.getInstance().createIRI("http://basalt.dev/config/sail#statementIndexes");
        require(Models.objectLiteral(exported.filter(null, journalMode, null)).orElseThrow().getLabel().equals("WORM"),
                "journal mode exported: " + exported);
        require(Models.objectLiteral(exported.filter(null, indexes, null)).orElseThrow().getLabel().equals("spoc,posc"),
                "indexes exported: " + exported);
        IRI repositoryType = SimpleValueFactory.getInstance().createIRI(LEGACY, "repositoryType");
        require(Models.objectLiteral(exported.filter(null, repositoryType, null)).orElseThrow().getLabel()
                .equals("basalt:BasaltRepository"), "repository type exported: " + exported);
        IRI queryShapes = SimpleValueFactory.getInstance().createIRI("http://basalt.dev/config/sail#queryShapes");
        require(Models.objectLiteral(exported.filter(null, queryShapes, null)).orElseThrow().getLabel().equals("300"),
                "query shapes exported: " + exported);

        try {
            configFrom(template, Map.of("Repository ID", "bad", "Journal mode", "APPEND"));
            throw new AssertionError("journal mode APPEND was accepted");
        } catch (RuntimeException e) {
            require(String.valueOf(e.getMessage()).contains("must be RW or WORM"), "message: " + e);
        }
        System.out.println("OK " + RepositoryConfig.class.getProtectionDomain().getCodeSource().getLocation());
    }

    static Model configFrom(String template, Map<String, String> form) throws Exception {
        String rendered = new ConfigTemplate(template).render(form);
        Model model = Rio.parse(new StringReader(rendered), LEGACY, RDFFormat.TURTLE);
        IRI repositoryClass = SimpleValueFactory.getInstance().createIRI(LEGACY, "Repository");
        Resource node = Models.subject(model.filter(null, RDF.TYPE, repositoryClass))
                .orElseThrow(() -> new AssertionError("no rep:Repository in the rendered template:\n" + rendered));
        RepositoryConfig config = RepositoryConfig.create(model, node);
        config.validate();
        Model exported = new LinkedHashModel();
        config.export(exported, SimpleValueFactory.getInstance().createBNode());
        return exported;
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
