package dev.basalt.bench.driver.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.basalt.bench.driver.QueryForm;

/**
 * The answers {@link ClientWarmup} sends, built once and the same in every run (from fixed seeds), so that the
 * client's result counters take while warming up the paths real servers' answers take them on: for each result and
 * graph format several answers of 0, 1, a few and many results, up to about 70 KB (several times the StAX scanner's and
 * the byte readers' buffers, with names, texts and multi-byte characters across their ends); laid out as RDF4J Server
 * writes them (SPARQL XML on one line, RDF/XML with tab indentation and line breaks, attributes in single quotes), compact
 * on one line as Oxigraph writes them (double quotes), and indented by tabs or spaces; bindings of every kind (IRI, blank node, plain literal, literal with a
 * datatype, with a language tag), some variables unbound; texts from a few characters to a few thousand with markup
 * to escape. Graphs in RDF/XML have described and typed node elements, IRI and blank-node subjects, literal, typed,
 * tagged and resource objects. An ASK is answered true and false. Each {@link Answer} carries how many results it
 * holds. Immutable; safe to share between threads.
 */
final class WarmupAnswers {

	/** An answer's bytes (UTF-8) and its number of solutions or statements (1 or 0 for an ASK's boolean). */
	record Answer(byte[] body, long results) {
	}

	/** How a document is laid out: line break and indentation unit (both empty for one line), attribute quote. */
	private enum Layout {
		TABS("\n", "\t", '\''), COMPACT("", "", '"'), SPACES("\n", "  ", '"'), COMPACT_SINGLE("", "", '\'');

		final String newline;
		final String indent;
		final char quote;

		Layout(String newline, String indent, char quote) {
			this.newline = newline;
			this.indent = indent;
			this.quote = quote;
		}
	}

	private static final String XSD = "http://www.w3.org/2001/XMLSchema#";
	private static final String RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
	private static final String INSTANCES = "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/";
	private static final String[] DATATYPES = { XSD + "integer", XSD + "date", XSD + "double", XSD + "dateTime",
			XSD + "string" };
	private static final String[] LANGUAGES = { "en", "de", "en-GB", "ja" };
	private static final String[] WORDS = { "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing",
			"\u00e9lite", "\u00fcber", "na\u00efve", "caf\u00e9", "\u2014", "\u65e5\u672c", "a&b", "<tag>", "\"quoted\"",
			"it's", "\ud834\udd1e", "x>y", "tab\tbed" };
	/** Namespace, prefix and local name of the predicates of the graphs. */
	private static final String[][] PREDICATES = { { "http://www.w3.org/2000/01/rdf-schema#", "rdfs", "label" },
			{ "http://www.w3.org/2000/01/rdf-schema#", "rdfs", "comment" },
			{ "http://xmlns.com/foaf/0.1/", "foaf", "name" }, { "http://purl.org/dc/elements/1.1/", "dc", "date" },
			{ "http://purl.org/dc/elements/1.1/", "dc", "publisher" }, { "http://purl.org/stuff/rev#", "rev", "text" },
			{ "http://purl.org/stuff/rev#", "rev", "reviewer" },
			{ "http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/", "bsbm", "productFeature" } };

	/**
	 * Selects: rows, variables, layout, longest text; graphs: subjects, layout, longest text, most properties per
	 * subject besides its type (a subject has a type only with more than one).
	 */
	private static final int[][] SELECTS = { { 0, 2, 3, 0 }, { 1, 3, 1, 40 }, { 1, 1, 0, 3000 }, { 7, 4, 1, 2500 },
			{ 20, 3, 3, 300 }, { 3, 2, 3, 100 }, { 60, 2, 1, 80 }, { 5, 4, 3, 200 }, { 100, 4, 2, 250 },
			{ 2, 3, 0, 60 }, { 10, 3, 2, 2500 }, { 4, 1, 3, 30 } };
	private static final int[][] GRAPHS = { { 0, 0, 0, 6 }, { 1, 1, 200, 1 }, { 4, 0, 3000, 6 }, { 12, 2, 600, 6 },
			{ 40, 1, 600, 6 }, { 3, 2, 5000, 3 }, { 1, 3, 100, 6 }, { 8, 3, 400, 6 }, { 2, 0, 150, 4 } };

