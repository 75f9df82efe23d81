package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The layout table is self-consistent. */
class TermIdsTest {
    @Test
    void reservedIdsAreNeitherDictionaryNorInline() {
        for (long id : new long[] { TermIds.NULL, TermIds.DEFAULT_GRAPH }) {
            assertEquals(TermKind.RESERVED, TermIds.kind(id));
            assertFalse(TermIds.isInline(id));
            assertFalse(TermIds.kind(id).isDictionary());
        }
        assertTrue(Long.compareUnsigned(TermIds.DEFAULT_GRAPH, TermIds.firstId(TermIds.KIND_BLANK_NODE)) < 0);
    }

    @Test
    void kindsAreOneNibbleEachAndOrderedLikeSparqlOrderBy() {
        Set<Integer> codes = new HashSet<>();
        for (TermKind k : TermKind.values()) {
            assertTrue(codes.add(k.code()));
            assertEquals(k, TermKind.ofCode(k.code()));
            assertFalse(k.isInline() && k.isDictionary());
            assertEquals(k, TermIds.kind(TermIds.firstId(k.code())));
            assertEquals(k, TermIds.kind(TermIds.lastId(k.code())));
        }
        assertEquals(16, codes.size());
        assertTrue(TermKind.BLANK_NODE.code() < TermKind.IRI.code());
        assertTrue(TermKind.IRI.code() < TermKind.LITERAL.code());
        for (TermKind k : TermKind.values()) {
            if (k.isLiteral()) {
                assertTrue(k.code() > TermKind.IRI.code() && k.code() < TermKind.TRIPLE.code());
            }
        }
    }

    @Test
    void subLayoutsFitTheirPayload() {
        assertTrue(TermIds.STRING_MAX_BYTES * 8 + TermIds.LENGTH_BITS <= TermIds.KIND_SHIFT);
        assertTrue(TermIds.LANG_CODE_BITS + TermIds.LANG_STRING_MAX_BYTES * 8 + TermIds.LENGTH_BITS <= TermIds.KIND_SHIFT);
        assertTrue(LanguageTags.tableSize() < 1 << TermIds.LANG_CODE_BITS);
        assertTrue(KnownDatatypes.size() < 256);
        assertEquals(TermIds.KIND_SHIFT, 56 + TermIds.INTEGER_TYPE_BITS);
        assertTrue(2 + TermIds.DECIMAL_EXPONENT_BITS + TermIds.DECIMAL_SIGNIFICAND_BITS <= TermIds.KIND_SHIFT);
        assertTrue(3 + TermIds.DOUBLE_EXPONENT_BITS + TermIds.DOUBLE_SIGNIFICAND_BITS <= TermIds.KIND_SHIFT);
        assertTrue(Math.pow(10, TermIds.DECIMAL_DIGITS) <= Math.pow(2, TermIds.DECIMAL_SIGNIFICAND_BITS));
        assertTrue(Math.pow(10, TermIds.DOUBLE_DIGITS) <= Math.pow(2, TermIds.DOUBLE_SIGNIFICAND_BITS));
        assertTrue(3 + TermIds.FLOAT_EXPONENT_BITS + TermIds.FLOAT_SIGNIFICAND_BITS <= TermIds.KIND_SHIFT);
        assertTrue(Math.pow(10, TermIds.FLOAT_DIGITS) <= Math.pow(2, TermIds.FLOAT_SIGNIFICAND_BITS));
        assertEquals(TermIds.TIME_LIMIT, 2 * TermIds.TIME_BIAS);
        assertTrue(53 + TermIds.ZONE_BITS <= TermIds.KIND_SHIFT);
        assertTrue(TermIds.ZONE_BIAS + 56 < 1 << TermIds.ZONE_BITS);
    }

    @Test
    void makeRejectsOversizedPayloads() {
        assertThrows(IllegalArgumentException.class, () -> TermIds.make(TermIds.KIND_IRI, 1L << 60));
        assertThrows(IllegalArgumentException.class, () -> TermIds.make(16, 0));
        assertEquals(0xF000_0000_0000_0001L, TermIds.make(TermIds.KIND_TRIPLE, 1));
        assertEquals(TermIds.KIND_TRIPLE, TermIds.kindCode(0xF000_0000_0000_0001L));
    }
}
