package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;

class LargeTermKeysTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @Test
    void keysOverTheThresholdAreHashedToAFixedSize() {
        byte[] atLimit = TermKeys.encode(VF.createLiteral("x".repeat(LargeTermKeys.THRESHOLD - 1)));
        byte[] overLimit = TermKeys.encode(VF.createLiteral("x".repeat(LargeTermKeys.THRESHOLD)));
        assertEquals(LargeTermKeys.THRESHOLD, atLimit.length);
        assertSame(atLimit, LargeTermKeys.term2IdKey(atLimit));
        byte[] hashed = LargeTermKeys.term2IdKey(overLimit);
        assertEquals(LargeTermKeys.KEY_LENGTH, hashed.length);
        assertTrue(LargeTermKeys.isHashed(hashed));
        assertFalse(LargeTermKeys.isHashed(atLimit));
        assertEquals(TermKeys.STRING | 0x80, hashed[0] & 0xFF);
        assertEquals(0, LargeTermKeys.ordinal(hashed));
    }

    @Test
    void prefixIsDeterministicAndOrdinalsExtendIt() {
        byte[] full = TermKeys.encode(VF.createIRI("http://example.org/" + "p".repeat(5000)));
        byte[] other = TermKeys.encode(VF.createIRI("http://example.org/" + "p".repeat(4999) + "q"));
        byte[] prefix = LargeTermKeys.prefix(full);
        assertArrayEquals(prefix, LargeTermKeys.prefix(full.clone()));
        assertFalse(Arrays.equals(prefix, LargeTermKeys.prefix(other)));
        byte[] third = LargeTermKeys.key(full, 0x01020304);
        assertArrayEquals(prefix, Arrays.copyOf(third, LargeTermKeys.PREFIX_LENGTH));
        assertEquals(0x01020304, LargeTermKeys.ordinal(third));
        assertTrue(Arrays.compareUnsigned(LargeTermKeys.key(full, 1), LargeTermKeys.key(full, 2)) < 0);
        assertThrows(IllegalArgumentException.class, () -> LargeTermKeys.key(full, -1));
    }

    @Test
    void digestIsSha256OfTheFullKey() throws Exception {
        byte[] full = TermKeys.encode(VF.createLiteral("y".repeat(2000), "en"));
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(full);
        assertArrayEquals(Arrays.copyOf(digest, 16), Arrays.copyOfRange(LargeTermKeys.prefix(full), 1, 17));
    }
}
