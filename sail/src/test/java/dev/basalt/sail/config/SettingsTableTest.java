package dev.basalt.sail.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.config.ConfigTemplate;
import org.eclipse.rdf4j.repository.config.RepositoryConfig;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Test;

import dev.basalt.sail.repository.config.BasaltRepositoryConfig;

/**
 * Every place the settings table {@link BasaltSettings} drives agrees with it: the vocabulary's
 * constants, the configuration codec (each setting's example survives parse and export), the
 * Console template ({@code basalt.ttl}: each setting's line, and its defaults parse and validate),
 * the stacked templates ({@code basalt-rdfs.ttl}, {@code basalt-lucene.ttl}: each store setting's
 * line, and their defaults give a valid store configuration), and the operator guide's settings
 * table (one generated row per setting, nothing stale). The
 * Workbench's template and form are checked by the workbench-config module's
 * {@code CreateFormSettingsTest}.
 */
class SettingsTableTest {
    @Test
    void vocabularyConstantsAreTheTable() throws IllegalAccessException {
        Set<IRI> constants = new LinkedHashSet<>();
        for (Class<?> c : List.of(BasaltStoreSchema.class, BasaltRepositoryConfig.class)) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == IRI.class) {
                    constants.add((IRI) f.get(null));
                }
            }
        }
        Set<IRI> table = new LinkedHashSet<>();
        for (BasaltSettings s : BasaltSettings.values()) {
            table.add(s.iri());
        }
        assertEquals(table, constants, "the IRI constants of the vocabulary and the settings table");
    }

    @Test
    void everyExampleSurvivesParseAndExport() {
        for (BasaltSettings s : BasaltSettings.values()) {
            Model filled = fill(consoleTemplate(), Map.of(s.label(), s.example()));
            RepositoryConfig config = RepositoryConfig.create(filled, null);
            config.validate();
            Model exported = new LinkedHashModel();
            config.export(exported, SimpleValueFactory.getInstance().createBNode());
            List<String> values = exported.filter(null, s.iri(), null).objects().stream()
                    .map(v -> ((Literal) v).getLabel()).collect(Collectors.toList());
            assertEquals(List.of(s.example()), values, s.localName() + ": parsed from the template and exported");
        }
    }

    @Test
    void consoleTemplateAsksForEverySetting() throws IOException {
        String template = consoleTemplate();
        List<String> missing = new ArrayList<>();
        for (BasaltSettings s : BasaltSettings.values()) {
            if (!template.contains(s.templateLine())) {
                missing.add(s.templateLine());
            }
        }
        assertEquals(List.of(), missing, "lines the Console template basalt.ttl lacks");
        long basaltLines = template.lines().filter(l -> l.trim().startsWith(BasaltStoreSchema.PREFIX + ":")).count();
        assertEquals(BasaltSettings.values().length, basaltLines, "basalt: lines of the Console template");
    }

    @Test
    void stackedTemplatesAskForEveryStoreSetting() {
        for (String name : List.of("basalt-rdfs", "basalt-lucene")) {
            String template = template(name);
            List<String> expected = new ArrayList<>();
            for (BasaltSettings s : BasaltSettings.values()) {
                if (s.scope() == BasaltSettings.Scope.STORE) {
                    expected.add(s.templateLine() + " ;");
                }
            }
            List<String> lines = template.lines().map(String::trim)
                    .filter(l -> l.startsWith(BasaltStoreSchema.PREFIX + ":")).collect(Collectors.toList());
            assertEquals(expected, lines, "basalt: lines of " + name + ".ttl, in table order");
            // the sails stacked on top are not on this module's class path: the Basalt node is read alone
            Model filled = fill(template, Map.of());
            List<org.eclipse.rdf4j.model.Resource> nodes = new ArrayList<>(filled.filter(null,
                    SimpleValueFactory.getInstance().createIRI("tag:rdf4j.org,2023:config/sail.type"),
                    SimpleValueFactory.getInstance().createLiteral(BasaltStoreSchema.SAIL_TYPE)).subjects());
            assertEquals(1, nodes.size(), name + ": one Basalt store in the stack");
            BasaltStoreConfig store = new BasaltStoreConfig();
            store.parse(filled, nodes.get(0));
            store.validate();
            assertEquals(BasaltStoreConfig.DEFAULT_INDEXES, store.getStatementIndexes(), name);
            assertEquals(dev.basalt.optimizer.exec.ParallelMode.AUTO, store.getParallel(), name);
            Model exported = new LinkedHashModel();
            store.export(exported);
            assertEquals(List.of(BasaltStoreConfig.DEFAULT_INDEXES), exported.filter(null, BasaltStoreSchema.STATEMENT_INDEXES, null)
                    .objects().stream().map(v -> v.stringValue()).collect(Collectors.toList()), name);
        }
    }

    @Test
    void consoleTemplateDefaultsMakeAValidConfiguration() {
        Model filled = fill(consoleTemplate(), Map.of());
        RepositoryConfig config = RepositoryConfig.create(filled, null);
        config.validate();
        BasaltRepositoryConfig repo = (BasaltRepositoryConfig) config.getRepositoryImplConfig();
        BasaltStoreConfig store = (BasaltStoreConfig) repo.getSailImplConfig();
        assertEquals(BasaltStoreConfig.DEFAULT_INDEXES, store.getStatementIndexes());
        assertEquals(-1, store.getLeafMaxEntries(), "an empty field leaves the setting unset");
        assertEquals(1000, repo.getQueryShapes());
    }

    @Test
    void operatorGuideTableHasOneRowPerSetting() throws IOException {
        Path guide = Path.of("..", "docs", "operator-guide.md");
        List<String> rows = Files.readAllLines(guide, StandardCharsets.UTF_8).stream().map(String::trim)
                .filter(l -> l.startsWith("| ") && l.contains("`" + BasaltStoreSchema.PREFIX + ":"))
                .collect(Collectors.toList());
        List<String> expected = new ArrayList<>();
        for (BasaltSettings s : BasaltSettings.values()) {
            expected.add(s.guideRow());
        }
        assertEquals(String.join("\n", expected), String.join("\n", rows),
                "the rows of docs/operator-guide.md's settings table naming a basalt: property, in table order");
    }

    private static String consoleTemplate() {
        return template("basalt");
    }

    private static String template(String name) {
        try (InputStream in = BasaltSettings.class.getResourceAsStream(
                "/org/eclipse/rdf4j/repository/config/" + name + ".ttl")) {
            assertTrue(in != null, name + ".ttl on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The template with its fields filled: the given answers by label, the defaults elsewhere. */
    private static Model fill(String template, Map<String, String> answers) {
        ConfigTemplate t = new ConfigTemplate(template);
        Map<String, String> values = new HashMap<>();
        for (Map.Entry<String, List<String>> field : t.getVariableMap().entrySet()) {
            List<String> choices = field.getValue();
            values.put(field.getKey(), answers.getOrDefault(field.getKey(), choices.isEmpty() ? "" : choices.get(0)));
        }
        try {
            return Rio.parse(new java.io.StringReader(t.render(values)), "", RDFFormat.TURTLE);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
