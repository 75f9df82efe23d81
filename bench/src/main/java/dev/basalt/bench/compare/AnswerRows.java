package dev.basalt.bench.compare;

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
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;

import dev.basalt.bench.driver.QueryExecutor;

/**
 * A query's answer through one connection as a sorted list of canonical rows, so that two engines'
 * answers compare as multisets: a solution is its bindings as {@code var=term} in variable order
 * (terms in N-Triples form), a statement its subject, predicate and object in N-Triples form, an
 * ASK answer "true" or "false". Order within the answer is not compared: where an ORDER BY has ties,
 * engines may order tied rows differently.
 *
 * <p>Thread rules: stateless; the caller's connection is used from the calling thread only.
 */
public final class AnswerRows {
	private AnswerRows() {
	}

	static List<String> of(RepositoryConnection conn, String sparql) {
		Query query = conn.prepareQuery(QueryLanguage.SPARQL, sparql);
		query.setMaxExecutionTime(QueryExecutor.MAX_EXECUTION_SECONDS);
		List<String> rows = new ArrayList<>();
		if (query instanceof TupleQuery tuple) {
			try (TupleQueryResult result = tuple.evaluate()) {
				for (BindingSet solution : result) {
					rows.add(row(solution));
				}
			}
		} else if (query instanceof GraphQuery graph) {
			try (GraphQueryResult result = graph.evaluate()) {
				for (Statement s : result) {
					rows.add(NTriplesUtil.toNTriplesString(s.getSubject()) + " "
							+ NTriplesUtil.toNTriplesString(s.getPredicate()) + " "
							+ NTriplesUtil.toNTriplesString(s.getObject()));
				}
			}
		} else if (query instanceof BooleanQuery ask) {
			rows.add(String.valueOf(ask.evaluate()));
		} else {
			throw new IllegalArgumentException("Unsupported query form: " + sparql);
		}
		rows.sort(null);
		return rows;
	}

	/** A solution as its canonical row: {@code {var=term, ...}} in variable order, terms in N-Triples form. */
	public static String row(BindingSet solution) {
		TreeMap<String, String> row = new TreeMap<>();
		solution.forEach(b -> row.put(b.getName(), NTriplesUtil.toNTriplesString(b.getValue())));
		return row.toString();
	}
}
