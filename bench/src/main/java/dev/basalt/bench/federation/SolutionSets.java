package dev.basalt.bench.federation;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;

/**
 * A query's answer as a sorted list of canonical strings, so two stores' answers compare as
 * multisets: a solution is its bindings as {@code var=term} in variable order, a statement its
 * N-Triples form, an ASK answer "true" or "false". Stateless.
 */
final class SolutionSets {

	private SolutionSets() {
	}

	static List<String> of(Repository repository, String sparql) {
		List<String> rows = new ArrayList<>();
		try (RepositoryConnection c = repository.getConnection()) {
			Query query = c.prepareQuery(QueryLanguage.SPARQL, sparql);
			query.setMaxExecutionTime(300);
			if (query instanceof TupleQuery tuple) {
				try (TupleQueryResult result = tuple.evaluate()) {
					for (BindingSet solution : result) {
						TreeMap<String, String> row = new TreeMap<>();
						solution.forEach(b -> row.put(b.getName(), NTriplesUtil.toNTriplesString(b.getValue())));
						rows.add(row.toString());
					}
				}
			} else if (query instanceof GraphQuery graph) {
				try (GraphQueryResult result = graph.evaluate()) {
					for (Statement s : result) {
						rows.add(NTriplesUtil.toNTriplesString(s.getSubject()) + " " + NTriplesUtil.toNTriplesString(s.getPredicate())
								+ " " + NTriplesUtil.toNTriplesString(s.getObject()));
					}
				}
			} else if (query instanceof BooleanQuery ask) {
				rows.add(String.valueOf(ask.evaluate()));
			}
		}
		rows.sort(null);
		return rows;
	}

	/** The first row present in one list and not at the same place in the other, for error messages. */
	static String firstDifference(List<String> want, List<String> got) {
		for (int i = 0; i < Math.max(want.size(), got.size()); i++) {
			String a = i < want.size() ? want.get(i) : "(none)";
			String b = i < got.size() ? got.get(i) : "(none)";
			if (!a.equals(b)) {
				return "one server: " + a + " / federation: " + b;
			}
		}
		return "(none)";
	}
}