	private static final Map<String, List<Answer>> SELECT = selects();
	private static final Map<String, List<Answer>> GRAPH = graphs();
	private static final Map<String, List<Answer>> ASK = asks();

	private WarmupAnswers() {
	}

	/** The answers for a query of form {@code form} in media type {@code accept}; empty for a type it has none in. */
	static List<Answer> of(QueryForm form, String accept) {
		Map<String, List<Answer>> byType = form.isGraph() ? GRAPH : form == QueryForm.ASK ? ASK : SELECT;
		return byType.getOrDefault(accept, List.of());
	}

	// ---- the values ----

	/** One term: kind 0 IRI, 1 blank node, 2 plain literal, 3 typed literal, 4 tagged literal; null when unbound. */
	private record Term(int kind, String value, String qualifier) {
		static Term draw(Random random, int maxText, boolean allowUnbound) {
			if (allowUnbound && random.nextInt(9) == 0) {
				return null;
			}
			int kind = random.nextInt(5);
			return switch (kind) {
				case 0 -> new Term(0, INSTANCES + "dataFromProducer" + random.nextInt(100) + "/Product" + random.nextInt(3000), null);
				case 1 -> new Term(1, "node" + Integer.toHexString(random.nextInt(1 << 20)), null);
				case 3 -> {
					int type = random.nextInt(DATATYPES.length);
					String value = switch (type) {
						case 0 -> Integer.toString(random.nextInt(20000) - 100);
						case 1 -> "2008-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10);
						case 2 -> random.nextInt(10000) + "." + random.nextInt(100) + "E" + random.nextInt(3);
						case 3 -> "2008-06-2" + random.nextInt(10) + "T1" + random.nextInt(10) + ":0" + random.nextInt(10) + ":00Z";
						default -> text(random, maxText);
					};
					yield new Term(3, value, DATATYPES[type]);
				}
				default -> new Term(kind, text(random, maxText), kind == 4 ? LANGUAGES[random.nextInt(LANGUAGES.length)] : null);
			};
		}
	}

	/** Words up to about {@code max} characters (at least one). */
	private static String text(Random random, int max) {
		int length = 1 + random.nextInt(Math.max(1, max));
		StringBuilder s = new StringBuilder(WORDS[random.nextInt(WORDS.length)]);
		while (s.length() < length) {
			s.append(random.nextInt(40) == 0 ? "\n" : " ").append(WORDS[random.nextInt(WORDS.length)]);
		}
		return s.toString();
	}

