package dev.basalt.workbench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.basalt.workbench.DataSample.Statement;

/**
 * The queries of the launcher's data warm-up ({@link DataWarmup}), made from a repository's own statements ({@link
 * DataSample}): the shapes catalogue clients send, with the repository's predicates, classes and values as their
 * constants. Its kinds: a subject's properties joined with a linked subject's label and an {@code OPTIONAL} one; all
 * of a subject's statements; {@code DESCRIBE} and {@code CONSTRUCT} of a subject; the subjects linking to an object,
 * with a text, a language filter, a numeric or date filter and {@code ORDER BY ... LIMIT}; the instances of a class
 * with a link, a numeric {@code FILTER}, {@code DISTINCT} and {@code ORDER BY ... LIMIT}, the same with {@code
 * OPTIONAL}/{@code !bound}, a {@code UNION} of two such with {@code OFFSET}, and a {@code regex} over their labels;
 * {@code ASK}; a count; a two-hop join under {@code OPTIONAL}.
 *
 * <p>What a query reads is bounded by its constants, never by the store's size: each starts from a named subject, from
 * an object all of whose links the sample read (so fewer than {@link DataSample#REVERSE_LIMIT}), or from a class the
 * sample counted below {@link DataSample#CLASS_COUNT_LIMIT} instances; queries over a class or a link's subjects end
 * with a {@code LIMIT} of at most {@value #MAX_LIMIT}. Only query forms are made (SELECT, ASK, DESCRIBE, CONSTRUCT),
 * and the endpoint they are sent to evaluates no update.
 *
 * <p>The texts are written three ways, drawn at random (full IRIs; predicates and classes as prefixed names with
 * constants as full IRIs, as test drivers write them; everything prefixed: {@link QueryNames}), half of them laid out
 * over lines ({@link WarmupData#laidOut}); SELECT and ASK ask for SPARQL/XML results and one in eight for SPARQL/JSON, graph queries for
 * RDF/XML and one in eight for Turtle.
 *
 * <p>Stateless: {@link #entries} builds its indexes per call; safe from any thread.
 */
final class DataQueries {
    /** The most solutions asked of a query that starts from a class or from a link's subjects. */
    static final int MAX_LIMIT = 50;
    static final String XSD = "http://www.w3.org/2001/XMLSchema#";
    private static final String SELECT_ACCEPT = "application/sparql-results+xml";
    private static final String SELECT_OTHER = "application/sparql-results+json";
    private static final String GRAPH_ACCEPT = "application/rdf+xml";
    private static final String GRAPH_OTHER = "text/turtle";
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern TYPED = Pattern.compile("\"([^\"\\\\]*)\"\\^\\^<" + Pattern.quote(XSD) + "([A-Za-z]+)>");
    private static final Set<String> NUMERIC_TYPES = Set.of("integer", "int", "long", "short", "byte", "decimal",
            "double", "float", "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger",
            "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte");
    private static final Set<String> DATE_TYPES = Set.of("date", "dateTime", "dateTimeStamp");
    private static final Pattern WORD = Pattern.compile("[A-Za-z]{4,16}");

    /** A query: its text and whether it answers a graph (DESCRIBE, CONSTRUCT). */
    record Query(String text, boolean graph) {
    }

    private final DataSample sample;
    private final Map<String, List<Statement>> out = new LinkedHashMap<>();
    private final Map<String, List<Statement>> in = new LinkedHashMap<>();
    private final Map<String, List<String>> members = new LinkedHashMap<>();
    private final Map<String, List<String>> havePredicate = new LinkedHashMap<>();
    private final List<String> subjects;
    private final List<String> linked;
    private final List<String> smallClasses;
    private final Set<String> vocabulary = new LinkedHashSet<>();
    private final QueryNames names;

    private DataQueries(DataSample sample) {
        this.sample = sample;
        for (Statement st : sample.statements()) {
            if (!DataSample.isIri(st.s())) {
                continue;
            }
            out.computeIfAbsent(st.s(), k -> new ArrayList<>()).add(st);
            vocabulary.add(st.p());
            if (DataSample.isIri(st.o())) {
                in.computeIfAbsent(st.o(), k -> new ArrayList<>()).add(st);
            }
            if (DataSample.RDF_TYPE.equals(st.p()) && DataSample.isIri(st.o())) {
                vocabulary.add(st.o());
                members.computeIfAbsent(st.o(), k -> new ArrayList<>()).add(st.s());
            }
        }
        // subjects read whole or with more than their type: the ones whose properties are known
        List<String> known = new ArrayList<>();
        for (Map.Entry<String, List<Statement>> e : out.entrySet()) {
            if (properties(e.getKey()).size() >= 2) {
                known.add(e.getKey());
                for (Statement st : properties(e.getKey())) {
                    havePredicate.computeIfAbsent(st.p(), k -> new ArrayList<>()).add(e.getKey());
                }
            }
        }
        this.subjects = known;
        this.linked = in.keySet().stream().filter(o -> sample.inComplete(o) && in.get(o).size() >= 2).toList();
        this.smallClasses = sample.smallClasses().keySet().stream()
                .filter(c -> members.getOrDefault(c, List.of()).stream().anyMatch(s -> !texts(s).isEmpty())).toList();
        Set<String> iris = new LinkedHashSet<>(vocabulary);
        iris.addAll(out.keySet());
        iris.addAll(in.keySet());
        this.names = new QueryNames(vocabulary, iris);
    }

