package dev.basalt.workbench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the data warm-up's queries ({@link DataQueries}) write IRIs: in full, or as prefixed names with a prologue that
 * declares the prefixes used. Each namespace of the repository's IRIs (up to an IRI's last {@code #} or {@code /},
 * where the rest is a valid local name) gets a prefix name: the usual one for common vocabularies ({@code rdf},
 * {@code rdfs}, {@code xsd}, {@code foaf}, ...), else the namespace's last word, made unique with a number.
 *
 * <p>Immutable once made: safe from any thread.
 */
final class QueryNames {
    static final String XSD = DataQueries.XSD;
    private static final Pattern IRI_TERM = Pattern.compile("<([^<>\"{}|^`\\\\\\s]*)>");
    private static final Pattern LOCAL = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_-]*");
    private static final Map<String, String> KNOWN_PREFIXES = Map.of(
            "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf", "http://www.w3.org/2000/01/rdf-schema#", "rdfs",
            XSD, "xsd", "http://www.w3.org/2002/07/owl#", "owl", "http://xmlns.com/foaf/0.1/", "foaf",
            "http://purl.org/dc/elements/1.1/", "dc", "http://purl.org/dc/terms/", "dcterms",
            "http://www.w3.org/2004/02/skos/core#", "skos", "http://schema.org/", "schema");

    /** The predicates and classes (as {@code <iri>} terms): the names written prefixed in the middle way. */
    private final Set<String> vocabulary;
    private final Map<String, String> prefixes = new LinkedHashMap<>();

    /** Names for the namespaces of {@code iris} ({@code <iri>} terms), those of {@code vocabulary} first. */
    QueryNames(Set<String> vocabulary, Collection<String> iris) {
        this.vocabulary = Set.copyOf(vocabulary);
        for (String term : iris) {
            String ns = namespace(term.substring(1, term.length() - 1));
            if (ns != null && !prefixes.containsKey(ns)) {
                prefixes.put(ns, prefixName(ns, prefixes.values()));
            }
        }
        prefixes.putIfAbsent(XSD, "xsd");
    }

    /**
     * {@code text} (full IRIs) written as {@code how} says: 0 as it is, 1 with the predicates, classes and datatypes
     * as prefixed names and a prologue declaring them, 2 with every IRI that can be as a prefixed name.
     */
    String written(String text, int how) {
        if (how == 0) {
            return text;
        }
        Set<String> used = new LinkedHashSet<>();
        Matcher m = IRI_TERM.matcher(text);
        StringBuilder body = new StringBuilder(text.length());
        while (m.find()) {
            String iri = m.group(1);
            String ns = namespace(iri);
            String prefix = ns == null ? null : prefixes.get(ns);
            boolean name = how == 2 || vocabulary.contains(m.group()) || iri.startsWith(XSD);
            if (prefix != null && name) {
                used.add(ns);
                m.appendReplacement(body, Matcher.quoteReplacement(prefix + ":" + iri.substring(ns.length())));
            } else {
                m.appendReplacement(body, Matcher.quoteReplacement(m.group()));
            }
        }
        m.appendTail(body);
        StringBuilder prologue = new StringBuilder();
        for (String ns : used) {
            prologue.append("PREFIX ").append(prefixes.get(ns)).append(": <").append(ns).append(">\n");
        }
        return prologue.append(body).toString();
    }

    /** The namespace of {@code iri} (up to its last {@code #} or {@code /}) if its rest is a valid local name. */
    static String namespace(String iri) {
        int cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1;
        if (cut <= 0 || cut >= iri.length() || !LOCAL.matcher(iri.substring(cut)).matches()) {
            return null;
        }
        return iri.substring(0, cut);
    }

    /** A prefix name for {@code ns}: a common one, else the namespace's last word, unique among {@code taken}. */
    static String prefixName(String ns, Collection<String> taken) {
        String known = KNOWN_PREFIXES.get(ns);
        String base = known;
        if (base == null) {
            String trimmed = ns.substring(0, ns.length() - 1);
            String last = trimmed.substring(trimmed.lastIndexOf('/') + 1).replaceAll("[^A-Za-z0-9]", "");
            base = last.isEmpty() || !Character.isLetter(last.charAt(0)) ? "ns"
                    : last.substring(0, Math.min(8, last.length())).toLowerCase(Locale.ROOT);
        }
        String name = base;
        // "w" is the catalogue's prefix, which WarmupData#laidOut renames
        for (int i = 2; taken.contains(name) || name.equals("w")
                || (known == null && KNOWN_PREFIXES.containsValue(name)); i++) {
            name = base + i;
        }
        return name;
    }
}
