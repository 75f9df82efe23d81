package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * The format the bench asks a SPARQL endpoint for the statements of a CONSTRUCT or DESCRIBE answer:
 * RDF/XML, what the BSBM test driver asks for, or N-Triples.
 *
 * <p>Immutable; safe to share between threads (each count reads its own body).
 */
public enum GraphFormat {
	RDFXML("application/rdf+xml"),
	NTRIPLES("application/n-triples");

	final String mediaType;

	GraphFormat(String mediaType) {
		this.mediaType = mediaType;
	}

	/** The format named {@code name} (rdfxml or ntriples, any case). */
	public static GraphFormat named(String name) {
		try {
			return valueOf(name.toUpperCase(Locale.ROOT).replace("-", "").replace("/", ""));
		} catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("graph format must be rdfxml or ntriples, not " + name);
		}
	}

	/** Counts the statements of a body in this format, reading all of it. */
	long count(InputStream body) throws IOException {
		return this == NTRIPLES ? LineCounter.statements(body) : RdfXmlCounter.count(body);
	}
}
