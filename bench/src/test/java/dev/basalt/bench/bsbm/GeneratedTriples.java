package dev.basalt.bench.bsbm;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The statements of a generated BSBM file read back for the generator's tests: per subject, the
 * objects of each predicate (by the predicate's local name, the part after the last '/' or '#'), as
 * written: IRIs without angle brackets, literals as their lexical form with the datatype or language
 * dropped; the language of a language-tagged literal is kept under the predicate's name + "@".
 */
final class GeneratedTriples {

	private final Map<String, Map<String, List<String>>> bySubject = new HashMap<>();

	GeneratedTriples(Path file) throws IOException {
		try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				add(line);
			}
		}
	}

	private void add(String line) {
		int subjectEnd = line.indexOf("> <");
		int predicateEnd = line.indexOf("> ", subjectEnd + 3);
		String subject = line.substring(1, subjectEnd);
		String predicate = localName(line.substring(subjectEnd + 3, predicateEnd));
		String object = line.substring(predicateEnd + 2, line.length() - 2);
		Map<String, List<String>> properties = bySubject.computeIfAbsent(subject, s -> new HashMap<>());
		if (object.startsWith("<")) {
			properties.computeIfAbsent(predicate, p -> new ArrayList<>()).add(object.substring(1, object.length() - 1));
			return;
		}
		int close = object.lastIndexOf('"');
		properties.computeIfAbsent(predicate, p -> new ArrayList<>()).add(object.substring(1, close));
		if (object.startsWith("@", close + 1)) {
			properties.computeIfAbsent(predicate + "@", p -> new ArrayList<>()).add(object.substring(close + 2));
		}
	}

	static String localName(String iri) {
		return iri.substring(Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#')) + 1);
	}

	/** The subjects typed with a class whose local name is {@code type}. */
	List<Map<String, List<String>>> ofType(String type) {
		return subjects(p -> p.getOrDefault("type", List.of()).stream().anyMatch(t -> localName(t).equals(type)));
	}

	List<Map<String, List<String>>> subjects(Predicate<Map<String, List<String>>> filter) {
		return bySubject.values().stream().filter(filter).toList();
	}

	Map<String, List<String>> subject(String iri) {
		return bySubject.get(iri);
	}

	/** The single object of {@code predicate} in {@code properties}, or null. */
	static String one(Map<String, List<String>> properties, String predicate) {
		List<String> values = properties.get(predicate);
		return values == null ? null : values.get(0);
	}

	/** The trailing number of an entity IRI such as {@code .../Product17}. */
	static int number(String iri) {
		int i = iri.length();
		while (i > 0 && Character.isDigit(iri.charAt(i - 1))) {
			i--;
		}
		return Integer.parseInt(iri.substring(i));
	}
}
