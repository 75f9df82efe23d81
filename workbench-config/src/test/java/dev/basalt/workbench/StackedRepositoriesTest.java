package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * RDF4J's own sails stacked on Basalt as users configure them in RDF4J Server, through the REST API: the
 * {@code basalt-lucene} template (LuceneSail over Basalt) answers {@code search:matches}, the {@code basalt-rdfs}
 * template (SchemaCachingRDFSInferencer over Basalt) answers a query that only inference makes true, and a plain
 * Basalt repository reads another repository of the same server through a SPARQL {@code SERVICE} call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StackedRepositoriesTest {
    static final String EX = "http://example.org/stack/";

    @TempDir
    static Path data;
    private LauncherProcess launcher;
    private Rest rest;

    @BeforeAll
    void start() throws Exception {
        launcher = new LauncherProcess(data, LauncherProcess.OUTPUT.resolve("launcher-stacked.log"), "--no-repository")
                .start();
        rest = new Rest(launcher.serverUrl());
    }

    @AfterAll
    void stop() throws Exception {
        launcher.close();
    }

    /** The template shipped in Basalt's jar with its variables filled in: the id given, every other at its default. */
    static String template(String name, String id) throws IOException {
        String resource = "/org/eclipse/rdf4j/repository/config/" + name + ".ttl";
        try (InputStream in = StackedRepositoriesTest.class.getResourceAsStream(resource)) {
            assertNotNull(in, resource + " is in Basalt's jar");
            String ttl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = Pattern.compile("\\{%([^|%]+)\\|([^|%]*)[^%]*%\\}").matcher(ttl);
            StringBuilder filled = new StringBuilder();
            while (m.find()) {
                String value = m.group(1).equals("Repository ID") ? id : m.group(2);
                m.appendReplacement(filled, Matcher.quoteReplacement(value));
            }
            m.appendTail(filled);
            return filled.toString();
        }
    }

    @Test
    void luceneOnBasaltAnswersFullTextSearch() throws IOException {
        Rest.Response created = rest.createRepository("lucene", template("basalt-lucene", "lucene"));
        assertEquals(204, created.status(), created.body());
        Rest.Response added = rest.add("lucene", "text/turtle", "@prefix ex: <" + EX + "> .\n"
                + "ex:a ex:text \"Basalt is a fine-grained volcanic rock\" .\n"
                + "ex:b ex:text \"Granite is a coarse-grained intrusive rock\" .\n"
                + "ex:c ex:note \"nothing about stones here\" .");
        assertEquals(204, added.status(), added.body());
        Rest.Response found = rest.query("lucene", """
                PREFIX search: <http://www.openrdf.org/contrib/lucenesail#>
                SELECT ?s WHERE { ?s search:matches [ search:query "volcanic" ] }""", "text/csv");
        assertEquals(200, found.status(), found.body());
        assertEquals(List.of(EX + "a"), rows(found.body()));
        Rest.Response both = rest.query("lucene", """
                PREFIX search: <http://www.openrdf.org/contrib/lucenesail#>
                SELECT ?s WHERE { ?s search:matches [ search:query "rock" ] } ORDER BY ?s""", "text/csv");
        assertEquals(List.of(EX + "a", EX + "b"), rows(both.body()));
        assertEquals(3, rest.size("lucene"), "the statements themselves are in Basalt");
    }

    @Test
    void rdfsInferencerOnBasaltAnswersInferredQuery() throws IOException {
        Rest.Response created = rest.createRepository("rdfs", template("basalt-rdfs", "rdfs"));
        assertEquals(204, created.status(), created.body());
        Rest.Response added = rest.add("rdfs", "text/turtle", "@prefix ex: <" + EX + "> .\n"
                + "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
                + "ex:Cat rdfs:subClassOf ex:Mammal . ex:Mammal rdfs:subClassOf ex:Animal .\n"
                + "ex:owns rdfs:range ex:Pet .\n"
                + "ex:tom a ex:Cat . ex:ann ex:owns ex:rex .");
        assertEquals(204, added.status(), added.body());
        assertEquals(List.of(EX + "tom"), rows(rest.query("rdfs", "SELECT ?x WHERE { ?x a <" + EX + "Animal> }", "text/csv").body()));
        assertEquals(List.of(EX + "rex"), rows(rest.query("rdfs", "SELECT ?x WHERE { ?x a <" + EX + "Pet> }", "text/csv").body()));
        Rest.Response explicitOnly = rest.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(rest.repositoryUrl("rdfs")
                        + "?infer=false&query=" + Rest.encode("SELECT ?x WHERE { ?x a <" + EX + "Animal> }")))
                .header("Accept", "text/csv").GET());
        assertEquals(200, explicitOnly.status(), explicitOnly.body());
        assertTrue(rows(explicitOnly.body()).isEmpty(), "infer=false hides the inferred type: " + explicitOnly.body());
    }

    @Test
    void basaltQueriesAnotherEndpointThroughService() throws IOException {
        assertEquals(204, rest.createRepository("remote", ServerRestApiTest.config("remote", "basalt:journalMode \"RW\"")).status());
        assertEquals(204, rest.createRepository("local", ServerRestApiTest.config("local", "basalt:journalMode \"RW\"")).status());
        assertEquals(204, rest.add("remote", "text/turtle", "<" + EX + "p1> <" + EX + "name> \"Ada\" . <" + EX + "p2> <"
                + EX + "name> \"Grace\" .").status());
        assertEquals(204, rest.add("local", "text/turtle", "<" + EX + "p1> <" + EX + "born> 1815 .").status());
        Rest.Response joined = rest.query("local", "SELECT ?name ?born WHERE { ?p <" + EX + "born> ?born . SERVICE <"
                + rest.repositoryUrl("remote") + "> { ?p <" + EX + "name> ?name } }", "text/csv");
        assertEquals(200, joined.status(), joined.body());
        assertEquals(List.of("Ada,1815"), rows(joined.body()));
    }

    private static List<String> rows(String csv) {
        return csv.lines().skip(1).map(String::trim).filter(l -> !l.isEmpty()).toList();
    }
}
