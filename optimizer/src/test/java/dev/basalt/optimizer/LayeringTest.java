package dev.basalt.optimizer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps the engine's packages pointing one way (docs/optimizer.md): access, then exec, plan and
 * rdf4j, each using only the ones before it; and of the store only the lexicon's id layer and the
 * spatial index's value types (geometry bounds, the nearest-point cursor a {@code SpatialIndexReader}
 * of the access API hands out).
 */
class LayeringTest {
    private static final List<String> LAYERS = List.of("access", "exec", "plan", "rdf4j");

    @Test
    void packagesDependOnlyOnLowerLayers() throws IOException {
        Path root = Path.of("src/main/java/dev/basalt/optimizer");
        Pattern own = Pattern.compile("dev\\.basalt\\.optimizer\\.(\\w+)\\.[A-Z]");
        Pattern store = Pattern.compile("dev\\.basalt\\.store\\.(\\w+)\\.[A-Z]");
        int files = 0;
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path f : (Iterable<Path>) walk.filter(p -> p.toString().endsWith(".java"))::iterator) {
                files++;
                String pkg = root.relativize(f.getParent()).toString();
                int from = LAYERS.indexOf(pkg);
                assertTrue(from >= 0, "package '" + pkg + "' has no place in " + LAYERS);
                String text = Files.readString(f);
                Matcher m = own.matcher(text);
                while (m.find()) {
                    int to = LAYERS.indexOf(m.group(1));
                    assertTrue(to >= 0 && to <= from, f + " must not use dev.basalt.optimizer." + m.group(1));
                }
                Matcher s = store.matcher(text);
                while (s.find()) {
                    assertTrue(s.group(1).equals("lexicon") || s.group(1).equals("spatial"), f + " reads the store other than through QuadSource: "
                            + s.group());
                }
            }
        }
        assertTrue(files > 0, "no sources under " + root.toAbsolutePath());
    }
}
