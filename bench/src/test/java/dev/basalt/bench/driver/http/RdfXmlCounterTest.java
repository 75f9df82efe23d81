package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;

class RdfXmlCounterTest {

	private static final String HEAD = """
			<?xml version="1.0" encoding="UTF-8"?>
			<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
			""";

	@Test
	void countsEveryKindOfStatementAsAParserDoes() throws Exception {
		String doc = HEAD + """
				  <rdf:Description rdf:about="http://example.org/a" ex:attribute="x">
				    <ex:link rdf:resource="http://example.org/b"/>
				    <ex:text xml:lang="en">hello</ex:text>
				    <ex:typed rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">7</ex:typed>
				  </rdf:Description>
				  <ex:Thing rdf:about="http://example.org/b">
				    <ex:nested><rdf:Description rdf:about="http://example.org/c"><ex:q>1</ex:q></rdf:Description></ex:nested>
				    <ex:resource rdf:parseType="Resource"><ex:inner>v</ex:inner></ex:resource>
				    <ex:xml rdf:parseType="Literal"><b>bold <i>and</i></b></ex:xml>
				    <ex:blank rdf:nodeID="n1"/>
				  </ex:Thing>
				</rdf:RDF>
				""";
		assertEquals(parsed(doc), count(doc));
		assertEquals(11, count(doc), "4 about a; the type and 6 more about b and its nested nodes");
	}

	@Test
	void countsWhatRdf4jWritesForBsbmData(@TempDir Path tmp) throws Exception {
		Path file = tmp.resolve("bsbm.nt");
		new BsbmGenerator(new BsbmModel(20, 7)).write(file);
		Model model = Rio.parse(new ByteArrayInputStream(java.nio.file.Files.readAllBytes(file)), RDFFormat.NTRIPLES);
		ByteArrayOutputStream xml = new ByteArrayOutputStream();
		Rio.write(model, xml, RDFFormat.RDFXML);
		assertEquals(model.size(), RdfXmlCounter.count(new ByteArrayInputStream(xml.toByteArray())));
	}

	@Test
	void aCutOrForeignDocumentIsMalformed() {
		String doc = HEAD + "<rdf:Description rdf:about=\"http://example.org/a\"><ex:p>1</ex:p></rdf:Description></rdf:RDF>";
		byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
		IOException cut = assertThrows(IOException.class,
				() -> RdfXmlCounter.count(new ByteArrayInputStream(Arrays.copyOf(bytes, bytes.length - 20))));
		assertTrue(cut.getMessage().startsWith("malformed RDF/XML"), cut.getMessage());
		IOException foreign = assertThrows(IOException.class, () -> count("<sparql><results/></sparql>"));
		assertTrue(foreign.getMessage().contains("not rdf:RDF"), foreign.getMessage());
		IOException collection = assertThrows(IOException.class, () -> count(HEAD
				+ "<rdf:Description rdf:about=\"http://example.org/a\"><ex:l rdf:parseType=\"Collection\"/></rdf:Description></rdf:RDF>"));
		assertTrue(collection.getMessage().contains("Collection"), collection.getMessage());
	}

	private static long count(String doc) throws IOException {
		return RdfXmlCounter.count(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)));
	}

	private static long parsed(String doc) throws IOException {
		return Rio.parse(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)), "", RDFFormat.RDFXML).size();
	}
}
