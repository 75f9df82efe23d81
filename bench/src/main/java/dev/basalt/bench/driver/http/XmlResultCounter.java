package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Counts the solutions (or the boolean) of a SPARQL Query Results XML body with StAX: every text and
 * attribute inside a result is read, the document must be complete and well-formed, rooted at
 * {@code sparql}, and hold {@code results} or {@code boolean}. Thread-safe.
 */
final class XmlResultCounter {


	private XmlResultCounter() {
	}

	static long count(InputStream body) throws IOException {
		XMLStreamReader r = null;
		try {
			r = XmlStreams.open(body);
			long solutions = -1;
			long chars = 0;
			boolean root = true;
			boolean inBoolean = false;
			StringBuilder bool = new StringBuilder();
			while (r.hasNext()) {
				int event = r.next();
				if (event == XMLStreamConstants.START_ELEMENT) {
					String name = r.getLocalName();
					if (root && !name.equals("sparql")) {
						throw malformed("the root element is " + name + ", not sparql");
					}
					root = false;
					switch (name) {
					case "results" -> solutions = Math.max(solutions, 0);
					case "result" -> solutions++;
					case "boolean" -> inBoolean = true;
					default -> {
					}
					}
					for (int i = 0; i < r.getAttributeCount(); i++) {
						chars += r.getAttributeValue(i).length();
					}
				} else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
					chars += r.getTextLength();
					if (inBoolean) {
						bool.append(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
					}
				} else if (event == XMLStreamConstants.END_ELEMENT && inBoolean) {
					inBoolean = false;
					String b = bool.toString().trim();
					if (!b.equals("true") && !b.equals("false")) {
						throw malformed("boolean is '" + b + "', not true or false");
					}
					solutions = b.equals("true") ? 1 : 0;
				}
			}
			if (solutions < 0) {
				throw malformed("neither results nor boolean");
			}
			ReadCounter.add(chars);
			return solutions;
		} catch (XMLStreamException e) {
			throw malformed(e.getMessage());
		} finally {
			XmlStreams.close(r);
		}
	}

	private static IOException malformed(String what) {
		return new IOException("malformed SPARQL XML results: " + what);
	}
}