    /**
     * {@code count} queries made from {@code sample} as log entries (text and {@code Accept}), the kinds in turn, the
     * constants drawn with {@code seed}; none if the sample holds nothing to ask about.
     */
    static List<QueryLog.Entry> entries(DataSample sample, int count, long seed) {
        return new DataQueries(sample).make(count, seed);
    }

    private List<QueryLog.Entry> make(int count, long seed) {
        List<Function<Random, Query>> kinds = List.of(this::pointStar, this::subjectAll, this::describe,
                this::construct, this::linkJoin, this::classStar, this::classUnbound, this::union, this::regex,
                this::ask, this::count, this::twoHop, this::about, this::describeLinked, this::similar);
        Random random = new Random(seed);
        List<QueryLog.Entry> entries = new ArrayList<>(count);
        int misses = 0;
        for (int k = 0; entries.size() < count && misses < 4 * kinds.size(); k++) {
            Query q = kinds.get(k % kinds.size()).apply(random);
            if (q == null) {
                misses++;
                continue;
            }
            misses = 0;
            String text = names.written(q.text(), random.nextInt(3));
            if (random.nextBoolean()) {
                text = WarmupData.laidOut(text, random.nextBoolean());
            }
            boolean other = random.nextInt(8) == 7;
            String accept = q.graph() ? (other ? GRAPH_OTHER : GRAPH_ACCEPT) : (other ? SELECT_OTHER : SELECT_ACCEPT);
            entries.add(QueryLog.Entry.of(accept, text));
        }
        return entries;
    }

    // ---- what the sample says of terms and subjects

    /** A subject's statements but its types. */
    private List<Statement> properties(String s) {
        return out.getOrDefault(s, List.of()).stream().filter(st -> !DataSample.RDF_TYPE.equals(st.p())).toList();
    }

    private List<Statement> texts(String s) {
        return properties(s).stream().filter(st -> isText(st.o())).toList();
    }

    private List<Statement> numbers(String s) {
        return properties(s).stream().filter(st -> isNumber(st.o())).toList();
    }

    private List<Statement> dates(String s) {
        return properties(s).stream().filter(st -> isDate(st.o())).toList();
    }

    private List<Statement> links(String s) {
        return properties(s).stream().filter(st -> DataSample.isIri(st.o())).toList();
    }

    static boolean isNumber(String term) {
        if (NUMBER.matcher(term).matches()) {
            return true;
        }
        Matcher m = TYPED.matcher(term);
        return m.matches() && NUMERIC_TYPES.contains(m.group(2)) && NUMBER.matcher(m.group(1)).matches();
    }

    static boolean isDate(String term) {
        Matcher m = TYPED.matcher(term);
        return m.matches() && DATE_TYPES.contains(m.group(2));
    }

    /** A plain, language-tagged or {@code xsd:string} literal. */
    static boolean isText(String term) {
        if (!term.startsWith("\"")) {
            return false;
        }
        int close = term.lastIndexOf('"');
        String rest = term.substring(close + 1);
        return close > 0 && (rest.isEmpty() || rest.startsWith("@") || rest.equals("^^<" + XSD + "string>"));
    }

    private static String language(String term) {
        int at = term.lastIndexOf("\"@");
        return at < 0 ? null : term.substring(at + 2);
    }

    private static <T> T pick(List<T> list, Random r) {
        return list.isEmpty() ? null : list.get(r.nextInt(list.size()));
    }

    /** The text statement of {@code s} with the shortest value (a label rather than a description), or null. */
    private Statement label(String s) {
        Statement best = null;
        for (Statement st : texts(s)) {
            if (best == null || st.o().length() < best.o().length()) {
                best = st;
            }
        }
        return best;
    }

    private static String type(Random r) {
        return r.nextBoolean() ? "a" : DataSample.RDF_TYPE;
    }

