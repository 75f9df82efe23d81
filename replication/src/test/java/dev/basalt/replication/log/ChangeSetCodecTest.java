package dev.basalt.replication.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.Test;

import dev.basalt.replication.log.ChangeSet.NamespaceChange;

class ChangeSetCodecTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private static IRI ex(String local) {
        return VF.createIRI("http://example.org/", local);
    }

    private static ChangeSet sample() {
        ChangeSet c = new ChangeSet();
        c.namespace(new NamespaceChange(NamespaceChange.Kind.CLEAR, null, null));
        c.namespace(new NamespaceChange(NamespaceChange.Kind.SET, "ex", "http://example.org/"));
        c.namespace(new NamespaceChange(NamespaceChange.Kind.REMOVE, "old", null));
        c.remove(VF.createStatement(ex("a"), ex("p"), VF.createLiteral("gone")));
        c.add(VF.createStatement(VF.createBNode("b0"), ex("p"), VF.createLiteral("chat", "fr"), ex("g")));
        c.add(VF.createStatement(ex("a"), ex("p"), VF.createLiteral("7", XSD.INTEGER)));
        c.add(VF.createStatement(ex("a"), ex("p"), VF.createLiteral("ünïcödé ✓")));
        c.add(VF.createStatement(VF.createTriple(ex("a"), ex("p"), VF.createLiteral(1.5)), ex("says"), ex("c"),
                VF.createBNode("graph")));
        return c;
    }

    @Test
    void roundTripKeepsEveryTermKindNamespaceOrderAndContext() {
        ChangeSet original = sample();
        ChangeSet read = ChangeSetCodec.decode(ChangeSetCodec.encode(original), VF);
        assertEquals(original.namespaces(), read.namespaces());
        assertEquals(original.removed(), read.removed());
        assertEquals(original.added(), read.added());
        assertEquals(List.copyOf(original.added()), List.copyOf(read.added()), "statement order is kept");
    }

    @Test
    void netEffectOfAddThenRemoveIsARemoval() {
        ChangeSet c = new ChangeSet();
        var st = VF.createStatement(ex("a"), ex("p"), ex("o"));
        c.add(st);
        c.remove(st);
        assertTrue(c.added().isEmpty());
        assertEquals(1, c.removed().size());
        c.add(st);
        assertTrue(c.removed().isEmpty());
        assertEquals(1, c.added().size());
    }

    @Test
    void termsAreWrittenOnce() {
        ChangeSet c = new ChangeSet();
        for (int i = 0; i < 100; i++) {
            c.add(VF.createStatement(ex("a-long-subject-iri-shared-by-all"), ex("p"), VF.createLiteral(i)));
        }
        byte[] bytes = ChangeSetCodec.encode(c);
        assertTrue(bytes.length < 100 * 12, "100 statements sharing subject and predicate took " + bytes.length + " bytes");
    }

    @Test
    void refusesAnotherVersionTruncationAndTrailingBytes() {
        byte[] bytes = ChangeSetCodec.encode(sample());
        byte[] future = bytes.clone();
        future[0] = 2;
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
                () -> ChangeSetCodec.decode(future, VF));
        assertTrue(version.getMessage().contains("format version 2"), version.getMessage());
        IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
                () -> ChangeSetCodec.decode(Arrays.copyOf(bytes, bytes.length - 3), VF));
        assertTrue(truncated.getMessage().contains("offset"), truncated.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ChangeSetCodec.decode(Arrays.copyOf(bytes, bytes.length + 1), VF));
    }
}
