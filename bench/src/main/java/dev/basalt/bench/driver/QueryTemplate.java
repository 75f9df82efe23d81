package dev.basalt.bench.driver;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A benchmark query with {@code %Name%} placeholders; {@code name} is its short id, e.g. "Q7". */
public record QueryTemplate(String name, String title, String text) {

	private static final Pattern PLACEHOLDER = Pattern.compile("%([A-Za-z][A-Za-z0-9]*)%");

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