    // ---- the kinds; each returns null when the sample lacks what it needs

    /** A subject's properties, one joined with the linked subject's label, one OPTIONAL. */
    private Query pointStar(Random r) {
        String x = pick(subjects, r);
        if (x == null) {
            return null;
        }
        List<Statement> props = new ArrayList<>(properties(x));
        java.util.Collections.shuffle(props, r);
        List<String> predicates = props.stream().map(Statement::p).distinct().limit(3).toList();
        if (predicates.size() < 2) {
            return null;
        }
        StringBuilder q = new StringBuilder("SELECT ?v1 ?v2 ?v3 ?l WHERE { ");
        q.append(x).append(' ').append(predicates.get(0)).append(" ?v1 . ");
        q.append(x).append(' ').append(predicates.get(1)).append(" ?v2 . ");
        Statement link = pick(links(x), r);
        Statement linkLabel = link == null ? null : label(link.o());
        if (linkLabel != null) {
            q.append(x).append(' ').append(link.p()).append(" ?o . ?o ").append(linkLabel.p()).append(" ?l . ");
        }
        if (predicates.size() > 2) {
            q.append("OPTIONAL { ").append(x).append(' ').append(predicates.get(2)).append(" ?v3 } ");
        }
        return new Query(q.append('}').toString(), false);
    }

    /** All statements of a subject read whole. */
    private Query subjectAll(Random r) {
        String x = pick(subjects.stream().filter(sample::outComplete).toList(), r);
        return x == null ? null : new Query("SELECT ?p ?o WHERE { " + x + " ?p ?o }", false);
    }

    private Query describe(Random r) {
        String x = pick(subjects.stream().filter(sample::outComplete).toList(), r);
        return x == null ? null : new Query("DESCRIBE " + x, true);
    }

    /** Two of a subject's properties as a graph, or the properties of the subjects linking to an object. */
    private Query construct(Random r) {
        if (r.nextBoolean()) {
            String o = pick(linked, r);
            if (o != null) {
                Statement st = pick(in.get(o), r);
                Statement prop = pick(properties(pick(havePredicate.getOrDefault(st.p(), List.of(st.s())), r)), r);
                if (prop != null) {
                    return new Query("CONSTRUCT { ?s " + prop.p() + " ?v } WHERE { ?s " + st.p() + " " + o + " . ?s "
                            + prop.p() + " ?v } LIMIT " + MAX_LIMIT, true);
                }
            }
        }
        String x = pick(subjects, r);
        if (x == null) {
            return null;
        }
        List<String> predicates = properties(x).stream().map(Statement::p).distinct().toList();
        String p1 = pick(predicates, r);
        String p2 = pick(predicates, r);
        Statement link = pick(links(x), r);
        Statement linkLabel = link == null ? null : label(link.o());
        // the linked subject's label, when there is one, in the template and the pattern
        String template = linkLabel == null ? "" : " . " + x + " " + link.p() + " ?o . ?o " + linkLabel.p() + " ?l";
        String pattern = linkLabel == null ? "" : x + " " + link.p() + " ?o . ?o " + linkLabel.p() + " ?l . ";
        return new Query("CONSTRUCT { " + x + " " + p1 + " ?a . " + x + " " + p2 + " ?b" + template + " } WHERE { "
                + pattern + x + " " + p1 + " ?a . OPTIONAL { " + x + " " + p2 + " ?b } }", true);
    }

    /** The subjects linking to an object, with a text (in the text's language), a number or date, ordered. */
    private Query linkJoin(Random r) {
        String o = pick(linked, r);
        if (o == null) {
            return null;
        }
        Statement st = pick(in.get(o), r);
        String y = pick(havePredicate.getOrDefault(st.p(), List.of()), r);
        Statement text = y == null ? null : pick(texts(y), r);
        if (text == null) {
            return null;
        }
        Statement number = pick(numbers(y), r);
        Statement date = pick(dates(y), r);
        StringBuilder q = new StringBuilder("SELECT ?s ?t ?v WHERE { ?s ").append(st.p()).append(' ').append(o)
                .append(" . ?s ").append(text.p()).append(" ?t . ");
        if (date != null) {
            q.append("?s ").append(date.p()).append(" ?d . FILTER (?d <= ").append(date.o()).append(") ");
        }
        if (number != null) {
            q.append("OPTIONAL { ?s ").append(number.p()).append(" ?v } ");
        }
        String lang = language(text.o());
        if (lang != null && r.nextBoolean()) {
            q.append("FILTER (langMatches(lang(?t), \"").append(lang).append("\")) ");
        }
        // ordered by the date, the number (as stored, or cast as clients do), or the text
        int order = r.nextInt(4);
        String by = date != null && order == 0 ? "DESC(?d)" : number == null ? "?t"
                : order == 1 ? "<" + XSD + "double>(str(?v))" : "DESC(?v) ?s";
        q.append("} ORDER BY ").append(by).append(" LIMIT ").append(10 + r.nextInt(MAX_LIMIT - 9));
        return new Query(q.toString(), false);
    }