	private static String escapeXml(String s, char quote) {
		StringBuilder b = new StringBuilder(s.length() + 16);
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			switch (c) {
				case '&' -> b.append("&amp;");
				case '<' -> b.append("&lt;");
				case '>' -> b.append("&gt;");
				case '"' -> b.append(quote == '"' ? "&quot;" : "\"");
				case '\'' -> b.append(quote == '\'' ? "&apos;" : "'");
				default -> b.append(c);
			}
		}
		return b.toString();
	}

	private static String escapeJson(String s) {
		StringBuilder b = new StringBuilder(s.length() + 16);
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			switch (c) {
				case '"' -> b.append("\\\"");
				case '\\' -> b.append("\\\\");
				case '\n' -> b.append("\\n");
				case '\t' -> b.append("\\t");
				default -> b.append(c);
			}
		}
		return b.toString();
	}

	/** A term in SPARQL TSV and N-Triples (the latter with {@code nTriples}: literals always quoted). */
	private static String nt(Term t, boolean nTriples) {
		if (t == null) {
			return "";
		}
		return switch (t.kind()) {
			case 0 -> "<" + t.value() + ">";
			case 1 -> "_:" + t.value();
			default -> {
				if (!nTriples && t.kind() == 3 && t.qualifier().equals(XSD + "integer")) {
					yield t.value();
				}
				String quoted = "\"" + escapeJson(t.value()) + "\"";
				yield t.kind() == 3 ? quoted + "^^<" + t.qualifier() + ">" : t.kind() == 4 ? quoted + "@" + t.qualifier() : quoted;
			}
		};
	}

	// ---- SELECT ----

	private static Map<String, List<Answer>> selects() {
		List<Answer> xml = new ArrayList<>();
		List<Answer> json = new ArrayList<>();
		List<Answer> tsv = new ArrayList<>();
		for (int v = 0; v < SELECTS.length; v++) {
			int[] spec = SELECTS[v];
			Random random = new Random(808L * 31 + v);
			String[] vars = new String[spec[1]];
			for (int i = 0; i < vars.length; i++) {
				vars[i] = new String[] { "product", "label", "text", "date" }[i];
			}
			Term[][] rows = new Term[spec[0]][vars.length];
			for (Term[] row : rows) {
				for (int i = 0; i < vars.length; i++) {
					row[i] = Term.draw(random, spec[3], i > 0);
				}
			}
			Layout layout = Layout.values()[spec[2]];
			xml.add(new Answer(utf8(selectXml(vars, rows, layout)), rows.length));
			json.add(new Answer(utf8(selectJson(vars, rows, layout)), rows.length));
			tsv.add(new Answer(utf8(selectTsv(vars, rows)), rows.length));
		}
		return Map.of("application/sparql-results+xml", List.copyOf(xml), "application/sparql-results+json",
				List.copyOf(json), "text/tab-separated-values", List.copyOf(tsv));
	}

	private static String selectXml(String[] vars, Term[][] rows, Layout l) {
		char q = l.quote;
		String n = l.newline;
		String i1 = l.indent;
		String i2 = i1.repeat(2);
		String i3 = i1.repeat(3);
		String i4 = i1.repeat(4);
		StringBuilder x = new StringBuilder(l == Layout.COMPACT ? "<?xml version=\"1.0\"?>"
				: "<?xml version=" + q + "1.0" + q + " encoding=" + q + "UTF-8" + q + "?>" + n);
		x.append("<sparql xmlns=").append(q).append("http://www.w3.org/2005/sparql-results#").append(q).append('>')
				.append(n).append(i1).append("<head>").append(n);
		for (String var : vars) {
			x.append(i2).append("<variable name=").append(q).append(var).append(q).append("/>").append(n);
		}
		x.append(i1).append("</head>").append(n).append(i1).append("<results>").append(n);
		for (Term[] row : rows) {
			x.append(i2).append("<result>").append(n);
			for (int i = 0; i < vars.length; i++) {
				Term t = row[i];
				if (t == null) {
					continue;
				}
				x.append(i3).append("<binding name=").append(q).append(vars[i]).append(q).append('>').append(n).append(i4);
				switch (t.kind()) {
					case 0 -> x.append("<uri>").append(escapeXml(t.value(), q)).append("</uri>");
					case 1 -> x.append("<bnode>").append(t.value()).append("</bnode>");
					default -> {
						x.append("<literal");
						if (t.kind() == 3) {
							x.append(" datatype=").append(q).append(t.qualifier()).append(q);
						} else if (t.kind() == 4) {
							x.append(" xml:lang=").append(q).append(t.qualifier()).append(q);
						}
						x.append('>').append(escapeXml(t.value(), q)).append("</literal>");
					}
				}
				x.append(n).append(i3).append("</binding>").append(n);
			}
			x.append(i2).append("</result>").append(n);
		}
		return x.append(i1).append("</results>").append(n).append("</sparql>").append(n).toString();
	}

	private static String selectJson(String[] vars, Term[][] rows, Layout l) {
		String n = l.newline;
		String i1 = l.indent;
		String sp = l == Layout.COMPACT ? "" : " ";
		StringBuilder j = new StringBuilder("{").append(n).append(i1).append("\"head\":").append(sp).append("{\"vars\":[");
		for (int i = 0; i < vars.length; i++) {
			j.append(i == 0 ? "" : ",").append('"').append(vars[i]).append('"');
		}
		j.append("]},").append(n).append(i1).append("\"results\":").append(sp).append("{\"bindings\":[").append(n);
		for (int r = 0; r < rows.length; r++) {
			j.append(r == 0 ? "" : "," + n).append(i1).append(i1).append('{');
			boolean first = true;
			for (int i = 0; i < vars.length; i++) {
				Term t = rows[r][i];
				if (t == null) {
					continue;
				}
				j.append(first ? "" : ",").append(n).append(i1.repeat(3)).append('"').append(vars[i]).append("\":")
						.append(sp).append("{\"type\":\"")
						.append(new String[] { "uri", "bnode", "literal", "literal", "literal" }[t.kind()])
						.append("\",").append(sp).append("\"value\":\"").append(escapeJson(t.value())).append('"');
				if (t.kind() == 3) {
					j.append(",\"datatype\":\"").append(t.qualifier()).append('"');
				} else if (t.kind() == 4) {
					j.append(",\"xml:lang\":\"").append(t.qualifier()).append('"');
				}
				j.append('}');
				first = false;
			}
			j.append('}');
		}
		return j.append(n).append(i1).append("]}").append(n).append("}").append(n).toString();
	}

	private static String selectTsv(String[] vars, Term[][] rows) {
		StringBuilder t = new StringBuilder();
		for (int i = 0; i < vars.length; i++) {
			t.append(i == 0 ? "?" : "\t?").append(vars[i]);
		}
		t.append('\n');
		for (Term[] row : rows) {
			for (int i = 0; i < row.length; i++) {
				t.append(i == 0 ? "" : "\t").append(nt(row[i], false));
			}
			t.append('\n');
		}
		return t.toString();
	}

	// ---- CONSTRUCT and DESCRIBE ----

	/** A statement's predicate (an index into PREDICATES, -1 for rdf:type) and object. */
	private record Property(int predicate, Term object) {
	}

	private static Map<String, List<Answer>> graphs() {
		List<Answer> rdfXml = new ArrayList<>();
		List<Answer> nTriples = new ArrayList<>();
		for (int v = 0; v < GRAPHS.length; v++) {
			int[] spec = GRAPHS[v];
			Random random = new Random(808L * 37 + v);
			Layout layout = Layout.values()[spec[1]];
			StringBuilder x = new StringBuilder(layout == Layout.COMPACT ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
					: "<?xml version='1.0' encoding='UTF-8'?>\n");
			StringBuilder nt = new StringBuilder();
			char q = layout.quote;
			x.append("<rdf:RDF");
			String[][] declared = { { RDF, "rdf" }, { PREDICATES[0][0], "rdfs" }, { PREDICATES[2][0], "foaf" },
					{ PREDICATES[3][0], "dc" }, { PREDICATES[5][0], "rev" }, { PREDICATES[7][0], "bsbm" } };
			for (String[] ns : layout == Layout.COMPACT ? new String[][] { declared[0] } : declared) {
				x.append(layout.newline.isEmpty() ? " " : layout.newline + layout.indent).append("xmlns:").append(ns[1])
						.append('=').append(q).append(ns[0]).append(q);
			}
			x.append('>').append(layout.newline);
			long statements = 0;
			for (int s = 0; s < spec[0]; s++) {
				Term subject = random.nextInt(4) == 0 ? new Term(1, "s" + s, null)
						: new Term(0, INSTANCES + "dataFromRatingSite" + random.nextInt(10) + "/Review" + s, null);
				List<Property> properties = new ArrayList<>();
				boolean typedNode = spec[3] > 1 && random.nextBoolean();
				if (typedNode || spec[3] > 1 && random.nextBoolean()) {
					properties.add(new Property(-1, new Term(0, PREDICATES[7][0] + "Review", null)));
				}
				for (int p = 1 + random.nextInt(spec[3]); p > 0; p--) {
					int predicate = random.nextInt(PREDICATES.length);
					Term object = Term.draw(random, spec[2], false);
					properties.add(new Property(predicate, object));
				}
				statements += properties.size();
				writeNode(x, subject, properties, layout, typedNode && layout != Layout.COMPACT);
				for (Property p : properties) {
					nt.append(nt(subject, true)).append(" <")
							.append(p.predicate() < 0 ? RDF + "type" : PREDICATES[p.predicate()][0] + PREDICATES[p.predicate()][2])
							.append("> ").append(nt(p.object(), true)).append(" .\n");
				}
			}
			x.append("</rdf:RDF>").append(layout.newline);
			rdfXml.add(new Answer(utf8(x.toString()), statements));
			nTriples.add(new Answer(utf8(nt.toString()), statements));
		}
		return Map.of("application/rdf+xml", List.copyOf(rdfXml), "application/n-triples", List.copyOf(nTriples));
	}

	/**
	 * One node element: {@code rdf:Description}, or with {@code typed} the type's element ({@code bsbm:Review}, the
	 * first property then being its rdf:type), then a property element per property.
	 */
	private static void writeNode(StringBuilder x, Term subject, List<Property> properties, Layout l, boolean typed) {
		char q = l.quote;
		String i1 = l.indent;
		String element = typed ? "bsbm:Review" : "rdf:Description";
		x.append('<').append(element).append(subject.kind() == 0 ? " rdf:about=" : " rdf:nodeID=").append(q)
				.append(escapeXml(subject.value(), q)).append(q).append('>').append(l.newline);
		for (int i = typed ? 1 : 0; i < properties.size(); i++) {
			Property p = properties.get(i);
			Term o = p.object();
			String name;
			String ns = "";
			if (p.predicate() < 0) {
				name = "rdf:type";
			} else if (l == Layout.COMPACT) {
				name = PREDICATES[p.predicate()][2];
				ns = " xmlns=" + q + PREDICATES[p.predicate()][0] + q;
			} else {
				name = PREDICATES[p.predicate()][1] + ":" + PREDICATES[p.predicate()][2];
			}
			x.append(i1).append('<').append(name).append(ns);
			switch (o.kind()) {
				case 0 -> x.append(" rdf:resource=").append(q).append(escapeXml(o.value(), q)).append(q).append("/>");
				case 1 -> x.append(" rdf:nodeID=").append(q).append(o.value()).append(q).append("/>");
				default -> {
					if (o.kind() == 3) {
						x.append(" rdf:datatype=").append(q).append(o.qualifier()).append(q);
					} else if (o.kind() == 4) {
						x.append(" xml:lang=").append(q).append(o.qualifier()).append(q);
					}
					x.append('>').append(escapeXml(o.value(), q)).append("</").append(name).append('>');
				}
			}
			x.append(l.newline);
		}
		x.append("</").append(element).append('>').append(l.newline);
	}

	// ---- ASK ----

	private static Map<String, List<Answer>> asks() {
		List<Answer> xml = new ArrayList<>();
		List<Answer> json = new ArrayList<>();
		for (Layout l : Layout.values()) {
			for (boolean value : new boolean[] { true, false }) {
				char q = l.quote;
				xml.add(new Answer(utf8("<?xml version=" + q + "1.0" + q + "?>" + l.newline + "<sparql xmlns=" + q
						+ "http://www.w3.org/2005/sparql-results#" + q + ">" + l.newline + l.indent + "<head>" + l.newline
						+ l.indent + "</head>" + l.newline + l.indent + "<boolean>" + value + "</boolean>" + l.newline
						+ "</sparql>" + l.newline), value ? 1 : 0));
				json.add(new Answer(utf8("{" + l.newline + l.indent + "\"head\":{}," + l.newline + l.indent
						+ "\"boolean\":" + value + l.newline + "}" + l.newline), value ? 1 : 0));
			}
		}
		return Map.of("application/sparql-results+xml", List.copyOf(xml), "application/sparql-results+json",
				List.copyOf(json));
	}

	private static byte[] utf8(String s) {
		return s.getBytes(StandardCharsets.UTF_8);
	}
}
