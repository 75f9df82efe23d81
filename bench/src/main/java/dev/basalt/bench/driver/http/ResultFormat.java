package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

import dev.basalt.bench.driver.QueryForm;

/**
 * The format the bench asks a SPARQL endpoint for, the same for every server: SELECT and ASK results
 * in SPARQL JSON, XML or TSV (an ASK asked for TSV, which has no boolean form, is asked for in JSON),
 * CONSTRUCT and DESCRIBE results in N-Triples.
 */
public enum ResultFormat {
	JSON("application/sparql-results+json"),
	XML("application/sparql-results+xml"),
	TSV("text/tab-separated-values");

	static final String N_TRIPLES = "application/n-triples";

	private final String mediaType;

	ResultFormat(String mediaType) {
		this.mediaType = mediaType;
	}

	/** The format named {@code name} (json, xml or tsv, any case). */
	public static ResultFormat named(String name) {
		try {
			return valueOf(name.toUpperCase(Locale.ROOT));
		} catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("result format must be json, xml or tsv, not " + name);
		}
	}

	/** The media type requested for a query of {@code form}. */
	String mediaType(QueryForm form) {
		if (form.isGraph()) {
			return N_TRIPLES;
		}
		return form == QueryForm.ASK && this == TSV ? JSON.mediaType : mediaType;
	}

	/** Counts the results of a body of media type {@code mediaType(form)}, reading all of it. */
	long count(QueryForm form, InputStream body) throws IOException {
		String type = mediaType(form);
		if (type.equals(N_TRIPLES)) {
			return LineCounter.statements(body);
		}
		if (type.equals(TSV.mediaType)) {
			return LineCounter.solutions(body);
		}
		return type.equals(JSON.mediaType) ? JsonResultCounter.count(body) : XmlResultCounter.count(body);
	}
}
