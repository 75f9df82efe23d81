package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps the sail's packages to their jobs (docs/sail.md, "Packages"): {@code read} and {@code ops}
 * use no other package of the sail, {@code write} only {@code read} (and reasoning and spilling),
 * {@code query} only {@code read} and {@code ops}; none of them reaches up to the SAIL's own
 * classes in {@code dev.basalt.sail}. {@code config} builds a value the store reads and knows
 * nothing of the store (its factory is in {@code dev.basalt.sail}). The other packages are held to
 * what they use now, and the allowed uses have no cycle: no package reaches itself through them.
 * Code is checked, not comments.
 */
class LayeringTest {
    /** Package (relative to dev.basalt.sail, "" for it) to the packages it may use. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("read", Set.of()),
            Map.entry("ops", Set.of()),
            Map.entry("errors", Set.of()),
            Map.entry("spill", Set.of()),
            Map.entry("write", Set.of("read", "inference", "spill")),
            Map.entry("query", Set.of("read", "ops")),
            Map.entry("inference", Set.of("config")),
            Map.entry("config", Set.of("read", "spill")),
            Map.entry("", Set.of("read", "write", "query", "ops", "config", "inference", "spill", "errors")),
            Map.entry("load", Set.of("", "config", "inference", "write", "read")),
            Map.entry("cli", Set.of("", "config", "load")),
            Map.entry("repository", Set.of("", "query", "load", "errors", "read")),
            Map.entry("repository/config", Set.of("repository", "config")),
            Map.entry("http", Set.of("repository", "errors", "query")),
            Map.entry("http/client", Set.of()));
    private static final Pattern OWN = Pattern.compile("dev\\.basalt\\.sail\\.((?:[a-z]\\w*\\.)*)[A-Z]");
    private static final Pattern COMMENTS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void packagesUseOnlyWhatTheirJobAllows() throws IOException {
        Path root = Path.of("src/main/java/dev/basalt/sail");
        List<String> violations = new ArrayList<>();
        Map<String, Set<String>> used = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path f : (Iterable<Path>) walk.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String pkg = root.relativize(f.getParent()).toString().replace('\\', '/');
                Set<String> allowed = ALLOWED.get(pkg);
                assertTrue(allowed != null, "package '" + pkg + "' has no place in LayeringTest.ALLOWED");
                String code = COMMENTS.matcher(Files.readString(f)).replaceAll("");
                Matcher m = OWN.matcher(code);
                while (m.find()) {
                    String to = m.group(1).isEmpty() ? "" : m.group(1).substring(0, m.group(1).length() - 1).replace('.', '/');
                    if (!to.equals(pkg)) {
                        used.computeIfAbsent(pkg, k -> new TreeSet<>()).add(to);
                        if (!allowed.contains(to)) {
                            violations.add(f + " uses dev.basalt.sail" + (to.isEmpty() ? "" : "." + to.replace('/', '.')));
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), violations, "uses between the sail's packages that their jobs do not allow");
        assertTrue(used.containsKey(""), "no sources read under " + root.toAbsolutePath());
    }

    /**
     * Through the packages they may use, {@code read}, {@code ops}, {@code write}, {@code query}
     * and {@code config} never reach {@code dev.basalt.sail}.
     */
    @Test
    void theLowerPackagesDoNotReachTheSail() {
        for (String lower : List.of("read", "ops", "write", "query", "config")) {
            assertTrue(!reaches(lower, "", new TreeSet<>()), lower + " reaches dev.basalt.sail through " + ALLOWED.get(lower));
        }
    }

    /** No package reaches itself through the uses allowed: the packages form no cycle. */
    @Test
    void thePackagesHaveNoCycle() {
        List<String> cyclic = new ArrayList<>();
        for (String pkg : new TreeSet<>(ALLOWED.keySet())) {
            for (String to : ALLOWED.get(pkg)) {
                if (to.equals(pkg) || reaches(to, pkg, new TreeSet<>())) {
                    cyclic.add(pkg + " -> " + to);
                }
            }
        }
        assertEquals(List.of(), cyclic, "uses allowed in ALLOWED that lead back to their own package");
    }

    private static boolean reaches(String from, String target, Set<String> seen) {
        if (!seen.add(from)) {
            return false;
        }
        for (String to : ALLOWED.getOrDefault(from, Set.of())) {
            if (to.equals(target) || reaches(to, target, seen)) {
                return true;
            }
        }
        return false;
    }
}
