package dev.basalt.store;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the storage layers pointing one way (DESIGN.md section 1): each package of
 * {@code dev.basalt.store} may use only the packages below it, so there are no cycles.
 */
class LayeringTest {
    /**
     * Lower layers first; a package may depend on the ones listed before it. The lexicon sits above
     * the store's transaction and snapshot API ("") because its dictionary lives in store trees and
     * commits with the statements that use it. The cache is a utility used by the B+tree and the
     * lexicon.
     */
    private static final List<String> LAYERS = List.of("cache", "io", "journal", "btree", "quads", "", "spatial", "lexicon", "cli");

    @Test
    void packagesDependOnlyOnLowerLayers() throws IOException {
        Path root = Path.of("src/main/java/dev/basalt/store");
        Pattern ref = Pattern.compile("dev\\.basalt\\.store(?:\\.(\\w+))?\\.[A-Z]");
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String pkg = root.relativize(f.getParent()).toString().replace('/', '.');
                Matcher m = ref.matcher(Files.readString(f));
                while (m.find()) {
                    String target = m.group(1) == null ? "" : m.group(1);
                    if (!target.equals(pkg)) {
                        uses.computeIfAbsent(pkg, k -> new TreeSet<>()).add(target);
                    }
                }
            }
        }
        assertTrue(!uses.isEmpty(), "no sources found under " + root.toAbsolutePath());
        for (Map.Entry<String, Set<String>> e : uses.entrySet()) {
            int from = LAYERS.indexOf(e.getKey());
            assertTrue(from >= 0, "package '" + e.getKey() + "' has no place in the layer list " + LAYERS);
            for (String target : e.getValue()) {
                int to = LAYERS.indexOf(target);
                assertTrue(to >= 0 && to < from, "dev.basalt.store." + e.getKey() + " must not use dev.basalt.store."
                        + target + " (layers, lowest first: " + LAYERS + ")");
            }
        }
    }
}
