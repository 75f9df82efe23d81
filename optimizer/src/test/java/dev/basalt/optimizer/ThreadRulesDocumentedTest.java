package dev.basalt.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.basalt.store.testing.ThreadRulesCheck;

/**
 * Every top-level type of {@code dev.basalt.optimizer} and its subpackages states its thread rules
 * in its class comment (see {@link ThreadRulesCheck}).
 */
class ThreadRulesDocumentedTest {
    @Test
    void everyClassCommentStatesItsThreadRules() {
        assertEquals(List.of(), ThreadRulesCheck.undocumented(Path.of("src/main/java/dev/basalt/optimizer"), 85),
                "class comments without a line on their thread rules");
    }
}
