package dev.basalt.bench.driver;

import java.util.concurrent.atomic.LongAdder;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;

/**
 * Runs one query to completion through the Repository API and counts its results: solutions of a
 * SELECT, statements of a CONSTRUCT or DESCRIBE, 1 or 0 for an ASK. Consuming every result is part
 * of the measured time, as in the BSBM driver, and consuming means reading every value as a result
 * writer would: its lexical form, and a literal's datatype and language. LmdbStore and NativeStore
 * hand out values that load their text only when first read, while Basalt resolves its results
 * before it returns them; a driver that only counted solutions measured the first without that
 * work and the second with it.
 *
 * <p>Thread-safe: stateless but for a {@link LongAdder} of the characters read, which concurrent clients add
 * to; each client passes its own connection.
 */
public final class QueryExecutor {

	/** Queries running longer than this are aborted; the count then disagrees and the run fails. */
	public static final int MAX_EXECUTION_SECONDS = 300;

	/** Sum of the characters read, kept so that no reading can be optimized away; clients add concurrently. */
	private static final LongAdder CHARACTERS_READ = new LongAdder();

	private QueryExecutor() {
	}

	public static long count(RepositoryConnection conn, String sparql) {
		return count(conn, sparql, MAX_EXECUTION_SECONDS);
	}

	/**
	 * Like {@link #count(RepositoryConnection, String)} with a time limit of its own; a query that
	 * exceeds it throws RDF4J's {@code QueryEvaluationException} (an interruption, or the error of
	 * its closed iteration).
	 */
	public static long count(RepositoryConnection conn, String sparql, int maxSeconds) {
		Query query = conn.prepareQuery(QueryLanguage.SPARQL, sparql);
		query.setMaxExecutionTime(maxSeconds);
		long n = 0;
		long chars = 0;
		if (query instanceof TupleQuery tq) {
			try (TupleQueryResult result = tq.evaluate()) {
				while (result.hasNext()) {
					for (Binding binding : result.next()) {
						chars += read(binding.getValue());
					}
					n++;
				}
			}
		} else if (query instanceof GraphQuery gq) {
			try (GraphQueryResult result = gq.evaluate()) {
				while (result.hasNext()) {
					Statement st = result.next();
					chars += read(st.getSubject()) + read(st.getPredicate()) + read(st.getObject()) + read(st.getContext());
					n++;
				}
			}
		} else if (query instanceof BooleanQuery bq) {
			n = bq.evaluate() ? 1 : 0;
		} else {
			throw new IllegalArgumentException("Unsupported query form: " + sparql);
		}
		CHARACTERS_READ.add(chars);
		return n;
	}

	/** The integer value of the first binding of a SELECT's first solution, e.g. a {@code COUNT(*)}. */
	public static long scalar(RepositoryConnection conn, String select) {
		try (TupleQueryResult result = conn.prepareTupleQuery(QueryLanguage.SPARQL, select).evaluate()) {
			if (!result.hasNext()) {
				throw new IllegalStateException("No solution for " + select);
			}
			Value v = result.next().iterator().next().getValue();
			if (!(v instanceof Literal literal)) {
				throw new IllegalStateException("Expected a number from " + select + " but got " + v);
			}
			return literal.longValue();
		}
	}

	/** Characters of values read by every count so far (for tests). */
	static long charactersRead() {
		return CHARACTERS_READ.sum();
	}

	/** Reads what a result writer writes of {@code value} (nothing for an unbound one); returns its length. */
	private static long read(Value value) {
		if (value == null) {
			return 0;
		}
		long chars = value.stringValue().length();
		if (value instanceof Literal literal) {
			chars += literal.getDatatype().stringValue().length() + literal.getLanguage().map(String::length).orElse(0);
		}
		return chars;
	}
}
