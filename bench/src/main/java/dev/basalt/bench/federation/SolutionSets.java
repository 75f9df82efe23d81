package dev.basalt.bench.federation;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;

import dev.basalt.bench.compare.AnswerRows;

/**
 * A query's answer as a sorted list of canonical strings, so two stores' answers compare as
 * multisets: a solution is its bindings as {@code var=term} in variable order, a statement its
 * N-Triples form (DESCRIBE and CONSTRUCT answers are fetched as RDF/XML), an ASK answer "true" or
 * "false". Stateless but for one shared {@link HttpClient}, which is thread-safe; any thread may call it.
 */
final class SolutionSets {
	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

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
						rows.add(AnswerRows.row(solution));
					}
				}
			} else if (query instanceof GraphQuery) {
				for (Statement s : rdfXml(repository, sparql)) {
					rows.add(NTriplesUtil.toNTriplesString(s.getSubject()) + " " + NTriplesUtil.toNTriplesString(s.getPredicate())
							+ " " + NTriplesUtil.toNTriplesString(s.getObject()));
				}
			} else if (query instanceof BooleanQuery ask) {
				rows.add(String.valueOf(ask.evaluate()));
			}
		}
		rows.sort(null);
		return rows;
	}

	/**
	 * A DESCRIBE or CONSTRUCT answer asked for as RDF/XML only (as the BSBM test driver asks), so an
	 * endpoint that cannot write RDF/XML fails the comparison.
	 */
	private static Model rdfXml(Repository repository, String sparql) {
		String endpoint = ((SPARQLRepository) repository).toString();
		HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + "?query="
				+ URLEncoder.encode(sparql, StandardCharsets.UTF_8))).header("Accept", "application/rdf+xml")
				.timeout(Duration.ofMinutes(5)).build();
		try {
			HttpResponse<byte[]> response = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
			String type = response.headers().firstValue("Content-Type").orElse("");
			if (response.statusCode() != 200 || !type.startsWith("application/rdf+xml")) {
				throw new IllegalStateException(endpoint + " answered HTTP " + response.statusCode() + " (" + type
						+ ") to a graph query asking for RDF/XML: " + new String(response.body(), StandardCharsets.UTF_8));
			}
			return Rio.parse(new ByteArrayInputStream(response.body()), endpoint, RDFFormat.RDFXML);
		} catch (IOException e) {
			throw new UncheckedIOException(endpoint + ": " + e.getMessage(), e);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", e);
		}
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
