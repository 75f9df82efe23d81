package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Counts the statements of an RDF/XML document with StAX, without building RDF values: one for each
 * property element, one for each typed node element (a node element other than
 * {@code rdf:Description}), and one for each property attribute of a node element, following the
 * node/property striping of the RDF/XML grammar (including {@code rdf:parseType="Resource"} and
 * {@code "Literal"}; {@code "Collection"} is refused as malformed, no SPARQL server writes it for
 * BSBM's answers). Every text and attribute is read; the document must be complete and rooted at
 * {@code rdf:RDF}. Thread-safe.
 */
final class RdfXmlCounter {

	private static final String RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
	private static final String XML = "http://www.w3.org/XML/1998/namespace";

	/** What the children of an open element are. */
	private enum Expect {
		NODES, PROPERTIES, LITERAL
	}

	private RdfXmlCounter() {
	}

	static long count(InputStream body) throws IOException {
		XMLStreamReader r = null;
		try {
			r = XmlStreams.open(body);
			Deque<Expect> open = new ArrayDeque<>();
			long statements = 0;
			long chars = 0;
			boolean ended = false;
			while (r.hasNext()) {
				int event = r.next();
				if (event == XMLStreamConstants.START_ELEMENT) {
					for (int i = 0; i < r.getAttributeCount(); i++) {
						chars += r.getAttributeValue(i).length();
					}
					if (open.isEmpty()) {
						if (!RDF.equals(r.getNamespaceURI()) || !r.getLocalName().equals("RDF")) {
							throw malformed("the root element is " + r.getName() + ", not rdf:RDF");
						}
						open.push(Expect.NODES);
					} else if (open.peek() == Expect.LITERAL) {
						open.push(Expect.LITERAL);
					} else if (open.peek() == Expect.NODES) {
						statements += isRdf(r, "Description") ? 0 : 1;
						statements += propertyAttributes(r);
						open.push(Expect.PROPERTIES);
					} else {
						statements++;
						String parseType = r.getAttributeValue(RDF, "parseType");
						if (parseType == null) {
							statements += propertyAttributes(r);
							open.push(Expect.NODES);
						} else if (parseType.equals("Resource")) {
							open.push(Expect.PROPERTIES);
						} else if (parseType.equals("Literal")) {
							open.push(Expect.LITERAL);
						} else {
							throw malformed("rdf:parseType=\"" + parseType + "\" is not counted");
						}
					}
				} else if (event == XMLStreamConstants.END_ELEMENT) {
					open.pop();
					ended = open.isEmpty();
				} else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
					chars += r.getTextLength();
				}
			}
			if (!ended) {
				throw malformed("no rdf:RDF document");
			}
			ReadCounter.add(chars);
			return statements;
		} catch (XMLStreamException e) {
			throw malformed(e.getMessage());
		} finally {
			XmlStreams.close(r);
		}
	}

	private static boolean isRdf(XMLStreamReader r, String localName) {
		return RDF.equals(r.getNamespaceURI()) && r.getLocalName().equals(localName);
	}

	/** Attributes that are statements: all but the rdf: syntax attributes and xml:lang/xml:base. */
	private static int propertyAttributes(XMLStreamReader r) {
		int n = 0;
		for (int i = 0; i < r.getAttributeCount(); i++) {
			String ns = r.getAttributeNamespace(i);
			String name = r.getAttributeLocalName(i);
			boolean syntax = RDF.equals(ns) && (name.equals("about") || name.equals("nodeID") || name.equals("ID")
					|| name.equals("resource") || name.equals("datatype") || name.equals("parseType"));
			if (!syntax && !XML.equals(ns) && ns != null && !ns.isEmpty()) {
				n++;
			}
		}
		return n;
	}

	private static IOException malformed(String what) {
		return new IOException("malformed RDF/XML: " + what);
	}
}
