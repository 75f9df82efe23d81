package dev.basalt.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.lubm.LubmQueries;

/** A template's query form, read once from its text after the prologue. */
class QueryFormTest {

	@Test
	void bsbmHasOneDescribeOneConstructAndSelects() {
		for (QueryTemplate t : BsbmQueries.ALL) {
			QueryForm expected = switch (t.name()) {
			case "Q9" -> QueryForm.DESCRIBE;
			case "Q12" -> QueryForm.CONSTRUCT;
			default -> QueryForm.SELECT;
			};
			assertEquals(expected, t.form(), t.name());
		}
		LubmQueries.ALL.forEach(t -> assertEquals(QueryForm.SELECT, t.form(), t.name()));
	}

	@Test
	void theFormFollowsThePrologue() {
		assertEquals(QueryForm.ASK, QueryForm.of("# ask\nBASE <http://x/>\nPREFIX : <http://x/#>\nprefix a:<urn:a>\nask { ?s ?p ?o }"));
		assertEquals(QueryForm.CONSTRUCT, QueryForm.of("PREFIX select: <urn:x>\nCONSTRUCT WHERE { ?s ?p ?o }"));
		assertThrows(IllegalArgumentException.class, () -> QueryForm.of("PREFIX : <urn:x> INSERT DATA { }"));
		assertThrows(IllegalArgumentException.class, () -> QueryForm.of(""));
	}
}
