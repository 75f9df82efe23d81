package dev.basalt.bench.lubm;

import java.util.List;

import dev.basalt.bench.driver.QueryTemplate;

/**
 * The 14 LUBM queries, as defined by the benchmark, in SPARQL.
 *
 * <p>Immutable: constants only, safe to share between threads.
 */
public final class LubmQueries {

	private static final String PREFIXES = """
			PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
			PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>
			""";

	public static final List<QueryTemplate> ALL = List.of(
			q(1, "SELECT ?X WHERE { ?X rdf:type ub:GraduateStudent . "
					+ "?X ub:takesCourse <http://www.Department0.University0.edu/GraduateCourse0> }"),
			q(2, "SELECT ?X ?Y ?Z WHERE { ?X rdf:type ub:GraduateStudent . ?Y rdf:type ub:University . "
					+ "?Z rdf:type ub:Department . ?X ub:memberOf ?Z . ?Z ub:subOrganizationOf ?Y . "
					+ "?X ub:undergraduateDegreeFrom ?Y }"),
			q(3, "SELECT ?X WHERE { ?X rdf:type ub:Publication . "
					+ "?X ub:publicationAuthor <http://www.Department0.University0.edu/AssistantProfessor0> }"),
			q(4, "SELECT ?X ?Y1 ?Y2 ?Y3 WHERE { ?X rdf:type ub:Professor . "
					+ "?X ub:worksFor <http://www.Department0.University0.edu> . ?X ub:name ?Y1 . "
					+ "?X ub:emailAddress ?Y2 . ?X ub:telephone ?Y3 }"),
			q(5, "SELECT ?X WHERE { ?X rdf:type ub:Person . ?X ub:memberOf <http://www.Department0.University0.edu> }"),
			q(6, "SELECT ?X WHERE { ?X rdf:type ub:Student }"),
			q(7, "SELECT ?X ?Y WHERE { ?X rdf:type ub:Student . ?Y rdf:type ub:Course . ?X ub:takesCourse ?Y . "
					+ "<http://www.Department0.University0.edu/AssociateProfessor0> ub:teacherOf ?Y }"),
			q(8, "SELECT ?X ?Y ?Z WHERE { ?X rdf:type ub:Student . ?Y rdf:type ub:Department . ?X ub:memberOf ?Y . "
					+ "?Y ub:subOrganizationOf <http://www.University0.edu> . ?X ub:emailAddress ?Z }"),
			q(9, "SELECT ?X ?Y ?Z WHERE { ?X rdf:type ub:Student . ?Y rdf:type ub:Faculty . ?Z rdf:type ub:Course . "
					+ "?X ub:advisor ?Y . ?Y ub:teacherOf ?Z . ?X ub:takesCourse ?Z }"),
			q(10, "SELECT ?X WHERE { ?X rdf:type ub:Student . "
					+ "?X ub:takesCourse <http://www.Department0.University0.edu/GraduateCourse0> }"),
			q(11, "SELECT ?X WHERE { ?X rdf:type ub:ResearchGroup . "
					+ "?X ub:subOrganizationOf <http://www.University0.edu> }"),
			q(12, "SELECT ?X ?Y WHERE { ?X rdf:type ub:Chair . ?Y rdf:type ub:Department . ?X ub:worksFor ?Y . "
					+ "?Y ub:subOrganizationOf <http://www.University0.edu> }"),
			q(13, "SELECT ?X WHERE { ?X rdf:type ub:Person . <http://www.University0.edu> ub:hasAlumnus ?X }"),
			q(14, "SELECT ?X WHERE { ?X rdf:type ub:UndergraduateStudent }"));

	private LubmQueries() {
	}

	private static QueryTemplate q(int number, String body) {
		return new QueryTemplate("Q" + number, "LUBM query " + number, PREFIXES + body);
	}
}