    /** A small class's instances with a member's link, a label and a numeric filter, DISTINCT and ordered. */
    private Query classStar(Random r) {
        return classQuery(r, false);
    }

    /** {@link #classStar} with an OPTIONAL second number that must be unbound. */
    private Query classUnbound(Random r) {
        return classQuery(r, true);
    }

    private Query classQuery(Random r, boolean unbound) {
        String c = pick(smallClasses, r);
        if (c == null) {
            return null;
        }
        String x = pick(members.get(c).stream().filter(s -> !texts(s).isEmpty()).toList(), r);
        Statement label = label(x);
        Statement link = pick(links(x), r);
        List<Statement> nums = numbers(x);
        Statement num = pick(nums, r);
        StringBuilder q = new StringBuilder("SELECT DISTINCT ?s ?l WHERE { ?s ").append(type(r)).append(' ').append(c)
                .append(" . ");
        // without the link, the query sorts all of the class's instances that pass the filter (below the count bound)
        if (link != null && r.nextBoolean()) {
            q.append("?s ").append(link.p()).append(' ').append(link.o()).append(" . ");
        }
        q.append("?s ").append(label.p()).append(" ?l . ");
        Statement date = pick(dates(x), r);
        if (date != null && r.nextBoolean()) {
            q.append("?s ").append(date.p()).append(" ?d . FILTER (?d > ").append(date.o()).append(") ");
        }
        if (num != null) {
            q.append("?s ").append(num.p()).append(" ?v . FILTER (?v ").append(r.nextBoolean() ? ">" : "<=").append(' ')
                    .append(num.o()).append(") ");
        }
        if (unbound) {
            Statement other = pick(nums, r);
            if (other == null) {
                return null;
            }
            q.append("OPTIONAL { ?s ").append(other.p()).append(" ?w . FILTER (?w > ").append(other.o())
                    .append(") } FILTER (!bound(?w)) ");
        }
        q.append("} ORDER BY ?l LIMIT ").append(5 + r.nextInt(16));
        return new Query(q.toString(), false);
    }

    /** Two of a small class's member groups in a UNION, ordered, with an OFFSET. */
    private Query union(Random r) {
        String c = pick(smallClasses, r);
        if (c == null) {
            return null;
        }
        List<String> candidates = members.get(c).stream().filter(s -> !texts(s).isEmpty() && !links(s).isEmpty())
                .toList();
        String x1 = pick(candidates, r);
        String x2 = pick(candidates, r);
        if (x1 == null) {
            return null;
        }
        StringBuilder q = new StringBuilder("SELECT ?s ?l WHERE { ");
        String t = type(r);
        for (int i = 0; i < 2; i++) {
            String x = i == 0 ? x1 : x2;
            Statement link = pick(links(x), r);
            Statement num = pick(numbers(x), r);
            q.append(i == 0 ? "{ " : "UNION { ").append("?s ").append(t).append(' ').append(c).append(" . ?s ")
                    .append(link.p()).append(' ').append(link.o()).append(" . ?s ").append(label(x).p())
                    .append(" ?l . ");
            if (num != null) {
                q.append("?s ").append(num.p()).append(" ?v . FILTER (?v ").append(i == 0 ? ">=" : "<").append(' ')
                        .append(num.o()).append(") ");
            }
            q.append("} ");
        }
        q.append("} ORDER BY ?l ?s OFFSET ").append(r.nextInt(6)).append(" LIMIT 10");
        return new Query(q.toString(), false);
    }

    /** A small class's instances whose label matches a word of a member's label. */
    private Query regex(Random r) {
        String c = pick(smallClasses, r);
        if (c == null) {
            return null;
        }
        String x = pick(members.get(c).stream().filter(s -> !texts(s).isEmpty()).toList(), r);
        Statement label = pick(texts(x), r);
        Matcher words = WORD.matcher(label.o());
        List<String> found = new ArrayList<>();
        while (words.find() && found.size() < 20) {
            found.add(words.group());
        }
        String word = pick(found, r);
        if (word == null) {
            return null;
        }
        String w = r.nextBoolean() ? word.toLowerCase(java.util.Locale.ROOT) : word;
        return new Query("SELECT ?s ?l WHERE { ?s " + type(r) + " " + c + " . ?s " + label.p() + " ?l . FILTER regex(?l, \""
                + w + "\", \"i\") } ORDER BY ?l LIMIT 10", false);
    }

