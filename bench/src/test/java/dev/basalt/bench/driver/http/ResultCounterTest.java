package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The streaming counters on canned bodies: counts, values read, and bodies they must reject. */
class ResultCounterTest {

	private static InputStream body(String s) {
		return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void json() throws IOException {
		String twoSolutions = """
				{"head":{"vars":["s","o"]},"results":{"bindings":[
				 {"s":{"type":"uri","value":"urn:a"},"o":{"type":"literal","value":"xy","xml:lang":"en"}},
				 {}]}}
				""";
		long before = ReadCounter.sum();
		assertEquals(2, JsonResultCounter.count(body(twoSolutions)));
		// field names and strings of the solutions: s type uri value urn:a o type literal value xy xml:lang en
		assertEquals(1 + 4 + 3 + 5 + 5 + 1 + 4 + 7 + 5 + 2 + 8 + 2, ReadCounter.sum() - before);
		assertEquals(1, JsonResultCounter.count(body("{\"head\":{},\"boolean\":true}")));
		assertEquals(0, JsonResultCounter.count(body("{\"head\":{},\"boolean\":false}")));
		assertEquals(0, JsonResultCounter.count(body("{\"results\":{\"bindings\":[]},\"head\":{\"vars\":[]}}")));

		for (String bad : new String[] { twoSolutions.substring(0, 60), twoSolutions.substring(0, twoSolutions.length() - 3),
				"{\"head\":{}}", "[]", "{\"boolean\":\"yes\"}", twoSolutions + "{}" }) {
			assertThrows(IOException.class, () -> JsonResultCounter.count(body(bad)), bad);
		}
	}

	@Test
	void xml() throws IOException {
		String twoSolutions = """
				<?xml version="1.0"?>
				<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="s"/></head>
				<results><result><binding name="s"><uri>urn:a</uri></binding></result>
				<result><binding name="s"><literal xml:lang="en">xy</literal></binding></result></results></sparql>
				""";
		assertEquals(2, XmlResultCounter.count(body(twoSolutions)));
		assertEquals(0, XmlResultCounter.count(body("<sparql xmlns='http://www.w3.org/2005/sparql-results#'><head/>"
				+ "<results/></sparql>")));
		assertEquals(1, XmlResultCounter.count(body("<sparql><head/><boolean>true</boolean></sparql>")));
		assertEquals(0, XmlResultCounter.count(body("<sparql><head/><boolean>false</boolean></sparql>")));
		for (String bad : new String[] { twoSolutions.substring(0, twoSolutions.indexOf("</result>") + 5),
				twoSolutions.substring(0, twoSolutions.length() - 4), "<html><results/></html>", "<sparql><head/></sparql>",
				"<sparql><boolean>maybe</boolean></sparql>" }) {
			assertThrows(IOException.class, () -> XmlResultCounter.count(body(bad)), bad);
		}
	}

	@Test
	void nTriples() throws IOException {
		String two = "<urn:a> <urn:p> \"x . y\" .\n# a comment\n\n<urn:b> <urn:p> <urn:c> .\n";
		assertEquals(2, LineCounter.statements(body(two)));
		assertEquals(2, LineCounter.statements(body(two.replace("\n", "\r\n"))));
		assertEquals(2, LineCounter.statements(body(two.substring(0, two.length() - 1))), "no final line feed");
		assertEquals(0, LineCounter.statements(body("")));
		IOException e = assertThrows(IOException.class, () -> LineCounter.statements(body(two.substring(0, two.length() - 5))));
		assertTrue(e.getMessage().contains("line 4"), e.getMessage());
	}

	@Test
	void tsv() throws IOException {
		assertEquals(3, LineCounter.solutions(body("?s\t?o\n<urn:a>\t\"x\"\n\t\n<urn:b>\t1\n")), "an all-unbound row counts");
		assertEquals(0, LineCounter.solutions(body("?s\n")));
		assertThrows(IOException.class, () -> LineCounter.solutions(body("?s\n<urn:a")));
		assertThrows(IOException.class, () -> LineCounter.solutions(body("")));
		assertThrows(IOException.class, () -> LineCounter.solutions(body("<html>\n")));
	}
}
