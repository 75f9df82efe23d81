package dev.basalt.bench.lubm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;

import dev.basalt.bench.driver.QueryTemplate;

/** The answers of the 14 LUBM queries on a repository, as sorted lists of rows (a bag, duplicates kept). */
final class LubmAnswers {
    private LubmAnswers() {
    }

    static Map<String, List<String>> of(Repository repo) {
        Map<String, List<String>> out = new TreeMap<>();
        try (RepositoryConnection c = repo.getConnection()) {
            for (QueryTemplate q : LubmQueries.ALL) {
                out.put(q.name(), answers(c, q.text()));
            }
        }
        return out;
    }

    static List<String> answers(RepositoryConnection c, String query) {
        List<String> rows = new ArrayList<>();
        try (TupleQueryResult r = c.prepareTupleQuery(query).evaluate()) {
            for (BindingSet b : r) {
                StringBuilder row = new StringBuilder();
                for (String name : r.getBindingNames()) {
                    row.append(name).append('=').append(b.getValue(name)).append(' ');
                }
                rows.add(row.toString());
            }
        }
        Collections.sort(rows);
        return rows;
    }
}
