package dev.basalt.bench.driver.http;

import java.io.InputStream;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The StAX readers of the result counters: one shared, namespace-aware factory without DTDs or
 * external entities (a server's answer is untrusted input). Thread-safe.
 */
final class XmlStreams {

	private static final XMLInputFactory FACTORY = factory();

	private XmlStreams() {
	}

	private static XMLInputFactory factory() {
		XMLInputFactory f = XMLInputFactory.newFactory();
		f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
		f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
		f.setProperty(XMLInputFactory.IS_COALESCING, false);
		f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
		return f;
	}

	static XMLStreamReader open(InputStream body) throws XMLStreamException {
		return FACTORY.createXMLStreamReader(body);
	}

	/** Closes {@code r} if open; the reader holds nothing a failure to close would leak. */
	static void close(XMLStreamReader r) {
		if (r != null) {
			try {
				r.close();
			} catch (XMLStreamException e) {
				// nothing held
			}
		}
	}
}
