package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.basalt.sail.config.TreeSettings;
import dev.basalt.sail.read.StatementSet;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.lexicon.Lexicon;

/**
 * Which trees of a Basalt store write compressed pages (docs/FORMAT.md sections 3, 5.2, 5.3): the
 * statement trees of both sets and TERM2ID do, ID2TERM and every other tree do not; the statement
 * trees keep their id-tuple keys and 4 KiB pages.
 */
class CompressedTreesTest {
    @Test
    void statementTreesAndTermToIdCompress() {
        StoreConfig config = TreeSettings.withLexiconTrees(TreeSettings.withStatementTrees(StoreConfig.defaults()));
        for (StatementSet set : StatementSet.values()) {
            BTreeConfig statements = config.treePrefixes().get(set.treePrefix());
            assertTrue(statements.compressPages(), set.name());
            assertEquals(4, statements.idTupleWidth());
            assertEquals(TreeSettings.STATEMENT_PAGE_BYTES, statements.maxPageBytes());
        }
        assertTrue(config.treePrefixes().get(Lexicon.TERM_TO_ID).compressPages());
        assertFalse(config.treePrefixes().get(Lexicon.ID_TO_TERM).compressPages());
        assertFalse(config.defaultTree().compressPages());
    }
}
