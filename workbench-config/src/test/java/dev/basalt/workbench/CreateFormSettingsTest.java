package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import dev.basalt.sail.config.BasaltSettings;

/**
 * The Workbench's template ({@code basalt.ttl}) and form ({@code create-basalt.xsl}) follow the
 * settings table {@link BasaltSettings}: the template has each setting's line and no other
 * {@code basalt:} line; the form has one field per setting, named by its question (the template
 * fills a field by that name), with the table's default (the selected option of a choice) and
 * choices, and no field for a setting the table does not know.
 */
class CreateFormSettingsTest {
    private static final String DIR = "/dev/basalt/workbench/workbench/";
    /** Fields of the form that are not Basalt settings. */
    private static final Set<String> OTHER_FIELDS = Set.of("type", "id", "title", "iterationCacheSyncThreshold");

    @Test
    void templateAsksForEverySetting() throws Exception {
        String template = new String(resource("basalt.ttl").readAllBytes(), StandardCharsets.UTF_8);
        List<String> missing = new ArrayList<>();
        for (BasaltSettings s : BasaltSettings.values()) {
            if (!template.contains(s.templateLine())) {
                missing.add(s.templateLine());
            }
        }
        assertEquals(List.of(), missing, "lines the Workbench template basalt.ttl lacks");
        long basaltLines = template.lines().filter(l -> l.trim().startsWith("basalt:")).count();
        assertEquals(BasaltSettings.values().length, basaltLines, "basalt: lines of the Workbench template");
    }

    @Test
    void formHasOneFieldPerSetting() throws Exception {
        Document form;
        try (InputStream in = resource("create-basalt.xsl")) {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            form = f.newDocumentBuilder().parse(in);
        }
        Map<String, Element> fields = new LinkedHashMap<>();
        for (String tag : List.of("input", "select")) {
            NodeList nodes = form.getElementsByTagName(tag);
            for (int i = 0; i < nodes.getLength(); i++) {
                Element e = (Element) nodes.item(i);
                boolean button = e.getAttribute("type").equals("button");
                if (!button && !e.getAttribute("id").isEmpty() && !OTHER_FIELDS.contains(e.getAttribute("id"))) {
                    fields.put(e.getAttribute("id"), e);
                }
            }
        }
        for (BasaltSettings s : BasaltSettings.values()) {
            Element field = fields.remove(s.localName());
            assertNotNull(field, "create-basalt.xsl has no field with id " + s.localName());
            assertEquals(s.label(), field.getAttribute("name"), s.localName() + ": the field's name is the template's question");
            if (s.choices().size() > 1) {
                assertEquals("select", field.getTagName(), s.localName());
                NodeList options = field.getElementsByTagName("option");
                List<String> values = new ArrayList<>();
                String selected = null;
                for (int i = 0; i < options.getLength(); i++) {
                    Element o = (Element) options.item(i);
                    values.add(o.getAttribute("value"));
                    if (o.hasAttribute("selected")) {
                        selected = o.getAttribute("value");
                    }
                }
                assertEquals(s.choices(), values, s.localName() + ": the options");
                assertEquals(s.defaultText(), selected, s.localName() + ": the selected option");
            } else {
                assertEquals(s.defaultText(), field.getAttribute("value"), s.localName() + ": the field's default");
            }
        }
        assertEquals(Map.of(), fields, "fields of create-basalt.xsl that are not in the settings table");
    }

    private static InputStream resource(String name) {
        InputStream in = CreateFormSettingsTest.class.getResourceAsStream(DIR + name);
        assertNotNull(in, DIR + name + " on the class path");
        return in;
    }
}
