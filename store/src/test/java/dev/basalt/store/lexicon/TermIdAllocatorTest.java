package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.basalt.store.journal.StoreException;

class TermIdAllocatorTest {
    @Test
    void eachDictionaryKindCountsFromOne() {
        TermIdAllocator a = new TermIdAllocator();
        assertEquals(TermIds.make(TermIds.KIND_IRI, 1), a.allocate(TermKind.IRI));
        assertEquals(TermIds.make(TermIds.KIND_IRI, 2), a.allocate(TermKind.IRI));
        assertEquals(TermIds.make(TermIds.KIND_LITERAL, 1), a.allocate(TermKind.LITERAL));
        assertEquals(TermIds.make(TermIds.KIND_BLANK_NODE, 1), a.allocate(TermKind.BLANK_NODE));
        assertEquals(TermIds.make(TermIds.KIND_TRIPLE, 1), a.allocate(TermKind.TRIPLE));
        assertEquals(2, a.allocated(TermKind.IRI));
        assertTrue(a.isAllocated(TermIds.make(TermIds.KIND_IRI, 2)));
        assertFalse(a.isAllocated(TermIds.make(TermIds.KIND_IRI, 3)));
        assertFalse(a.isAllocated(TermIds.DEFAULT_GRAPH));
        assertThrows(IllegalArgumentException.class, () -> a.allocate(TermKind.INTEGER));
    }

    @Test
    void stateRoundTripsThroughBytes() {
        TermIdAllocator a = new TermIdAllocator();
        for (int i = 0; i < 1000; i++) {
            a.allocate(TermKind.values()[1 + i % 3]);
        }
        a.allocate(TermKind.TRIPLE);
        byte[] bytes = a.toBytes();
        assertEquals(TermIdAllocator.SERIALIZED_LENGTH, bytes.length);
        TermIdAllocator b = TermIdAllocator.fromBytes(bytes);
        assertEquals(a, b);
        assertEquals(a.allocate(TermKind.IRI), b.allocate(TermKind.IRI));
        TermIdAllocator snapshot = b.copy();
        b.allocate(TermKind.LITERAL);
        assertEquals(snapshot.allocated(TermKind.LITERAL) + 1, b.allocated(TermKind.LITERAL));
    }

    @Test
    void malformedStateIsRejected() {
        byte[] good = new TermIdAllocator().toBytes();
        assertThrows(StoreException.class, () -> TermIdAllocator.fromBytes(new byte[0]));
        byte[] version = good.clone();
        version[0] = 2;
        assertThrows(StoreException.class, () -> TermIdAllocator.fromBytes(version));
        byte[] kind = good.clone();
        kind[2] = 9;
        assertThrows(StoreException.class, () -> TermIdAllocator.fromBytes(kind));
        byte[] counter = good.clone();
        counter[3] = (byte) 0x10;
        assertThrows(StoreException.class, () -> TermIdAllocator.fromBytes(counter));
    }

    @Test
    void exhaustionIsAClearError() {
        byte[] bytes = new TermIdAllocator().toBytes();
        TermKeys.putLong(bytes, 3 + 9, TermIds.MAX_COUNTER - 1);
        TermIdAllocator a = TermIdAllocator.fromBytes(bytes);
        assertEquals(TermIds.make(TermIds.KIND_IRI, TermIds.MAX_COUNTER), a.allocate(TermKind.IRI));
        StoreException e = assertThrows(StoreException.class, () -> a.allocate(TermKind.IRI));
        assertTrue(e.getMessage().contains("IRI"));
    }
}
