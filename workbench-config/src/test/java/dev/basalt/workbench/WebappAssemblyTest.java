package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.workbench.render.XsltRenderFilter;

/**
 * The assembled webapps: Basalt listed once on the Workbench's type list whatever the number of
 * launches, its jars in both WEB-INF/lib (the Workbench's server-side XSLT filter and its
 * override descriptor in the Workbench only), and Basalt's config classes (compiled against RDF4J
 * 5.0.3) working on the Workbench's RDF4J 4.1.3, checked in a child JVM on that webapp's class path.
 */
class WebappAssemblyTest {
    static final Path HOME = LauncherProcess.HOME;
    static final Path WORKBENCH = HOME.resolve("webapps/rdf4j-workbench");
    static final Path SERVER = HOME.resolve("webapps/rdf4j-server");

    @BeforeAll
    static void assemble() throws Exception {
        for (int i = 0; i < 2; i++) {
            WebappAssembly.installIntoServer(HOME.resolve("basalt-lib"), SERVER);
            WebappAssembly.installIntoWorkbench(HOME.resolve("basalt-lib"), WORKBENCH);
        }
    }

    @Test
    void listsBasaltOnceAndShipsFormAndTemplate() throws Exception {
        String types = Files.readString(WORKBENCH.resolve(WebappAssembly.TYPE_LIST), StandardCharsets.UTF_8);
        assertEquals(1, types.split("value=\"basalt\"", -1).length - 1, types);
        String form = Files.readString(WORKBENCH.resolve(WebappAssembly.FORM), StandardCharsets.UTF_8);
        String template = Files.readString(WORKBENCH.resolve(WebappAssembly.TEMPLATE), StandardCharsets.UTF_8);
        // every variable label of the template is a field of the form, and the other way round
        List<String> labels = java.util.regex.Pattern.compile("\\{%([^|%]+)").matcher(template.replaceAll("(?m)^#.*$", "")).results()
                .map(m -> m.group(1)).toList();
        List<String> fields = java.util.regex.Pattern.compile("<(?:input|select)[^>]*?name=\"([^\"]+)\"").matcher(form).results()
                .map(m -> m.group(1)).filter(n -> !n.equals("type")).toList();
        assertEquals(labels.stream().sorted().toList(), fields.stream().sorted().toList());
    }

    @Test
    void putsBasaltJarsIntoBothWebapps() throws Exception {
        for (Path webapp : List.of(SERVER, WORKBENCH)) {
            for (String jar : new File(HOME.resolve("basalt-lib").toString()).list()) {
                boolean expected = webapp == WORKBENCH || !jar.equals(WebappAssembly.RENDER_JAR);
                assertEquals(expected, Files.exists(webapp.resolve("WEB-INF/lib").resolve(jar)), webapp + ": " + jar);
            }
        }
    }

    @Test
    void theWorkbenchGetsTheServerSideXsltFilter(@TempDir Path scratch) throws Exception {
        String descriptor = Files.readString(WebappAssembly.installWorkbenchOverride(scratch), StandardCharsets.UTF_8);
        assertTrue(descriptor.contains("<filter-class>" + XsltRenderFilter.class.getName() + "</filter-class>"),
                descriptor);
        assertTrue(descriptor.contains("<url-pattern>/repositories/*</url-pattern>"), descriptor);
        try (JarFile jar = new JarFile(HOME.resolve("basalt-lib").resolve(WebappAssembly.RENDER_JAR).toFile())) {
            List<String> classes = jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class")).toList();
            assertTrue(classes.contains(XsltRenderFilter.class.getName().replace('.', '/') + ".class"), classes.toString());
            assertTrue(classes.stream().allMatch(n -> n.startsWith("dev/basalt/workbench/render/")), classes.toString());
        }
    }

    @Test
    void basaltConfigWorksOnTheWorkbenchsRdf4j413() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = String.join(File.pathSeparator, HOME.resolve("test-classes").toString(),
                WORKBENCH.resolve("WEB-INF/classes").toString(), WORKBENCH.resolve("WEB-INF/lib") + File.separator + "*");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", classPath, WorkbenchConfigCheck.class.getName())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("OK") && output.contains("rdf4j-repository-api-4.1.3.jar"), output);
    }
}
