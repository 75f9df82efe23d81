package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

import dev.basalt.bench.driver.QueryForm;

/**
 * What the bench counts as the result of a CONSTRUCT or DESCRIBE answer.
 *
 * <ul>
 * <li>{@link #BYTES}: the body's bytes (after the HTTP framing is removed), read to its end without parsing it. This is
 * what the BSBM V3 test driver does with a graph answer in its measured runs ({@code SPARQLConnection} reads the body
 * and reports its length as the result count; only SELECT results are parsed), so the client's time is the same for
 * every server whatever the size and shape of its description.</li>
 * <li>{@link #STATEMENTS}: the statements of the body, parsed in its {@link GraphFormat} (every value read, no RDF
 * objects built); comparable between servers, so the cross-check always counts this way.</li>
 * </ul>
 *
 * <p>A body cut off before its framing says it ends (Content-Length, the last chunk) throws in both ways: the framing
 * streams of the HTTP connections throw {@link java.io.EOFException} when read past the end of what arrived. A body
 * framed only by the end of the connection cannot be told complete by its bytes; {@link #STATEMENTS} still rejects a
 * document cut off. Immutable; safe to share between threads (each count reads its own body).
 */
public enum GraphCount {
	BYTES("bytes"),
	STATEMENTS("statements");

	/** The unit of a count, for reports: "bytes" or "statements". */
	public final String unit;

	GraphCount(String unit) {
		this.unit = unit;
	}

	/** The way named {@code name} (bytes or statements, any case). */
	public static GraphCount named(String name) {
		try {
			return valueOf(name.toUpperCase(Locale.ROOT));
		} catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("graph count must be bytes or statements, not " + name);
		}
	}

	/** The unit of the result count of a query of form {@code form} when graph answers are counted this way. */
	public String unitOf(QueryForm form) {
		return form.isGraph() ? unit : form == QueryForm.ASK ? "true answers" : "solutions";
	}

	/** Counts a graph answer's body of format {@code format} this way, reading all of it. */
	long count(GraphFormat format, InputStream body) throws IOException {
		return this == BYTES ? bytes(body) : format.count(body);
	}

	/** The bytes of {@code body} up to its end. */
	static long bytes(InputStream body) throws IOException {
		byte[] buffer = new byte[BUFFER_BYTES];
		long total = 0;
		for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
			total += n;
		}
		return total;
	}

	private static final int BUFFER_BYTES = 16 * 1024;
}
