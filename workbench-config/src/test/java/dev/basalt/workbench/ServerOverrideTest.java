package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's override descriptor for RDF4J Server: the compressing filter's settings from system properties. */
class ServerOverrideTest {
    @TempDir
    Path scratch;

    @AfterEach
    void clearProperties() {
        System.clearProperty(WebappAssembly.GZIP_LEVEL_PROPERTY);
        System.clearProperty(WebappAssembly.GZIP_THRESHOLD_PROPERTY);
    }

    @Test
    void defaultsAndSetValuesReachTheCompressingFilter() throws IOException {
        String defaults = Files.readString(WebappAssembly.installServerOverride(scratch), StandardCharsets.UTF_8);
        assertTrue(defaults.contains(param("compressionLevel", WebappAssembly.DEFAULT_GZIP_LEVEL)), defaults);
        assertTrue(defaults.contains(param("compressionThreshold", WebappAssembly.DEFAULT_GZIP_THRESHOLD)), defaults);
        assertTrue(defaults.contains("dev.basalt.sail.http.SparqlFastPath"), defaults);

        System.setProperty(WebappAssembly.GZIP_LEVEL_PROPERTY, "9");
        System.setProperty(WebappAssembly.GZIP_THRESHOLD_PROPERTY, "0");
        String set = Files.readString(WebappAssembly.installServerOverride(scratch), StandardCharsets.UTF_8);
        assertTrue(set.contains(param("compressionLevel", 9)), set);
        assertTrue(set.contains(param("compressionThreshold", 0)), set);
    }

    @Test
    void refusesValuesOutOfRange() {
        for (String level : new String[] {"0", "10", "fast", ""}) {
            System.setProperty(WebappAssembly.GZIP_LEVEL_PROPERTY, level);
            assertThrows(IllegalArgumentException.class, () -> WebappAssembly.installServerOverride(scratch), level);
        }
        System.clearProperty(WebappAssembly.GZIP_LEVEL_PROPERTY);
        System.setProperty(WebappAssembly.GZIP_THRESHOLD_PROPERTY, "-1");
        assertThrows(IllegalArgumentException.class, () -> WebappAssembly.installServerOverride(scratch));
    }

    private static String param(String name, int value) {
        return "<param-name>" + name + "</param-name>\n\t\t\t<param-value>" + value + "</param-value>";
    }
}
