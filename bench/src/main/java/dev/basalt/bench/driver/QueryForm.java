package dev.basalt.bench.driver;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The four SPARQL query forms, which decide what a result is (a solution, a statement, a boolean)
 * and which result formats a SPARQL endpoint can answer in. A template knows its form from its text,
 * read once when the template is made, so an HTTP client need not parse each query it sends.
 *
 * <p>Immutable; safe to share between threads.
 */
public enum QueryForm {
	SELECT, CONSTRUCT, DESCRIBE, ASK;

	/** PREFIX and BASE declarations and comments, which may precede the form's keyword. */
	private static final Pattern PROLOGUE = Pattern.compile(
			"\\A(?:\\s+|#[^\\n]*\\n|(?i:PREFIX)\\s+[^\\s:]*:\\s*<[^>]*>|(?i:BASE)\\s*<[^>]*>)*");
	private static final Pattern KEYWORD = Pattern.compile("\\A([A-Za-z]+)");

	/** True for CONSTRUCT and DESCRIBE, whose results are RDF statements. */
	public boolean isGraph() {
		return this == CONSTRUCT || this == DESCRIBE;
	}

	/** The form of query text {@code text} (placeholders allowed), from the first keyword after its prologue. */
	public static QueryForm of(String text) {
		Matcher prologue = PROLOGUE.matcher(text);
		int start = prologue.lookingAt() ? prologue.end() : 0;
		Matcher keyword = KEYWORD.matcher(text.substring(start));
		if (keyword.lookingAt()) {
			try {
				return valueOf(keyword.group(1).toUpperCase(Locale.ROOT));
			} catch (IllegalArgumentException notAForm) {
				// reported below with the text
			}
		}
		throw new IllegalArgumentException("Not a SELECT, CONSTRUCT, DESCRIBE or ASK query: " + text);
	}
}
