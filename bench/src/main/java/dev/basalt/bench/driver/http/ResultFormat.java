package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

import dev.basalt.bench.driver.QueryForm;

/**
 * The format the bench asks a SPARQL endpoint for SELECT and ASK results, the same for every server:
 * SPARQL JSON, XML or TSV (an ASK asked for TSV, which has no boolean form, is asked for in JSON).
 * CONSTRUCT and DESCRIBE statements come in a {@link GraphFormat}.
 *
 * <p>Immutable; safe to share between threads (each count reads its own body).
 */
public enum ResultFormat {
	JSON("application/sparql-results+json"),
	XML("application/sparql-results+xml"),
	TSV("text/tab-separated-values");

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

	/** The media type requested for a SELECT or ASK query. */
	String mediaType(QueryForm form) {
		return form == QueryForm.ASK && this == TSV ? JSON.mediaType : mediaType;
	}

	/** Counts the results of a body of media type {@code mediaType(form)}, reading all of it. */
	long count(QueryForm form, InputStream body) throws IOException {
		String type = mediaType(form);
		if (type.equals(TSV.mediaType)) {
			return LineCounter.solutions(body);
		}
		return type.equals(JSON.mediaType) ? JsonResultCounter.count(body) : XmlResultCounter.count(body);
	}
}
