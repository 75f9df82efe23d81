package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;

/**
 * {@link ExecContext#comparableIdOf}: the id a sort keeps for a computed key is the value's inline id where it has
 * one, else a query-local id, never the dictionary id {@link ExecContext#idOf} finds for a stored term; the local
 * id reads back as the same value and is the same for the same value.
 */
class ComparableIdTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @Test
    void aStoredTermGetsALocalIdWithoutTheDictionaryAndReadsBackAsItsValue() {
        IRI s = VF.createIRI("urn:s");
        IRI p = VF.createIRI("urn:p");
        Literal ratio = VF.createLiteral("0.5", CoreDatatype.XSD.FLOAT);
        assertEquals(TermIds.NULL, InlineValues.encode(ratio), "the test needs a float the store keeps in its dictionary");
        MemoryQuadSource source = new MemoryQuadSource().add(s, p, ratio);
        ExecContext ctx = new ExecContext(source, false);

        long stored = ctx.idOf(ratio);
        assertFalse(TermIds.isLocal(stored), "idOf finds the stored term");
        long comparable = ctx.comparableIdOf(ratio);
        assertTrue(TermIds.isLocal(comparable), "comparableIdOf does not look the term up");
        assertNotEquals(stored, comparable);
        assertEquals(comparable, ctx.comparableIdOf(VF.createLiteral("0.5", CoreDatatype.XSD.FLOAT)));
        assertEquals(ratio, ctx.resolve(new long[] {comparable})[0]);
    }

    @Test
    void anInlineValueKeepsItsInlineIdAndNullStaysNull() {
        ExecContext ctx = new ExecContext(new MemoryQuadSource(), false);
        Literal seven = VF.createLiteral("7", CoreDatatype.XSD.INTEGER);
        long inline = InlineValues.encode(seven);
        assertNotEquals(TermIds.NULL, inline);
        assertEquals(inline, ctx.comparableIdOf(seven));
        assertEquals(ctx.idOf(seven), ctx.comparableIdOf(seven));
        assertEquals(TermIds.NULL, ctx.comparableIdOf(null));
    }
}
