package dev.basalt.federation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds, when the front starts, the predicates whose every object is an instance of a configured
 * replicated class ({@link ReplicatedVocabulary#configuredClasses()}), on every member: e.g. with
 * vendors and producers replicated, {@code bsbm:vendor} and {@code bsbm:producer}. A star whose subject
 * variable is the object of such a predicate in another star of the same group matches only
 * replicated subjects, which every member holds whole, so {@link StarPushdown} joins it into that
 * star and the members answer the join on their own.
 *
 * <p>The answer holds for the data the members hold when the front starts: restart the front after a
 * load (as for FedX's source-selection cache). A member that does not answer leaves the set empty
 * (nothing is joined on the members; answers stay right). Stateless; {@link #learn} may be called
 * from any thread.
 */
final class ReplicatedRanges {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedRanges.class);

    private ReplicatedRanges() {
    }

    static Set<String> learn(List<? extends Repository> members, ReplicatedVocabulary replication) {
        Set<String> classes = replication.configuredClasses();
        if (classes.isEmpty() || members.isEmpty()) {
            return Set.of();
        }
        StringBuilder values = new StringBuilder("VALUES ?c {");
        for (String c : classes) {
            values.append(" <").append(c).append('>');
        }
        values.append(" }");
        try {
            Set<String> candidates = new LinkedHashSet<>();
            for (Repository member : members) {
                try (RepositoryConnection c = member.getConnection();
                        TupleQueryResult result = c.prepareTupleQuery("SELECT DISTINCT ?p WHERE { " + values
                                + " ?o a ?c . ?s ?p ?o }").evaluate()) {
                    for (BindingSet row : result) {
                        candidates.add(row.getValue("p").stringValue());
                    }
                }
            }
            List<String> ranged = new ArrayList<>();
            for (String p : candidates) {
                boolean all = true;
                for (Repository member : members) {
                    try (RepositoryConnection c = member.getConnection()) {
                        if (c.prepareBooleanQuery("ASK { ?s <" + p + "> ?o FILTER NOT EXISTS { " + values
                                + " ?o a ?c } }").evaluate()) {
                            all = false;
                            break;
                        }
                    }
                }
                if (all) {
                    ranged.add(p);
                }
            }
            LOG.info("predicates whose objects are all replicated (their stars join on the members): {}", ranged);
            return Set.copyOf(ranged);
        } catch (RuntimeException e) {
            LOG.warn("could not learn which predicates point at replicated subjects ({}); stars are joined by the front", e
                    .toString());
            return Set.of();
        }
    }
}
