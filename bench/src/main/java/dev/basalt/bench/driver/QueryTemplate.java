package dev.basalt.bench.driver;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A benchmark query with {@code %Name%} placeholders; {@code name} is its short id, e.g. "Q7", and
 * {@code form} its query form (SELECT, CONSTRUCT, DESCRIBE or ASK), which placeholders never change.
 *
 * <p>Immutable; safe to share between threads.
 */
public record QueryTemplate(String name, String title, String text, QueryForm form) {

	private static final Pattern PLACEHOLDER = Pattern.compile("%([A-Za-z][A-Za-z0-9]*)%");

	/** A template whose form is read from its text. */
	public QueryTemplate(String name, String title, String text) {
		this(name, title, text, QueryForm.of(text));
	}

	/** The query text with every placeholder replaced; fails naming a placeholder without a value. */
	public String instantiate(Map<String, String> values) {
		Matcher m = PLACEHOLDER.matcher(text);
		StringBuilder sb = new StringBuilder(text.length() + 128);
		while (m.find()) {
			String v = values.get(m.group(1));
			if (v == null) {
				throw new IllegalArgumentException("No value for %" + m.group(1) + "% in " + name);
			}
			m.appendReplacement(sb, Matcher.quoteReplacement(v));
		}
		m.appendTail(sb);
		return sb.toString();
	}
}