    /** Whether a subject has a property value: one it has, or another subject's. */
    private Query ask(Random r) {
        String x = pick(subjects, r);
        if (x == null) {
            return null;
        }
        Statement st = pick(properties(x).stream().filter(p -> DataSample.isIri(p.o()) || isNumber(p.o())).toList(), r);
        if (st == null) {
            return null;
        }
        String o = st.o();
        if (r.nextBoolean()) {
            Statement other = pick(properties(pick(havePredicate.get(st.p()), r)).stream()
                    .filter(p -> p.p().equals(st.p())).toList(), r);
            o = other == null ? o : other.o();
        }
        return new Query("ASK { " + x + " " + st.p() + " " + o + " }", false);
    }

    /** How many subjects link to an object. */
    private Query count(Random r) {
        String o = pick(linked, r);
        if (o == null) {
            return null;
        }
        Statement st = pick(in.get(o), r);
        return new Query("SELECT (COUNT(?s) AS ?n) WHERE { ?s " + st.p() + " " + o + " }", false);
    }

    /** An object's label, and under OPTIONAL the subjects linking to it with another link's label and a number. */
    private Query twoHop(Random r) {
        String o = pick(linked, r);
        if (o == null) {
            return null;
        }
        Statement st = pick(in.get(o), r);
        String y = pick(havePredicate.getOrDefault(st.p(), List.of()), r);
        if (y == null) {
            return null;
        }
        Statement second = pick(links(y).stream().filter(l -> !l.p().equals(st.p()) && label(l.o()) != null).toList(),
                r);
        if (second == null) {
            return null;
        }
        Statement own = label(o);
        Statement num = pick(numbers(y), r);
        StringBuilder q = new StringBuilder("SELECT ?t ?s ?l2 ?v WHERE { ");
        if (own != null) {
            q.append(o).append(' ').append(own.p()).append(" ?t . ");
        }
        q.append("OPTIONAL { ?s ").append(st.p()).append(' ').append(o).append(" . ?s ").append(second.p())
                .append(" ?o2 . ?o2 ").append(label(second.o()).p()).append(" ?l2 . ");
        if (num != null) {
            q.append("?s ").append(num.p()).append(" ?v . ");
        }
        q.append("} } LIMIT ").append(MAX_LIMIT);
        return new Query(q.toString(), false);
    }

    /** Every statement about a subject read whole both ways: its own and those pointing at it, in a UNION. */
    private Query about(Random r) {
        String x = pick(subjects.stream().filter(s -> sample.outComplete(s) && sample.inComplete(s)).toList(), r);
        return x == null ? null
                : new Query("SELECT ?s ?p ?o WHERE { { " + x + " ?p ?o } UNION { ?s ?p " + x + " } }", false);
    }

    /** The subject a subject links to, described. */
    private Query describeLinked(Random r) {
        String x = pick(subjects, r);
        Statement link = x == null ? null : pick(links(x).stream().filter(l -> sample.outComplete(l.o())).toList(), r);
        return link == null ? null : new Query("DESCRIBE ?y WHERE { " + x + " " + link.p() + " ?y }", true);
    }

    /**
     * A small class's instances whose number lies near a member's, the member left out: arithmetic in the filter,
     * the member's value read in the same pattern group.
     */
    private Query similar(Random r) {
        String c = pick(smallClasses, r);
        if (c == null) {
            return null;
        }
        String x = pick(members.get(c).stream().filter(s -> !texts(s).isEmpty() && !numbers(s).isEmpty()).toList(), r);
        if (x == null) {
            return null;
        }
        Statement num = pick(numbers(x), r);
        Statement number2 = pick(numbers(x), r);
        StringBuilder q = new StringBuilder("SELECT DISTINCT ?s ?l WHERE { ?s ").append(type(r)).append(' ').append(c)
                .append(" . ?s ").append(label(x).p()).append(" ?l . ").append(x).append(' ').append(num.p())
                .append(" ?xv . ?s ").append(num.p()).append(" ?v . ");
        if (!number2.p().equals(num.p())) {
            q.append(x).append(' ').append(number2.p()).append(" ?xw . ?s ").append(number2.p()).append(" ?w . FILTER (?w < (?xw * 2)) ");
        }
        q.append("FILTER (?s != ").append(x).append(" && ?v > (?xv - 100) && ?v < (?xv + 100)) } ORDER BY ?l LIMIT 5");
        return new Query(q.toString(), false);
    }
}
