package dev.basalt.store.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThreadRulesCheckTest {
    @TempDir
    Path root;

    private void source(String path, String text) throws IOException {
        Path f = root.resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
    }

    @Test
    void findsClassCommentsWithoutThreadRules() throws IOException {
        source("a/Safe.java", "package a;\n\n/**\n * A value.\n * Immutable; safe to share.\n */\npublic record Safe(int x) {\n}\n");
        source("a/Owned.java", "package a;\n\nimport java.util.List;\n\n/** Not thread-safe: one owner. */\n"
                + "@Deprecated\nfinal class Owned {\n}\n");
        source("a/b/Silent.java", "package a.b;\n\n/** Does things. */\npublic sealed interface Silent permits X {\n"
                + "    /** Thread-safe. */\n    void run();\n}\n");
        source("a/b/Bare.java", "package a.b;\n\nenum Bare { ONE }\n");
        source("a/RuleOnImport.java", "/** Immutable header text. */\npackage a;\n\n/** Counts. */\nclass RuleOnImport {\n}\n");
        source("a/package-info.java", "/** No rules here. */\npackage a;\n");

        assertEquals(List.of("a/RuleOnImport.java", "a/b/Bare.java", "a/b/Silent.java"), ThreadRulesCheck.undocumented(root, 5));
    }

    @Test
    void refusesADirectoryWithTooFewSources() throws IOException {
        source("a/Safe.java", "/** Immutable. */\nclass Safe {\n}\n");
        assertThrows(IllegalArgumentException.class, () -> ThreadRulesCheck.undocumented(root, 2));
        assertThrows(IllegalArgumentException.class, () -> ThreadRulesCheck.undocumented(root.resolve("none"), 0));
    }
}
