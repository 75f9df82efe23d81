package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import dev.basalt.bench.driver.QueryForm;

/**
 * The client warm-up's answers take the paths real answers take: each is counted by the driver's own counters to the
 * results it holds; each format has answers of 0, 1 and many results, one spanning several of the StAX scanner's
 * 8 KB buffers, indented and compact layouts, every kind of binding and RDF/XML node and object; multi-byte
 * characters; an ASK is answered both ways.
 */
class WarmupAnswersTest {
	private static final int BUFFER = 8192;
	private static final String XML = "application/sparql-results+xml";
	private static final String JSON = "application/sparql-results+json";
	private static final String TSV = "text/tab-separated-values";
	private static final String RDF_XML = "application/rdf+xml";
	private static final String N_TRIPLES = "application/n-triples";

	private interface Counter {
		long count(InputStream in) throws IOException;
	}

	private static List<WarmupAnswers.Answer> checked(QueryForm form, String type, Counter counter) throws IOException {
		List<WarmupAnswers.Answer> answers = WarmupAnswers.of(form, type);
		assertTrue(answers.size() >= 2, type);
		for (int i = 0; i < answers.size(); i++) {
			WarmupAnswers.Answer a = answers.get(i);
			assertEquals(a.results(), counter.count(new ByteArrayInputStream(a.body())), type + " answer " + i);
		}
		return answers;
	}

	private static void spansSizes(List<WarmupAnswers.Answer> answers, String type, boolean many) {
		assertTrue(answers.stream().anyMatch(a -> a.results() == 0), type + ": an empty answer");
		assertTrue(answers.stream().anyMatch(a -> a.results() == 1), type + ": an answer of one");
		if (many) {
			assertTrue(answers.stream().anyMatch(a -> a.results() >= 100), type + ": an answer of a hundred or more");
			assertTrue(answers.stream().anyMatch(a -> a.body().length > 4 * BUFFER), type + ": an answer of several buffers");
			assertTrue(answers.stream().anyMatch(a -> a.body().length < BUFFER / 4), type + ": a short answer");
		}
	}

	private static boolean some(List<WarmupAnswers.Answer> answers, Predicate<String> holds) {
		return answers.stream().anyMatch(a -> holds.test(new String(a.body(), StandardCharsets.UTF_8)));
	}

	@Test
	void selectsAreCountedAndVaried() throws IOException {
		List<WarmupAnswers.Answer> xml = checked(QueryForm.SELECT, XML, XmlResultCounter::count);
		spansSizes(xml, XML, true);
		for (String kind : new String[] { "<uri>", "<bnode>", "<literal>", "<literal datatype=", "<literal xml:lang=" }) {
			assertTrue(some(xml, s -> s.contains(kind)), kind);
		}
		assertTrue(some(xml, s -> s.contains(">\n\t\t\t<binding name='")), "indented by tabs, single quotes");
		assertTrue(some(xml, s -> s.contains("\n    <result>")), "indented by spaces");
		assertTrue(some(xml, s -> s.contains("</binding></result><result><binding name=\"")), "compact");
		assertTrue(some(xml, s -> s.contains("&lt;") && s.contains("&amp;") && s.contains("\ud834\udd1e")), "escapes");
		assertTrue(some(xml, s -> s.chars().filter(c -> c == '\n').count() > 1000), "many line breaks");
		spansSizes(checked(QueryForm.SELECT, JSON, JsonResultCounter::count), JSON, true);
		spansSizes(checked(QueryForm.SELECT, TSV, LineCounter::solutions), TSV, true);
	}

	@Test
	void graphsAreCountedAndVaried() throws IOException {
		List<WarmupAnswers.Answer> rdfXml = checked(QueryForm.DESCRIBE, RDF_XML, RdfXmlCounter::count);
		List<WarmupAnswers.Answer> nTriples = checked(QueryForm.CONSTRUCT, N_TRIPLES, LineCounter::statements);
		assertEquals(rdfXml.size(), nTriples.size());
		for (int i = 0; i < rdfXml.size(); i++) {
			assertEquals(rdfXml.get(i).results(), nTriples.get(i).results(), "the same graph in both formats, " + i);
		}
		spansSizes(rdfXml, RDF_XML, false);
		assertTrue(rdfXml.stream().anyMatch(a -> a.results() >= 100), "a graph of a hundred statements or more");
		assertTrue(rdfXml.stream().anyMatch(a -> a.body().length > 4 * BUFFER), "a graph of several buffers");
		for (String kind : new String[] { "<rdf:Description rdf:about=", "rdf:nodeID=", "<bsbm:Review rdf:about=",
				"rdf:resource=", "rdf:datatype=", "xml:lang=", " xmlns=\"" }) {
			assertTrue(some(rdfXml, s -> s.contains(kind)), kind);
		}
	}

	@Test
	void asksAreAnsweredBothWays() throws IOException {
		for (String type : new String[] { XML, JSON }) {
			List<WarmupAnswers.Answer> asks = checked(QueryForm.ASK, type,
					type.equals(XML) ? XmlResultCounter::count : JsonResultCounter::count);
			assertTrue(asks.stream().anyMatch(a -> a.results() == 1) && asks.stream().anyMatch(a -> a.results() == 0), type);
		}
		assertTrue(WarmupAnswers.of(QueryForm.ASK, TSV).isEmpty());
	}
}
